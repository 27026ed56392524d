//! Signed webhooks, verified by the `standardwebhooks` package from PyPI (`python3`, see
//! `.ci/requirements.txt`): a verifier folio did not write.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::HeaderMap;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::{envelope, fast, run, verdict, workflow};
use crate::harness::{TestApp, run_cli};

/// Headers and raw body bytes of one delivery.
type Delivery = (HeaderMap, Vec<u8>);

/// A local receiver keeping the raw bytes and headers of each delivery.
#[derive(Clone, Default)]
struct Raw {
    got: Arc<Mutex<Vec<Delivery>>>,
}

impl Raw {
    async fn start(&self) -> String {
        let got = self.got.clone();
        let app =
            axum::Router::new().fallback(move |headers: HeaderMap, body: axum::body::Bytes| {
                let got = got.clone();
                async move {
                    got.lock().unwrap().push((headers, body.to_vec()));
                    axum::http::StatusCode::NO_CONTENT
                }
            });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        format!("http://{addr}/hook")
    }

    fn last(&self) -> Delivery {
        self.got
            .lock()
            .unwrap()
            .last()
            .cloned()
            .expect("a delivery")
    }
}

/// What `standardwebhooks` says of a delivery: "ok" or "rejected: ...".
fn verify(secret: &str, headers: &HeaderMap, body: &[u8], shift_seconds: i64) -> String {
    let headers: serde_json::Map<String, Value> = headers
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v.to_str().unwrap())))
        .collect();
    let input = json!({"secret": secret, "body": STANDARD.encode(body), "headers": headers,
        "shift_seconds": shift_seconds});
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/it/data/verify_webhook.py"
    );
    let mut child = std::process::Command::new("python3")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    use std::io::Write;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.to_string().as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the verifier failed (pip install -r .ci/requirements.txt): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Servers whose rotations overlap for 2 s, so the test sees the overlap end.
async fn apps() -> Vec<TestApp> {
    let mut apps = Vec::new();
    for db in folio_store::testing::backends().await {
        let configure = |c: &mut folio::Config| {
            fast(c);
            let overlap = toml::Value::Integer(2);
            c.transform
                .insert("webhook_secret_overlap_s".into(), overlap);
        };
        apps.push(TestApp::start_with(db, configure, folio::services::all()).await);
    }
    apps
}

async fn deliver(app: &TestApp, wf: &Value, raw: &Raw) -> Delivery {
    let job = run(app, &wf["id"], envelope(app).await).await;
    assert_eq!(verdict(&job), "OK", "{job}");
    raw.last()
}

#[tokio::test]
async fn deliveries_verify_with_standardwebhooks_through_a_rotation() {
    for app in apps().await {
        let raw = Raw::default();
        let url = raw.start().await;
        let wf = workflow(
            &app,
            json!({"name": "signed", "steps": [{"id": "hook", "action": "webhook.send",
                "config": {"url": url, "token": "s3cret"}}]}),
        )
        .await;
        let first = app.get("/transform/v1/webhooks/secret").await.expect(200);
        let old = first["secret"].as_str().unwrap().to_string();
        assert!(old.starts_with("whsec_"), "{first}");
        let again = app.get("/transform/v1/webhooks/secret").await.expect(200);
        assert_eq!(again["secret"], first["secret"], "one secret per workspace");

        // a delivery verifies; the token option still works beside the signature
        let (headers, body) = deliver(&app, &wf, &raw).await;
        assert_eq!(verify(&old, &headers, &body, 0), "ok");
        assert_eq!(headers["authorization"], "Bearer s3cret");
        let sent: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(headers["webhook-id"].to_str().unwrap(), sent["id"]);
        // a tampered body and a replay 10 minutes later are rejected
        let tampered = String::from_utf8(body.clone())
            .unwrap()
            .replace("transform.job", "transform.jab");
        let verdict = verify(&old, &headers, tampered.as_bytes(), 0);
        assert!(verdict.starts_with("rejected"), "{verdict}");
        let verdict = verify(&old, &headers, &body, 600);
        assert!(verdict.contains("too old"), "{verdict}");

        // after a rotation both secrets verify until the overlap ends
        let rotated = app
            .post("/transform/v1/webhooks/secret/rotate", &json!({}))
            .await
            .expect(200);
        let new = rotated["secret"].as_str().unwrap().to_string();
        assert_ne!(new, old);
        assert_eq!(rotated["previous"], old.as_str());
        assert!(rotated["previous_expires_at"].is_string(), "{rotated}");
        let (headers, body) = deliver(&app, &wf, &raw).await;
        let signatures = headers["webhook-signature"].to_str().unwrap();
        assert_eq!(signatures.split(' ').count(), 2, "{signatures}");
        assert_eq!(verify(&new, &headers, &body, 0), "ok");
        assert_eq!(verify(&old, &headers, &body, 0), "ok");
        tokio::time::sleep(Duration::from_millis(2100)).await;
        let (headers, body) = deliver(&app, &wf, &raw).await;
        assert_eq!(verify(&new, &headers, &body, 0), "ok");
        let verdict = verify(&old, &headers, &body, 0);
        assert!(verdict.starts_with("rejected"), "{verdict}");
    }
}

#[tokio::test]
async fn signature_headers_cannot_be_configured() {
    for app in super::apps().await {
        let body = json!({"name": "w", "steps": [{"id": "hook", "action": "webhook.send",
            "config": {"url": "https://example.com/h", "headers": {"Webhook-Signature": "x"}}}]});
        let e = app
            .put(
                &format!("/transform/v1/workflows/{}", uuid::Uuid::new_v4()),
                &body,
            )
            .await
            .expect(422);
        let field = &e["fields"]["steps"]["0"]["config"]["headers"]["Webhook-Signature"];
        assert!(field.is_string(), "{e}");
    }
}

#[tokio::test]
async fn the_cli_shows_and_rotates_the_api_secret() {
    // The engine's default settings, not the tests' 50 ms polling: with a server writing on
    // that beat, a CLI write to the same SQLite file failed about one run in four with an
    // immediate "database is locked" (found 2026-11-26, not yet explained; see the known issue
    // in docs/configuration-and-operations.md).
    let default_engine = |c: &mut folio::Config| c.transform = toml::Table::new();
    for app in super::apps_with(default_engine).await {
        let secret = app.get("/transform/v1/webhooks/secret").await.expect(200);
        let data = app.data.display().to_string();
        let storage = [
            "--workspace",
            "default",
            "--data",
            &data,
            "--database",
            app.db.url(),
        ];
        let (code, out, err) = run_cli(&[&["webhook-secret", "show"], &storage[..]].concat());
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.trim(), secret["secret"]);
        let (code, out, err) = run_cli(&[&["webhook-secret", "rotate"], &storage[..]].concat());
        assert_eq!(code, 0, "{err}");
        let now = app.get("/transform/v1/webhooks/secret").await.expect(200);
        assert_eq!(out.trim(), now["secret"]);
        assert_eq!(now["previous"], secret["secret"]);
    }
}
