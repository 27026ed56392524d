//! The key-encryption key end to end, on every backend: secrets an older folio stored in plain
//! text are sealed at start, a server given another key refuses to start naming both keys,
//! and `folio keys rotate` moves every secret to a new key.

use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use folio::config::KeySource;
use folio_store::testing::{self, TestDb};
use folio_store::{Kek, Store, TokenRecord, WriteQuery, millis, now};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::harness::{binary, run_cli};
use crate::silo::identities::{PASSWORD, valid_identity};

/// A server of the test's database with a chosen key.
struct Node {
    base: String,
    shutdown: CancellationToken,
    done: tokio::task::JoinHandle<anyhow::Result<()>>,
    client: reqwest::Client,
}

async fn start(db: &TestDb, data: &Path, key: KeySource) -> anyhow::Result<Node> {
    let mut config = folio::Config::for_data(data);
    config.database = db.url().to_string();
    config.listen = ([127, 0, 0, 1], 0).into();
    config.ops_listen = ([127, 0, 0, 1], 0).into();
    config.key = key;
    let shutdown = CancellationToken::new();
    let running = folio::launch(config, folio::services::all(), shutdown.clone()).await?;
    Ok(Node {
        base: format!("http://{}", running.public),
        shutdown,
        done: running.done,
        client: reqwest::Client::new(),
    })
}

impl Node {
    async fn get(&self, token: &str, path: &str) -> (u16, Value) {
        let answer = self
            .client
            .get(format!("{}{path}", self.base))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        (answer.status().as_u16(), answer.json().await.unwrap())
    }

    async fn stop(self) {
        self.shutdown.cancel();
        self.done.await.unwrap().unwrap();
    }
}

/// What an older folio left: workspace `default`, the token secret, a token, a webhook secret
/// and a workspace signing key, all in plain text. Returns the token and the webhook secret.
async fn older_folio(db: &TestDb) -> (String, String, String) {
    let plain = Store::open(db.url()).await.unwrap(); // no key: writes nothing sealed
    let ws = plain.create_workspace("default").await.unwrap();
    let secret = [9u8; 32];
    sqlx::query("INSERT INTO server_secrets (name, secret, created_at) VALUES ($1, $2, $3)")
        .bind("api_token_hs256")
        .bind(secret.to_vec())
        .bind(millis(now()))
        .write(&plain)
        .await
        .unwrap();
    let record = TokenRecord {
        id: uuid::Uuid::now_v7(),
        workspace_id: ws.id,
        created_at: now(),
        expires_at: None,
        revoked_at: None,
    };
    plain.insert_token(&record).await.unwrap();
    let claims = folio_api::auth::Claims {
        jti: record.id,
        wsp: ws.id,
        iat: now().timestamp(),
        exp: None,
    };
    let token = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(&secret),
    )
    .unwrap();
    let whsec = format!("whsec_{}", STANDARD.encode([5u8; 24]));
    sqlx::query(
        "INSERT INTO transform_webhook_secrets (workspace_id, secret, created_at) \
         VALUES ($1, $2, $3)",
    )
    .bind(ws.id.to_string())
    .bind(whsec.clone())
    .bind(millis(now()))
    .write(&plain)
    .await
    .unwrap();
    let key = gobl::sign::PrivateKey::generate();
    sqlx::query(
        "INSERT INTO silo_keys (workspace_id, kid, rank, created_at, private_jwk) \
         VALUES ($1, $2, 0, $3, $4)",
    )
    .bind(ws.id.to_string())
    .bind(key.kid().to_string())
    .bind(millis(now()))
    .bind(serde_json::to_string(&key.to_jwk()).unwrap())
    .write(&plain)
    .await
    .unwrap();
    plain.close().await;
    (token, whsec, key.kid().to_string())
}

