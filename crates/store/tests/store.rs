//! The storage story, run against every backend (`FOLIO_TEST_DATABASE_URL` adds PostgreSQL).

use bytes::Bytes;
use chrono::{Duration, TimeZone, Utc};
use folio_store::testing::{self, TestDb};
use folio_store::{Blobs, Store, StoreError, TokenRecord, from_millis, millis, now};
use sha2::{Digest, Sha256};
use sqlx::Row;
use uuid::Uuid;

#[tokio::test]
async fn storage_story() {
    for db in testing::backends().await {
        story(&db).await;
    }
}

async fn story(db: &TestDb) {
    let label = db.label;
    let store = &db.store;
    store.ping().await.unwrap();
    assert_eq!(store.backend().name(), label);

    // Opening the same database again runs migrations again: nothing to do.
    let again = Store::open(db.url())
        .await
        .unwrap()
        .with_key(db.key().clone());
    assert_eq!(again.backend(), store.backend());
    assert_eq!(store.count_workspaces().await.unwrap(), 0, "{label}");

    // Workspaces.
    let acme = store.create_workspace("acme").await.unwrap();
    let beta = store.create_workspace("beta").await.unwrap();
    let dup = store.create_workspace("acme").await.unwrap_err();
    assert!(matches!(dup, StoreError::Conflict(_)), "{label}: {dup:?}");
    assert!(dup.is_unique_violation());
    assert!(matches!(
        store.create_workspace("").await,
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(
        store.workspace(acme.id).await.unwrap().as_ref(),
        Some(&acme)
    );
    assert_eq!(
        again.workspace_by_name("beta").await.unwrap(),
        Some(beta.clone())
    );
    assert_eq!(store.workspace(Uuid::new_v4()).await.unwrap(), None);
    assert_eq!(store.workspace_by_name("nope").await.unwrap(), None);
    assert_eq!(
        store.list_workspaces().await.unwrap(),
        vec![acme.clone(), beta.clone()]
    );
    assert_eq!(store.count_workspaces().await.unwrap(), 2);

    // Tokens.
    let t0 = Utc.timestamp_millis_opt(1_700_000_000_123).unwrap();
    let first = TokenRecord {
        id: Uuid::new_v4(),
        workspace_id: beta.id,
        created_at: t0,
        expires_at: Some(t0 + Duration::days(30)),
        revoked_at: None,
    };
    let second = TokenRecord {
        id: Uuid::new_v4(),
        workspace_id: acme.id,
        created_at: t0 + Duration::milliseconds(1),
        expires_at: None,
        revoked_at: None,
    };
    store.insert_token(&second).await.unwrap();
    store.insert_token(&first).await.unwrap();
    assert!(matches!(
        store.insert_token(&first).await,
        Err(StoreError::Conflict(_))
    ));
    let orphan = TokenRecord {
        id: Uuid::new_v4(),
        workspace_id: Uuid::new_v4(),
        ..first.clone()
    };
    assert!(matches!(
        store.insert_token(&orphan).await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(store.token(first.id).await.unwrap(), Some(first.clone()));
    assert_eq!(store.token(Uuid::new_v4()).await.unwrap(), None);
    let listed = store.list_tokens().await.unwrap();
    assert_eq!(
        listed,
        vec![
            (first.clone(), "beta".to_string()),
            (second.clone(), "acme".to_string())
        ],
        "{label}: oldest first"
    );
    assert!(first.is_active(t0));
    assert!(!first.is_active(t0 + Duration::days(31)));

    assert!(store.revoke_token(first.id).await.unwrap());
    let revoked = store.token(first.id).await.unwrap().unwrap();
    let revoked_at = revoked.revoked_at.expect("revoked");
    assert!(!revoked.is_active(now()));
    assert!(store.revoke_token(first.id).await.unwrap(), "idempotent");
    assert_eq!(
        store.token(first.id).await.unwrap().unwrap().revoked_at,
        Some(revoked_at),
        "second revocation keeps the first time"
    );
    assert!(!store.revoke_token(Uuid::new_v4()).await.unwrap());
    assert_eq!(
        store.token(second.id).await.unwrap().unwrap().revoked_at,
        None
    );

    // Server secret: created once, the same for every caller and every open.
    let secret = store.server_secret().await.unwrap();
    assert_eq!(secret.len(), 32);
    assert_eq!(store.server_secret().await.unwrap(), secret);
    assert_eq!(again.server_secret().await.unwrap(), secret);
    let third = Store::open(db.url())
        .await
        .unwrap()
        .with_key(db.key().clone());
    assert_eq!(third.server_secret().await.unwrap(), secret, "{label}");
    third.close().await;
    again.close().await;

    // Timestamps keep millisecond precision.
    let t = now();
    assert_eq!(from_millis(millis(t)), t);
    let raw = Utc.timestamp_nanos(1_700_000_000_123_456_789);
    assert_eq!(millis(raw), 1_700_000_000_123);
    let back: i64 = sqlx::query_scalar("SELECT created_at FROM workspaces WHERE id = $1")
        .bind(acme.id.to_string())
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(from_millis(back), acme.created_at);

    // Numbered placeholders bind by number, also out of order and repeated.
    let row = sqlx::query("SELECT $2 AS b, $1 AS a, $2 AS b2")
        .bind("one")
        .bind("two")
        .fetch_one(store.pool())
        .await
        .unwrap();
    let (a, b, b2): (String, String, String) = (
        row.try_get("a").unwrap(),
        row.try_get("b").unwrap(),
        row.try_get("b2").unwrap(),
    );
    assert_eq!(
        (a.as_str(), b.as_str(), b2.as_str()),
        ("one", "two", "two"),
        "{label}"
    );
    let name: String =
        sqlx::query_scalar("SELECT name FROM workspaces WHERE created_at = $2 AND id = $1")
            .bind(beta.id.to_string())
            .bind(millis(beta.created_at))
            .fetch_one(store.pool())
            .await
            .unwrap();
    assert_eq!(name, "beta");

    // A write transaction (BEGIN IMMEDIATE on SQLite) commits like any other.
    let mut tx = store.begin_write().await.unwrap();
    sqlx::query("UPDATE workspaces SET name = $1 WHERE id = $2")
        .bind("beta2")
        .bind(beta.id.to_string())
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert!(store.workspace_by_name("beta2").await.unwrap().is_some());

    // Portable upsert.
    for value in [b"one".to_vec(), b"two".to_vec()] {
        sqlx::query(
            "INSERT INTO server_secrets (name, secret, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (name) DO UPDATE SET secret = excluded.secret",
        )
        .bind("test_upsert")
        .bind(value)
        .bind(millis(now()))
        .execute(store.pool())
        .await
        .unwrap();
    }
    let got: Vec<u8> = sqlx::query_scalar("SELECT secret FROM server_secrets WHERE name = $1")
        .bind("test_upsert")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(got, b"two");
}

/// Two nodes starting at once on a brand-new database: both come up, migrations run once.
#[tokio::test]
async fn concurrent_opens_migrate_once() {
    let tmp = tempfile::tempdir().unwrap();
    let mut targets = vec![(
        "sqlite",
        tmp.path().join("race/folio.db").display().to_string(),
        None,
    )];
    if let Ok(admin) = std::env::var(testing::DATABASE_URL_VAR) {
        let (url, name) = testing::create_postgres_database(&admin).await;
        targets.push(("postgres", url, Some((admin, name))));
    }
    for (label, url, cleanup) in targets {
        let (a, b) = tokio::join!(Store::open(&url), Store::open(&url));
        let key = folio_store::Kek::generate();
        let (a, b) = (a.unwrap().with_key(key.clone()), b.unwrap().with_key(key));
        a.create_workspace("x").await.unwrap();
        assert_eq!(b.count_workspaces().await.unwrap(), 1, "{label}");
        let (s1, s2) = tokio::join!(a.server_secret(), b.server_secret());
        assert_eq!(s1.unwrap(), s2.unwrap(), "{label}");
        a.close().await;
        b.close().await;
        if let Some((admin, name)) = cleanup {
            testing::drop_postgres_database(&admin, &name)
                .await
                .unwrap();
        }
    }
}

#[tokio::test]
async fn sqlite_in_memory_is_one_database() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    store.create_workspace("m").await.unwrap();
    // Several connections at once must all see the same database.
    let counts = futures::future::join_all((0..6).map(|_| store.count_workspaces())).await;
    assert!(counts.into_iter().all(|n| n.unwrap() == 1));
}

#[tokio::test]
async fn sqlite_url_forms() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b/c/folio.db");
    let url = format!("sqlite://{}", path.display());
    let store = Store::open(&url).await.unwrap();
    assert!(path.exists(), "file and parent folders created");
    let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(mode, "wal");
    let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(fk, 1);
    let reopened = Store::open(store.database_url()).await.unwrap();
    reopened.ping().await.unwrap();
    assert!(matches!(
        Store::open("mysql://x").await,
        Err(StoreError::Invalid(_))
    ));
}

fn digest(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

#[tokio::test]
async fn local_blobs() {
    let dir = tempfile::tempdir().unwrap();
    let blobs = Blobs::local(&dir.path().join("blobs")).unwrap();
    let body = Bytes::from_static(b"%PDF-1.7 hello");
    let hex = digest(&body);
    assert!(!blobs.exists(&hex).await.unwrap());
    assert!(matches!(blobs.get(&hex).await, Err(StoreError::NotFound)));
    blobs.put(&hex, body.clone()).await.unwrap();
    blobs.put(&hex, body.clone()).await.unwrap(); // already there: no-op
    assert!(blobs.exists(&hex).await.unwrap());
    assert_eq!(blobs.get(&hex).await.unwrap(), body);
    let on_disk = dir.path().join("blobs/sha256").join(&hex[..2]).join(&hex);
    assert_eq!(std::fs::read(on_disk).unwrap(), body);
    assert!(matches!(
        blobs.get("../../etc/passwd").await,
        Err(StoreError::Invalid(_))
    ));

    let url = format!("file://{}", dir.path().join("other").display());
    let other = Blobs::from_url(&url).unwrap();
    assert!(!other.exists(&hex).await.unwrap());
    assert!(Blobs::from_url("ftp://x").is_err());
}

#[test]
fn s3_urls_parse() {
    // Building does not contact the bucket; credentials are looked up on first use.
    assert!(Blobs::from_url("s3://folio-bucket/some/prefix").is_ok());
    assert!(Blobs::from_url("s3://folio-bucket").is_ok());
    assert!(Blobs::from_url("s3:///prefix").is_err());
    assert!(Blobs::from_url("file://relative/path").is_err());
}
