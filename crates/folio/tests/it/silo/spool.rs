//! The spool over HTTP on both backends: Invopop's shapes (`data`, `name`, `type` in, `key`
//! out, 204 on delete), its key format, the size limit, workspace isolation, and the expiry
//! that deletes the row and the bytes.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use reqwest::Method;
use serde_json::json;

use super::send_as;
use crate::harness::TestApp;

/// `<ISO year>-W<week>-<16 hex>-<name>`, as Invopop's `2025-W20-123467abcde-invoice.xml`.
fn assert_key_shape(key: &str, name: &str) {
    let parts: Vec<&str> = key.splitn(4, '-').collect();
    assert_eq!(parts.len(), 4, "{key}");
    assert!(
        parts[0].len() == 4 && parts[0].chars().all(|c| c.is_ascii_digit()),
        "{key}"
    );
    assert!(parts[1].starts_with('W') && parts[1].len() == 3, "{key}");
    assert!(
        parts[2].len() == 16 && parts[2].chars().all(|c| c.is_ascii_hexdigit()),
        "{key}"
    );
    assert_eq!(parts[3], name);
}

/// Temporary blobs in the local blob folder.
fn spooled_blobs(app: &TestApp) -> usize {
    std::fs::read_dir(app.data.join("files/spool")).map_or(0, |d| d.count())
}

#[tokio::test]
async fn upload_download_delete_with_invopops_shapes() {
    for app in TestApp::backends().await {
        let label = app.label();
        let xml = b"<Invoice>hello</Invoice>".to_vec();
        let up = app
            .post(
                "/silo/v1/spool",
                &json!({"data": STANDARD.encode(&xml), "name": "invoice.xml", "type": "application/xml"}),
            )
            .await
            .expect(200);
        let key = up["key"].as_str().unwrap().to_string();
        assert_key_shape(&key, "invoice.xml");
        assert!(up["expires_at"].as_str().unwrap().ends_with('Z'));

        let got = app.get(&format!("/silo/v1/spool/{key}")).await;
        assert_eq!(got.status, 200, "{label}");
        assert_eq!(got.body, xml);
        assert_eq!(got.header("content-type"), Some("application/xml"));
        assert!(
            got.header("content-disposition")
                .unwrap()
                .contains("invoice.xml")
        );
        assert_eq!(spooled_blobs(&app), 1);

        // Another workspace's token does not find it, nor delete it.
        let other = app.other_workspace("other").await;
        let path = format!("/silo/v1/spool/{key}");
        send_as(&app, &other, Method::GET, &path, None)
            .await
            .expect(404);
        send_as(&app, &other, Method::DELETE, &path, None)
            .await
            .expect(404);

        let gone = app.send(app.request(Method::DELETE, &path)).await;
        assert_eq!(gone.status, 204, "{label}: {}", gone.text());
        assert!(gone.body.is_empty());
        app.get(&path).await.expect(404);
        app.send(app.request(Method::DELETE, &path))
            .await
            .expect(404);
        assert_eq!(
            spooled_blobs(&app),
            0,
            "{label}: the bytes are deleted with the row"
        );

        // No type: guessed from the name; no name: `file`.
        let up = app
            .post(
                "/silo/v1/spool",
                &json!({"data": STANDARD.encode(b"%PDF-1.7")}),
            )
            .await
            .expect(200);
        assert!(up["key"].as_str().unwrap().ends_with("-file"));
        let up = app
            .post(
                "/silo/v1/spool",
                &json!({"data": STANDARD.encode(b"x"), "name": "a b.pdf"}),
            )
            .await
            .expect(200);
        let key = up["key"].as_str().unwrap();
        assert!(key.ends_with("-a-b.pdf"), "{key}");
        let got = app.get(&format!("/silo/v1/spool/{key}")).await;
        assert_eq!(got.header("content-type"), Some("application/pdf"));
    }
}

#[tokio::test]
async fn bad_and_oversized_uploads_are_refused() {
    let app = TestApp::start_with(
        folio_store::testing::sqlite().await,
        |c| c.limits.spool_bytes = 1000,
        folio::services::all(),
    )
    .await;
    let too_big = app
        .post(
            "/silo/v1/spool",
            &json!({"data": STANDARD.encode(vec![7u8; 1001]), "name": "x.bin"}),
        )
        .await
        .expect(413);
    assert!(too_big["message"].as_str().unwrap().contains("1000"));
    app.post(
        "/silo/v1/spool",
        &json!({"data": STANDARD.encode(vec![7u8; 1000])}),
    )
    .await
    .expect(200);
    let missing = app
        .post("/silo/v1/spool", &json!({"name": "x"}))
        .await
        .expect(422);
    assert!(missing["fields"]["data"].is_string());
    app.post("/silo/v1/spool", &json!({"data": "not base64!!"}))
        .await
        .expect(422);
    assert_eq!(spooled_blobs(&app), 1, "a refused upload stores nothing");
}

#[tokio::test]
async fn expired_uploads_are_gone_row_and_bytes() {
    for db in folio_store::testing::backends().await {
        let app = TestApp::start_with(
            db,
            |c| c.limits.spool_ttl_seconds = 1,
            folio::services::all(),
        )
        .await;
        let label = app.label();
        let up = app
            .post(
                "/silo/v1/spool",
                &json!({"data": STANDARD.encode(b"soon gone"), "name": "t.txt"}),
            )
            .await
            .expect(200);
        let path = format!("/silo/v1/spool/{}", up["key"].as_str().unwrap());
        assert_eq!(app.get(&path).await.body, b"soon gone");
        let rows = || async {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM silo_spool")
                .fetch_one(app.db.store.pool())
                .await
                .unwrap()
        };
        assert_eq!(rows().await, 1);
        // Expired after 1 s (never served again); swept within the next sweep period (1 s).
        let mut waited = Duration::ZERO;
        while rows().await > 0 || spooled_blobs(&app) > 0 {
            assert!(waited < Duration::from_secs(15), "{label}: not swept");
            tokio::time::sleep(Duration::from_millis(200)).await;
            waited += Duration::from_millis(200);
        }
        assert!(
            waited >= Duration::from_millis(600),
            "{label}: swept too early ({waited:?})"
        );
        app.get(&path).await.expect(404);
    }
}
