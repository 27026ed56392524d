//! Test harness: a fresh, throwaway database per test, for every backend.
//!
//! ```no_run
//! # async fn story() {
//! for db in folio_store::testing::backends().await {
//!     let ws = db.store.create_workspace("acme").await.unwrap();
//!     assert_eq!(db.store.workspace(ws.id).await.unwrap(), Some(ws), "{}", db.label);
//! }
//! # }
//! ```
//!
//! Each database comes with a random key-encryption key ([`TestDb::key`]).
//!
//! SQLite databases live in a temporary folder; PostgreSQL ones are created as
//! `folio_test_<uuid>` on the server named by `FOLIO_TEST_DATABASE_URL` and dropped afterwards.

use std::path::Path;

use sqlx::{Connection, Executor};
use tempfile::TempDir;
use uuid::Uuid;

use crate::{Kek, Store};

/// Environment variable naming a PostgreSQL server for tests, e.g.
/// `postgres://postgres@127.0.0.1:5432/postgres`.
pub const DATABASE_URL_VAR: &str = "FOLIO_TEST_DATABASE_URL";

/// A migrated, empty database that is deleted when this value is dropped, with a temporary
/// folder that lives as long as it.
pub struct TestDb {
    /// The open store.
    pub store: Store,
    /// `"sqlite"` or `"postgres"`, for assertion messages.
    pub label: &'static str,
    url: String,
    /// Holds the SQLite file (with its WAL and SHM files); removed on drop.
    dir: TempDir,
    /// PostgreSQL only: `(admin URL, database name)` to drop.
    postgres: Option<(String, String)>,
}

impl TestDb {
    /// The database string; pass it to [`Store::open`] (or a second server process) to share
    /// this database.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The key-encryption key the store seals its secrets with (a random one per database):
    /// give it to a server or a second store that shares this database.
    pub fn key(&self) -> &Kek {
        self.store.kek().expect("test stores have a key")
    }

    /// A temporary folder removed with this database, e.g. for blobs or a server's data folder.
    /// For SQLite it also holds the database (in `data/`).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl std::fmt::Debug for TestDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestDb")
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Some((admin_url, name)) = self.postgres.take() else {
            return;
        };
        // Drop is synchronous and may run inside a runtime, so use a thread with its own.
        // The store's pool is not closed here: that would wait for tasks on the (now blocked)
        // test runtime. `WITH (FORCE)` ends its sessions instead.
        let done = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("tokio runtime for test cleanup");
            rt.block_on(drop_postgres_database(&admin_url, &name))
        })
        .join();
        if !matches!(done, Ok(Ok(()))) {
            eprintln!("warning: could not drop test database {}", self.url);
        }
    }
}

/// A fresh SQLite database in a temporary folder.
pub async fn sqlite() -> TestDb {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("data").join("folio.db");
    let url = path.to_str().expect("utf-8 temp path").to_string();
    let store = Store::open(&url)
        .await
        .expect("open sqlite test database")
        .with_key(Kek::generate());
    TestDb {
        store,
        label: "sqlite",
        url,
        dir,
        postgres: None,
    }
}

/// A fresh PostgreSQL database, or `None` (with a note on stderr) when
/// `FOLIO_TEST_DATABASE_URL` is not set.
pub async fn postgres() -> Option<TestDb> {
    let Ok(admin_url) = std::env::var(DATABASE_URL_VAR) else {
        eprintln!("skipping postgres: {DATABASE_URL_VAR} not set");
        return None;
    };
    let (url, name) = create_postgres_database(&admin_url).await;
    let store = Store::open(&url)
        .await
        .expect("open postgres test database")
        .with_key(Kek::generate());
    Some(TestDb {
        store,
        label: "postgres",
        url,
        dir: tempfile::tempdir().expect("temp dir"),
        postgres: Some((admin_url, name)),
    })
}