/// Every stored secret, as text (the token secret's bytes read as UTF-8).
async fn stored_secrets(store: &Store) -> Vec<String> {
    let mut all: Vec<String> = sqlx::query_scalar(
        "SELECT secret FROM transform_webhook_secrets UNION ALL \
         SELECT private_jwk FROM silo_keys UNION ALL SELECT pkcs12 FROM silo_identities \
         UNION ALL SELECT password FROM silo_identities",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    let blobs: Vec<Vec<u8>> = sqlx::query_scalar("SELECT secret FROM server_secrets")
        .fetch_all(store.pool())
        .await
        .unwrap();
    all.extend(
        blobs
            .into_iter()
            .map(|b| String::from_utf8_lossy(&b).into_owned()),
    );
    all
}

#[tokio::test]
async fn plain_secrets_of_an_older_folio_are_sealed_at_start_and_keep_working() {
    for db in testing::backends().await {
        let label = db.label;
        let (token, whsec, kid) = older_folio(&db).await;
        let data = db.dir().join("server");
        let node = start(&db, &data, KeySource::Base64(db.key().to_base64()))
            .await
            .unwrap();

        let prefix = format!("v1.{}.", db.key().id());
        let stored = stored_secrets(&db.store).await;
        assert_eq!(stored.len(), 3, "{label}");
        for value in &stored {
            assert!(value.starts_with(&prefix), "{label}: {value}");
        }
        let (status, _) = node.get(&token, "/utils/v1/ping").await;
        assert_eq!(status, 200, "{label}: the old token still verifies");
        let (_, secret) = node.get(&token, "/transform/v1/webhooks/secret").await;
        assert_eq!(secret["secret"], whsec, "{label}");
        let (_, keys) = node.get(&token, "/silo/v1/keys").await;
        assert_eq!(keys["keys"][0]["kid"], json!(kid), "{label}");
        node.stop().await;
    }
}

#[tokio::test]
async fn a_server_given_another_key_refuses_to_start_naming_both_keys() {
    for db in testing::backends().await {
        let label = db.label;
        let data = db.dir().join("server");
        let a = Kek::create_file(&db.dir().join("a.key")).unwrap();
        let b_path = db.dir().join("b.key");
        let b = Kek::create_file(&b_path).unwrap();
        let node = start(&db, &data, KeySource::File(db.dir().join("a.key")))
            .await
            .unwrap();
        node.stop().await;

        let refused = match start(&db, &data, KeySource::File(b_path.clone())).await {
            Ok(_) => panic!("{label}: started with the wrong key"),
            Err(err) => format!("{err:#}"),
        };
        assert!(
            refused.contains(a.id()) && refused.contains(b.id()),
            "{label}: {refused}"
        );

        // The binary: exits non-zero with the same message.
        let out = tokio::time::timeout(
            std::time::Duration::from_secs(60),
            tokio::process::Command::new(binary())
                .args([
                    "serve",
                    "--listen",
                    "127.0.0.1:0",
                    "--ops-listen",
                    "127.0.0.1:0",
                ])
                .arg("--data")
                .arg(&data)
                .args(["--database", db.url()])
                .arg("--key-file")
                .arg(&b_path)
                .output(),
        )
        .await
        .expect("folio serve exits")
        .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{label}: {err}");
        assert!(
            err.contains(a.id()) && err.contains(b.id()) && err.contains("key-encryption key"),
            "{label}: {err}"
        );

        // Nothing was re-sealed by the refused starts: key a still opens everything.
        let node = start(&db, &data, KeySource::File(db.dir().join("a.key")))
            .await
            .unwrap();
        node.stop().await;
    }
}

#[tokio::test]
async fn keys_rotate_reseals_every_secret_under_the_new_key() {
    for db in testing::backends().await {
        let label = db.label;
        let data = db.dir().join("server");
        let old_path = db.dir().join("old.key");
        let old = Kek::create_file(&old_path).unwrap();
        let node = start(&db, &data, KeySource::File(old_path.clone()))
            .await
            .unwrap();
        let token = std::fs::read_to_string(data.join("token")).unwrap();
        let token = token.trim();
        let scratch = db.dir().join("p12");
        std::fs::create_dir_all(&scratch).unwrap();
        let p12 = valid_identity(&scratch, "Rotated");
        let imported = node
            .client
            .post(format!("{}/silo/v1/identities", node.base))
            .bearer_auth(token)
            .json(&json!({"data": STANDARD.encode(&p12), "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(imported.status().as_u16(), 200, "{label}");
        let (_, whsec) = node.get(token, "/transform/v1/webhooks/secret").await;
        let (_, keys) = node.get(token, "/silo/v1/keys").await;
        node.stop().await;
        let before = stored_secrets(&db.store).await;
        assert_eq!(
            before.len(),
            5,
            "{label}: token secret, webhook, key, p12, password"
        );

        let data_arg = data.display().to_string();
        let old_arg = old_path.display().to_string();
        let storage = [
            "--data",
            &data_arg,
            "--database",
            db.url(),
            "--key-file",
            &old_arg,
        ];
        let (code, _, err) = run_cli(
            &[
                &["keys", "rotate", "--new-key-file", &old_arg][..],
                &storage,
            ]
            .concat(),
        );
        assert_ne!(code, 0, "{label}: rotating to the key in use is refused");
        assert!(err.contains(old.id()), "{err}");

        let new_path = db.dir().join("new.key");
        let new_arg = new_path.display().to_string();
        let (code, _, err) = run_cli(
            &[
                &["keys", "rotate", "--new-key-file", &new_arg][..],
                &storage,
            ]
            .concat(),
        );
        assert_eq!(code, 0, "{label}: {err}");
        assert!(err.contains("re-sealed 5 secrets"), "{label}: {err}");
        let new = Kek::read_file(&new_path).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&new_path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{label}");
        }
        let after = stored_secrets(&db.store).await;
        assert_eq!(after.len(), 5);
        for value in &after {
            assert!(
                value.starts_with(&format!("v1.{}.", new.id())),
                "{label}: {value}"
            );
        }

        // The old key no longer starts the server; the new one does, and nothing changed.
        let refused = start(&db, &data, KeySource::File(old_path.clone())).await;
        assert!(refused.is_err(), "{label}");
        let node = start(&db, &data, KeySource::File(new_path.clone()))
            .await
            .unwrap();
        assert_eq!(node.get(token, "/utils/v1/ping").await.0, 200, "{label}");
        assert_eq!(
            node.get(token, "/transform/v1/webhooks/secret").await.1,
            whsec
        );
        assert_eq!(node.get(token, "/silo/v1/keys").await.1, keys);
        let (_, list) = node.get(token, "/silo/v1/identities").await;
        let id: uuid::Uuid = list["list"][0]["id"].as_str().unwrap().parse().unwrap();
        node.stop().await;
        let reopened = Store::open(db.url()).await.unwrap().with_key(new);
        let ws = reopened
            .workspace_by_name("default")
            .await
            .unwrap()
            .unwrap();
        let opened = folio_silo::identities::signing_identity(
            &reopened,
            folio_store::Scope::new(ws.id),
            Some(id),
        )
        .await
        .unwrap();
        assert_eq!(opened, Some((p12, PASSWORD.to_string())), "{label}");
        reopened.close().await;
    }
}
