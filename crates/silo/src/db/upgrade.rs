//! An older folio's envelopes are found and listed with their facts after the upgrade that
//! added the stored summary (migration 0017 backfills it), on both backends: a database is
//! migrated as that folio left it, given an envelope the way it stored one, then opened by
//! this folio.

use std::path::{Path, PathBuf};

use folio_api::limits::Limits;
use folio_store::testing::{DATABASE_URL_VAR, create_postgres_database, drop_postgres_database};
use folio_store::{Blobs, Scope, Store};
use sqlx::Executor;
use uuid::Uuid;

use crate::{BrowseQuery, SearchQuery, Silo};

/// The last migration of the folio before the summary.
const BEFORE: u32 = 16;

const DOCUMENT: &str = r#"{"$schema":"https://gobl.org/draft-0/envelope","head":{"uuid":"UUID","dig":{"alg":"sha256","val":"0"}},"doc":{"$schema":"https://gobl.org/draft-0/bill/invoice","series":"FT","code":"101","currency":"EUR","issue_date":"2026-11-02","supplier":{"name":"Muster GmbH","tax_id":{"country":"DE","code":"111111125"}},"customer":{"name":"Kunde Aktiengesellschaft","tax_id":{"country":"DE","code":"282741168"}},"totals":{"payable":"119.00"}}}"#;

/// Migrates `url` as the older folio did (its migrations only).
async fn migrate_as_before(url: &str, backend: &str) {
    let all = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../store/migrations")
        .join(backend);
    let older = tempfile::tempdir().unwrap();
    for file in std::fs::read_dir(&all).unwrap() {
        let path = file.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let version: u32 = name[..4].parse().unwrap();
        if version <= BEFORE {
            std::fs::copy(&path, older.path().join(&name)).unwrap();
        }
    }
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let migrator = sqlx::migrate::Migrator::new(older.path()).await.unwrap();
    migrator.run(&pool).await.unwrap();
    store_as_before(&pool).await;
    pool.close().await;
}

/// A workspace and an envelope, as the older folio wrote them (no summary).
async fn store_as_before(pool: &sqlx::AnyPool) {
    let (ws, id) = (workspace(), Uuid::from_u128(42));
    let data = DOCUMENT.replace("UUID", &id.to_string());
    pool.execute(
        sqlx::query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, 'old', 0)")
            .bind(ws.to_string()),
    )
    .await
    .unwrap();
    pool.execute(
        sqlx::query(
            "INSERT INTO silo_envelopes (workspace_id, id, created_at, updated_at, key, folder, \
             env_schema, doc_schema, digest, signed, state, version, tags, meta, fingerprint) \
             VALUES ($1, $2, 1, 1, 'A-1', NULL, 'https://gobl.org/draft-0/envelope', \
             'https://gobl.org/draft-0/bill/invoice', '0', 0, NULL, 'v1', '[]', '{}', 'f')",
        )
        .bind(ws.to_string())
        .bind(id.to_string()),
    )
    .await
    .unwrap();
    pool.execute(
        sqlx::query(
            "INSERT INTO silo_versions (workspace_id, envelope_id, version, created_at, data) \
             VALUES ($1, $2, 'v1', 1, $3)",
        )
        .bind(ws.to_string())
        .bind(id.to_string())
        .bind(data),
    )
    .await
    .unwrap();
}

fn workspace() -> Uuid {
    Uuid::from_u128(7)
}

/// Opens the database with this folio (migrating it) and finds the older envelope.
async fn found_after_upgrade(url: &str, dir: &Path) {
    let store = Store::open(url).await.unwrap();
    let silo = Silo::new(store.clone(), Blobs::local(dir).unwrap(), Limits::default());
    let ws = Scope::new(workspace());
    for q in ["FT-101", "kunde aktien", "DE282741168", "111111125", "a-1"] {
        let search = SearchQuery {
            q: q.into(),
            limit: 10,
            ..SearchQuery::default()
        };
        let page = silo.search(ws, &search).await.unwrap();
        let keys: Vec<_> = page.items.iter().map(|e| e.key.clone()).collect();
        assert_eq!(keys, [Some("A-1".to_string())], "{url}: {q}");
    }
    let browse = BrowseQuery {
        words: vec!["muster".into()],
        limit: 10,
        ..BrowseQuery::default()
    };
    let page = silo.browse(ws, &browse).await.unwrap();
    let row = &page.items[0];
    assert_eq!(row.number.as_deref(), Some("FT-101"));
    assert_eq!(row.supplier.as_deref(), Some("Muster GmbH"));
    assert_eq!(row.customer.as_deref(), Some("Kunde Aktiengesellschaft"));
    assert_eq!(row.currency.as_deref(), Some("EUR"));
    assert_eq!(row.payable.as_deref(), Some("119.00"));
    store.close().await;
}

#[tokio::test]
async fn an_older_folios_envelopes_are_found_and_listed_after_the_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("folio.db");
    migrate_as_before(&format!("sqlite://{}?mode=rwc", path.display()), "sqlite").await;
    found_after_upgrade(path.to_str().unwrap(), dir.path()).await;
    let Ok(admin) = std::env::var(DATABASE_URL_VAR) else {
        return;
    };
    let (url, name) = create_postgres_database(&admin).await;
    migrate_as_before(&url, "postgres").await;
    found_after_upgrade(&url, dir.path()).await;
    drop_postgres_database(&admin, &name).await.unwrap();
}
