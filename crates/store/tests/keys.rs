//! Secrets at rest on every backend: plain rows of an older folio are sealed in place, a
//! database sealed with another key is refused with both key ids named, and a rotation
//! re-seals everything under the new key.

use folio_store::testing::{self, TestDb};
use folio_store::{Kek, KeyError, Store, StoreError, WriteQuery, millis, now};

/// What an older folio left in plain text: the token secret, a webhook secret with a previous
/// one, and a workspace signing key.
async fn plain_rows(db: &TestDb) -> (Vec<u8>, String) {
    let store = &db.store;
    let ws = store.create_workspace("acme").await.unwrap();
    let token_secret = vec![7u8; 32];
    sqlx::query("INSERT INTO server_secrets (name, secret, created_at) VALUES ($1, $2, $3)")
        .bind("api_token_hs256")
        .bind(token_secret.clone())
        .bind(millis(now()))
        .write(store)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO transform_webhook_secrets (workspace_id, secret, created_at, previous, \
         previous_until) VALUES ($1, $2, $3, $4, $3)",
    )
    .bind(ws.id.to_string())
    .bind("whsec_current")
    .bind(millis(now()))
    .bind("whsec_previous")
    .write(store)
    .await
    .unwrap();
    let jwk = r#"{"kty":"EC","crv":"P-256","d":"private"}"#.to_string();
    sqlx::query(
        "INSERT INTO silo_keys (workspace_id, kid, rank, created_at, private_jwk) \
         VALUES ($1, 'k1', 0, $2, $3)",
    )
    .bind(ws.id.to_string())
    .bind(millis(now()))
    .bind(jwk.clone())
    .write(store)
    .await
    .unwrap();
    (token_secret, jwk)
}

async fn text_values(store: &Store) -> Vec<String> {
    let mut values: Vec<String> = sqlx::query_scalar(
        "SELECT secret FROM transform_webhook_secrets UNION ALL \
         SELECT previous FROM transform_webhook_secrets UNION ALL \
         SELECT private_jwk FROM silo_keys",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    let blob: Vec<u8> = sqlx::query_scalar("SELECT secret FROM server_secrets")
        .fetch_one(store.pool())
        .await
        .unwrap();
    values.push(String::from_utf8(blob).expect("sealed text"));
    values
}

async fn reopen(db: &TestDb, key: &Kek) -> Store {
    Store::open(db.url()).await.unwrap().with_key(key.clone())
}

#[tokio::test]
async fn plain_secrets_are_sealed_in_place_and_a_wrong_key_is_refused() {
    for db in testing::backends().await {
        let label = db.label;
        let (token_secret, jwk) = plain_rows(&db).await;
        let found = db.store.protect_secrets().await.unwrap();
        assert_eq!((found.sealed, found.upgraded), (0, 4), "{label}");

        let values = text_values(&db.store).await;
        assert_eq!(values.len(), 4);
        for value in &values {
            assert!(
                value.starts_with(&format!("v1.{}.", db.key().id())),
                "{label}: {value}"
            );
            assert!(!value.contains("whsec_") && !value.contains("private"));
        }
        assert_eq!(db.store.server_secret().await.unwrap(), token_secret);
        let jwks: Vec<String> = sqlx::query_scalar("SELECT private_jwk FROM silo_keys")
            .fetch_all(db.store.pool())
            .await
            .unwrap();
        assert_eq!(db.store.open_sealed_text(&jwks[0]).unwrap(), jwk);

        // A second start finds everything sealed and changes nothing.
        let again = db.store.protect_secrets().await.unwrap();
        assert_eq!((again.sealed, again.upgraded), (4, 0), "{label}");
        assert_eq!(text_values(&db.store).await, values);

        // Another key: refused, both ids named.
        let other = Kek::generate();
        let wrong = reopen(&db, &other).await;
        let err = wrong.protect_secrets().await.unwrap_err();
        let message = err.to_string();
        assert!(
            matches!(err, StoreError::Key(KeyError::WrongKey { .. })),
            "{label}: {err:?}"
        );
        assert!(
            message.contains(db.key().id()) && message.contains(other.id()),
            "{label}: {message}"
        );
        assert!(wrong.server_secret().await.is_err());
        wrong.close().await;
    }
}

#[tokio::test]
async fn rotation_reseals_every_secret_in_one_transaction() {
    for db in testing::backends().await {
        let label = db.label;
        let (token_secret, jwk) = plain_rows(&db).await;
        db.store.protect_secrets().await.unwrap();
        let new = Kek::generate();
        assert_eq!(db.store.rotate_key(&new).await.unwrap(), 4, "{label}");

        for value in text_values(&db.store).await {
            assert!(value.starts_with(&format!("v1.{}.", new.id())), "{label}");
        }
        let old = db.store.protect_secrets().await.unwrap_err();
        assert!(old.to_string().contains(new.id()), "{label}: {old}");

        let rotated = reopen(&db, &new).await;
        let found = rotated.protect_secrets().await.unwrap();
        assert_eq!((found.sealed, found.upgraded), (4, 0), "{label}");
        assert_eq!(rotated.server_secret().await.unwrap(), token_secret);
        let sealed: String = sqlx::query_scalar("SELECT private_jwk FROM silo_keys")
            .fetch_one(rotated.pool())
            .await
            .unwrap();
        assert_eq!(rotated.open_sealed_text(&sealed).unwrap(), jwk);

        // Rotating with a key that cannot open what is stored changes nothing.
        let before = text_values(&rotated).await;
        let stranger = reopen(&db, &Kek::generate()).await;
        assert!(
            stranger.rotate_key(&Kek::generate()).await.is_err(),
            "{label}"
        );
        assert_eq!(text_values(&rotated).await, before, "{label}");
        stranger.close().await;
        rotated.close().await;
    }
}

#[tokio::test]
async fn a_store_without_a_key_keeps_no_secret() {
    let db = testing::sqlite().await;
    let keyless = Store::open(db.url()).await.unwrap();
    assert!(matches!(
        keyless.server_secret().await,
        Err(StoreError::Key(KeyError::Missing))
    ));
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM server_secrets")
        .fetch_one(keyless.pool())
        .await
        .unwrap();
    assert_eq!(count, 0, "nothing is written in plain text");
    keyless.close().await;
}
