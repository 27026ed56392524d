//! Connecting, migrating and the [`Store`] handle.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::migrate::Migrator;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyPool, ConnectOptions, Connection, Executor};

use crate::WriteTx;
use crate::keys::Kek;
use crate::writer::{IDLE_REWIND, Lane, Rewind, SCRIPT_END, SCRIPT_START, WAL_REWIND_PAGES};
use crate::writer_conn::WriterConn;
use crate::{KeyError, StoreError};

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/postgres");

/// How long a closing store keeps trying to truncate SQLite's WAL.
const CLOSE_REWIND: Duration = Duration::from_secs(2);

/// Settings applied to every SQLite connection: a busy timeout so concurrent writers queue
/// instead of failing, enforced foreign keys, and a WAL file cut back, whenever it is rewound,
/// to the size at which the writer rewinds it ([`WAL_REWIND_PAGES`] pages of SQLite's default
/// 4 KiB), so that it is written over in place, not extended again. WAL itself is set once, by
/// [`set_wal`].
static SQLITE_PRAGMAS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "PRAGMA busy_timeout=5000; PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL; \
         PRAGMA journal_size_limit={};",
        WAL_REWIND_PAGES * 4096
    )
});

/// How long [`set_wal`] tries while another process holds the database.
const SET_WAL_FOR: Duration = Duration::from_secs(5);

/// A pooled PostgreSQL connection idle this long is pinged before it is handed out. sqlx pings
/// every connection it hands out by default: one more round trip to the server for every
/// statement (on SQLite, one more hop to the connection's thread), which cost the envelope PUT
/// and the console's pages more than their own work.
const PING_IDLE_AFTER: Duration = Duration::from_secs(5);

/// Which database the store talks to. Use it for the few places where the SQL dialects differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// SQLite, the embedded default.
    Sqlite,
    /// PostgreSQL, for several nodes sharing one database.
    Postgres,
}

impl Backend {
    /// A short lowercase name: `"sqlite"` or `"postgres"`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }

    /// One statement's round trip that runs the write `first` and, only when it changed a
    /// row, inserts the row `values` (a select list) with `into` (`INSERT INTO t (cols)`), then
    /// `tail` (`ON CONFLICT ...`): both or neither. Run it with
    /// [`WriteQuery::write`](crate::WriteQuery::write); rows affected above zero mean `first`
    /// changed a row. Placeholders are shared: `$n` is the same value in both parts.
    ///
    /// PostgreSQL: `first` as a data-modifying `WITH`. SQLite, which has none: both
    /// statements in one script, in a savepoint (see `crate::writer`).
    pub fn then_insert(self, first: &str, into: &str, values: &str, tail: &str) -> String {
        self.then_insert_rows(first, into, [values], tail)
    }

    /// [`Backend::then_insert`] with one row for each select list of `rows` (at least one;
    /// SQLite takes 500 at most in one statement).
    pub fn then_insert_rows<'a>(
        self,
        first: &str,
        into: &str,
        rows: impl IntoIterator<Item = &'a str>,
        tail: &str,
    ) -> String {
        let (from, start, end) = match self {
            Backend::Postgres => (
                "FROM first",
                format!("WITH first AS ({first} RETURNING 1) {into}"),
                String::new(),
            ),
            // `changes()` is the update's until this statement completes
            Backend::Sqlite => (
                "WHERE changes() > 0",
                format!("{SCRIPT_START} {first}; {into}"),
                SCRIPT_END.to_string(),
            ),
        };
        let selects: Vec<String> = rows
            .into_iter()
            .map(|values| format!("SELECT {values} {from}"))
            .collect();
        format!("{start} {} {tail}{end}", selects.join(" UNION ALL "))
    }

    /// Row-locking suffix for a queue claim `SELECT`: `FOR UPDATE SKIP LOCKED` on PostgreSQL,
    /// nothing on SQLite (where a write transaction is already exclusive; see
    /// [`Store::begin_write`]). Starts with a space so it can be appended to a statement.
    pub fn skip_locked(self) -> &'static str {
        match self {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }
}