/// Create an empty (unmigrated) database `folio_test_<uuid>` on the server at `admin_url`;
/// returns its URL and name. Drop it with [`drop_postgres_database`].
pub async fn create_postgres_database(admin_url: &str) -> (String, String) {
    sqlx::any::install_default_drivers();
    let name = format!("folio_test_{}", Uuid::new_v4().simple());
    let mut conn = sqlx::AnyConnection::connect(admin_url)
        .await
        .unwrap_or_else(|e| panic!("connect to {DATABASE_URL_VAR}: {e}"));
    conn.execute(format!(r#"CREATE DATABASE "{name}""#).as_str())
        .await
        .expect("create test database");
    conn.close().await.ok();
    (with_database(admin_url, &name), name)
}

/// Drop the database `name` on the server at `admin_url`, disconnecting its sessions.
pub async fn drop_postgres_database(admin_url: &str, name: &str) -> Result<(), sqlx::Error> {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(admin_url).await?;
    conn.execute(format!(r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#).as_str())
        .await?;
    conn.close().await
}

/// SQLite, then PostgreSQL when `FOLIO_TEST_DATABASE_URL` is set.
pub async fn backends() -> Vec<TestDb> {
    let mut all = vec![sqlite().await];
    all.extend(postgres().await);
    all
}

/// Two fresh databases of each backend, SQLite then PostgreSQL when `FOLIO_TEST_DATABASE_URL`
/// is set: a benchmark's empty store beside the one it fills.
pub async fn backend_pairs() -> Vec<(TestDb, TestDb)> {
    let mut all = vec![(sqlite().await, sqlite().await)];
    if let (Some(a), Some(b)) = (postgres().await, postgres().await) {
        all.push((a, b));
    }
    all
}

/// Gathers the planner statistics that autovacuum gathers on a running PostgreSQL server within
/// a minute (SQLite has nothing like it). Benchmarks call it after a warm-up: on a database
/// made seconds ago, PostgreSQL plans for tables it believes empty, and may look a row up by
/// its key through an index that only leads with the workspace, reading every row of it.
pub async fn analyze(store: &Store) {
    if store.backend() == crate::Backend::Postgres {
        sqlx::query("ANALYZE")
            .execute(store.pool())
            .await
            .expect("ANALYZE");
    }
}

/// Whether a query plan (`EXPLAIN QUERY PLAN`'s details on SQLite, `EXPLAIN`'s lines on
/// PostgreSQL) reads one of `tables` whole: SQLite's `SCAN <name>`, PostgreSQL's `Seq Scan on
/// <name>`. SQLite names a table by its alias when the statement gives one, so list aliases too.
pub fn scans_whole(plan: &str, tables: &[&str]) -> bool {
    plan.lines().any(|line| {
        let line = line.trim_start_matches([' ', '-', '>']);
        let scanned = line
            .strip_prefix("SCAN ")
            .or_else(|| line.strip_prefix("Seq Scan on "));
        scanned.is_some_and(|rest| {
            let name = rest.split(' ').next().unwrap_or_default();
            tables.contains(&name)
        })
    })
}

/// `url` with its database (path) replaced by `name`, keeping any query string.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    let mut out = format!("{}/{name}", &base[..host_end]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// The rows `n(i)` for `i` in `0 .. $2` of a bulk fill statement on `backend`: what goes after
/// `FROM`, and the head that must precede the statement (SQLite's recursive CTE).
pub fn numbered_rows(backend: crate::Backend) -> (&'static str, &'static str) {
    match backend {
        crate::Backend::Sqlite => (
            "n",
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $2 - 1) ",
        ),
        crate::Backend::Postgres => ("generate_series(0, $2 - 1) AS n(i)", ""),
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn replaces_database_name() {
        assert_eq!(
            with_database("postgres://u@h:5432/postgres", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(with_database("postgres://u@h", "x"), "postgres://u@h/x");
        assert_eq!(
            with_database("postgres://u@h/db?sslmode=disable", "x"),
            "postgres://u@h/x?sslmode=disable"
        );
    }
}