/// Handle to the database; cheap to clone (all clones share one pool).
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    url: Arc<str>,
    /// SQLite's one writer connection, which every write of this process goes through (see
    /// [`crate::writer`]); `None` on PostgreSQL.
    lane: Option<Arc<Lane>>,
    /// The key that seals the secrets (see [`crate::keys`]); `None` until given.
    kek: Option<Arc<Kek>>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The URL may hold a password: show the backend only.
        f.debug_struct("Store")
            .field("backend", &self.backend)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// Connect and run pending migrations.
    ///
    /// `database` is a `postgres://`/`postgresql://` URL, a `sqlite:` URL, or a plain file path
    /// (SQLite). A SQLite file and its parent folders are created on first start.
    pub async fn open(database: &str) -> Result<Store, StoreError> {
        Store::open_with(database, IDLE_REWIND).await
    }

    /// [`open`](Self::open), SQLite's WAL emptied after `idle` without a write.
    async fn open_with(database: &str, idle: Duration) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let database = database.trim();
        if database.is_empty() {
            return Err(StoreError::Invalid("empty database location".into()));
        }
        let lower = database.to_ascii_lowercase();
        let store = if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            let pool = AnyPoolOptions::new()
                .max_connections(10)
                .acquire_timeout(Duration::from_secs(10))
                .test_before_acquire(false)
                .before_acquire(|conn, meta| {
                    Box::pin(async move {
                        // a connection idle a while may have been cut (a restarted or failed
                        // over server): ping that one only, and drop it if it does not answer
                        Ok(meta.idle_for < PING_IDLE_AFTER || conn.ping().await.is_ok())
                    })
                })
                .connect(database)
                .await?;
            Store {
                pool,
                backend: Backend::Postgres,
                url: database.into(),
                lane: None,
                kek: None,
            }
        } else if lower.contains("://") && !lower.starts_with("sqlite:") {
            return Err(StoreError::Invalid(format!(
                "unsupported database URL scheme in {database:?} (use postgres://, sqlite: or a file path)"
            )));
        } else {
            let (url, in_memory, path) = sqlite_url(database)?;
            // A SQLite connection is a file handle that nothing else cuts: no ping on acquire.
            let mut options = AnyPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(10))
                .test_before_acquire(false);
            if in_memory {
                // An in-memory database lives as long as one connection to it: keep one open.
                options = options
                    .min_connections(1)
                    .idle_timeout(None)
                    .max_lifetime(None);
            }
            // The writer first: it puts the file in WAL mode before any reader opens it.
            let mut writer = WriterConn::open(&path, in_memory, &SQLITE_PRAGMAS)?;
            set_wal(&mut writer).await?;
            let pool = options
                .after_connect(|conn, _meta| {
                    Box::pin(async move {
                        conn.execute(SQLITE_PRAGMAS.as_str()).await?;
                        Ok(())
                    })
                })
                .connect(&url)
                .await?;
            let lane = Lane::new(writer, pool.clone(), idle)?;
            Store {
                pool,
                backend: Backend::Sqlite,
                url: url.into(),
                lane: Some(lane),
                kek: None,
            }
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Apply pending migrations of this backend's folder (`migrations/<backend>/`).
    async fn migrate(&self) -> Result<(), StoreError> {
        match self.backend {
            // sqlx holds a PostgreSQL advisory lock while migrating, so nodes starting at once
            // take turns and the later ones find nothing left to do.
            Backend::Postgres => POSTGRES_MIGRATIONS.run(&self.pool).await?,
            // SQLite has no such lock: a second process migrating the same file at the same
            // moment fails its (rolled back) transaction; trying again finds the work done.
            Backend::Sqlite => {
                let mut attempt = 0;
                loop {
                    match SQLITE_MIGRATIONS.run(&self.pool).await {
                        Ok(()) => break,
                        Err(e) if attempt < 3 => {
                            attempt += 1;
                            tracing::debug!(error = %e, attempt, "sqlite migration raced; retrying");
                            tokio::time::sleep(Duration::from_millis(50 * attempt)).await;
                        }
                        Err(e) => return Err(e.into()),
                    }
                }
            }
        }
        Ok(())
    }

    /// This store with the key-encryption key that seals and opens its secrets.
    pub fn with_key(mut self, kek: Kek) -> Store {
        self.kek = Some(Arc::new(kek));
        self
    }

    /// The key-encryption key ([`KeyError::Missing`] when none was given).
    pub fn kek(&self) -> Result<&Kek, StoreError> {
        Ok(self.kek.as_deref().ok_or(KeyError::Missing)?)
    }

    /// Seals a secret with the store's key, for a column listed in [`crate::keys`].
    pub fn seal(&self, plain: &[u8]) -> Result<String, StoreError> {
        Ok(self.kek()?.seal(plain))
    }

    /// Opens a secret sealed with the store's key.
    pub fn open_sealed(&self, sealed: &str) -> Result<Vec<u8>, StoreError> {
        Ok(self.kek()?.open(sealed)?)
    }

    /// Opens a secret sealed with the store's key, as UTF-8 text.
    pub fn open_sealed_text(&self, sealed: &str) -> Result<String, StoreError> {
        Ok(self.kek()?.open_text(sealed)?)
    }

    /// The connection pool, for queries this crate does not wrap.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Which backend this store uses.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The database URL: as given for PostgreSQL (e.g. for a `PgListener`), a normalised
    /// `sqlite://<absolute path>?mode=rwc..` URL for SQLite. Accepted by [`Store::open`].
    pub fn database_url(&self) -> &str {
        &self.url
    }

    /// Check that the database answers (`SELECT 1`); used by readiness probes.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Starts a transaction that will write: on PostgreSQL a plain `BEGIN`; on SQLite the
    /// writer's turn, in a group commit ([`WriteTx`]), which also means a read-then-write
    /// transaction cannot fail half way with `SQLITE_BUSY`.
    pub async fn begin_write(&self) -> Result<WriteTx, StoreError> {
        Ok(match self.lane() {
            Some(lane) => WriteTx::sqlite(lane).await?,
            None => WriteTx::postgres(self.pool.begin().await?),
        })
    }

    /// SQLite's writer (`None` on PostgreSQL).
    pub(crate) fn lane(&self) -> Option<&Arc<Lane>> {
        self.lane.as_ref()
    }

    /// Close all connections, waiting for checked-out ones to be returned. On SQLite the WAL
    /// is then copied into the database and truncated (no reader is left to hold it), so a
    /// stopped server leaves the database alone. A truncation that does not happen (a group a
    /// background task still has open on the writer, a checkpoint still finishing) is tried
    /// again for up to [`CLOSE_REWIND`] before the WAL is left for the next start.
    pub async fn close(&self) {
        self.pool.close().await;
        let Some(lane) = &self.lane else {
            return;
        };
        let started = std::time::Instant::now();
        while !lane.rewind_wal(Rewind::Truncate).await {
            if started.elapsed() >= CLOSE_REWIND {
                tracing::warn!("SQLite WAL left for the next start: it could not be truncated");
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Puts the database in WAL mode (readers never block the writer), once, from the store's
/// writer. WAL is a property of the file, which every later connection finds there: setting it
/// on each new connection, as folio did, takes a lock that SQLite's busy timeout does not wait
/// for, so a connection opened while another process wrote could fail at once with "database
/// is locked" (the likeliest cause of the CLI's rare failure beside a busy server, which was
/// never reproduced: docs/configuration-and-operations.md). Here a refusal is retried for up
/// to [`SET_WAL_FOR`].
async fn set_wal(conn: &mut WriterConn) -> Result<(), sqlx::Error> {
    let started = std::time::Instant::now();
    loop {
        match conn.execute("PRAGMA journal_mode=WAL") {
            Err(sqlx::Error::Database(e))
                if e.message().contains("locked") && started.elapsed() < SET_WAL_FOR =>
            {
                tracing::debug!(error = %e, "SQLite busy while setting WAL; trying again");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            done => return done.map(|_| ()),
        }
    }
}

/// Normalise a `sqlite:` URL or a plain path into a `sqlite://` URL with `mode=rwc` and an
/// absolute path, creating the parent folders of the file. Also says whether the database is
/// in memory (`sqlite::memory:`), which is only useful for quick tests, and what the writer
/// opens: the file's path, or the in-memory database's `file:` URI.
fn sqlite_url(database: &str) -> Result<(String, bool, PathBuf), StoreError> {
    let is_url = database.len() >= 7 && database[..7].eq_ignore_ascii_case("sqlite:");
    if is_url && (database.contains(":memory:") || database.contains("mode=memory")) {
        // Name one shared in-memory database, so every pooled connection sees the same data.
        // (Built by hand: sqlx's own URL for `:memory:` does not parse back.)
        let name = uuid::Uuid::new_v4().simple();
        let uri = format!("file:folio-memory-{name}?mode=memory&cache=shared");
        return Ok((format!("sqlite:{uri}"), true, uri.into()));
    }
    let opts = if is_url {
        SqliteConnectOptions::from_str(database)?
    } else {
        SqliteConnectOptions::new().filename(database)
    };
    let path: PathBuf = std::path::absolute(opts.get_filename()).map_err(|e| {
        StoreError::Invalid(format!("bad SQLite path {:?}: {e}", opts.get_filename()))
    })?;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        create_dir_all(parent)?;
    }
    let opts = opts.filename(&path).create_if_missing(true);
    Ok((opts.to_url_lossy().to_string(), false, path))
}

fn create_dir_all(dir: &Path) -> Result<(), StoreError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| StoreError::Invalid(format!("cannot create folder {}: {e}", dir.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The WAL's size limit, derived from the rewind threshold, is in force (the writer's
    /// connection is opened with the same settings).
    #[tokio::test]
    async fn sqlite_connections_limit_the_wal_to_the_rewind_threshold() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("folio.db").to_str().unwrap())
            .await
            .unwrap();
        let want = WAL_REWIND_PAGES * 4096;
        let pool: i64 = sqlx::query_scalar("PRAGMA journal_size_limit")
            .fetch_one(store.pool())
            .await
            .unwrap();
        assert_eq!(pool, want);
        store.close().await;
    }

    /// Once the writer has been idle for its quiet period, the WAL is copied into the database
    /// and cut to nothing, the server still running; a write after it starts the WAL again.
    #[tokio::test]
    async fn an_idle_writer_empties_the_wal() {
        use crate::WriteQuery as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("folio.db");
        let idle = Duration::from_millis(100);
        let store = Store::open_with(path.to_str().unwrap(), idle)
            .await
            .unwrap();
        let wal = dir.path().join("folio.db-wal");
        let size = || std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
        let count = |store: Store| async move {
            let n: i64 = sqlx::query_scalar("SELECT count(*) FROM workspaces")
                .fetch_one(store.pool())
                .await
                .unwrap();
            n
        };
        let before = count(store.clone()).await;
        for round in 0..2 {
            for i in 0..5 {
                sqlx::query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, $1, 0)")
                    .bind(format!("idle-{round}-{i}"))
                    .write(&store)
                    .await
                    .unwrap();
            }
            assert!(size() > 0, "round {round}: the writes are in the WAL");
            let started = std::time::Instant::now();
            while size() > 0 {
                assert!(
                    started.elapsed() < Duration::from_secs(5),
                    "round {round}: the WAL still holds {} bytes after 5 s idle",
                    size()
                );
                tokio::time::sleep(idle / 2).await;
            }
            assert_eq!(count(store.clone()).await, before + 5 * (round + 1));
        }
        store.close().await;
    }
}
