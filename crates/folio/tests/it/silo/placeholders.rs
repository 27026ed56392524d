//! Upload-later files over HTTP on both backends: a file given with `sha256` and `size` but no
//! `data` is a placeholder (`stored` false, download 404) that an upload of exactly that content
//! fills; an upload whose digest or size differs is 422 and leaves the placeholder waiting.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::harness::TestApp;

#[tokio::test]
async fn a_placeholder_is_filled_by_its_content_only() {
    for app in TestApp::backends().await {
        let label = app.label();
        let entry = app
            .post("/silo/v1/entries", &json!({"data": super::note(1)}))
            .await
            .expect(200);
        let entry_id = entry["id"].as_str().unwrap();
        let content = b"%PDF-1.7 the real thing".to_vec();
        let sha256 = hex::encode(Sha256::digest(&content));
        let file_id = Uuid::now_v7();
        let path = format!("/silo/v1/entries/{entry_id}/files/{file_id}");
        let announce = json!({"name": "invoice.pdf", "mime": "application/pdf",
            "sha256": sha256, "size": content.len()});

        let placeholder = app.put(&path, &announce).await.expect(200);
        assert_eq!(placeholder["stored"], false, "{label}: {placeholder}");
        assert_eq!(placeholder["hash"], sha256.as_str());
        assert_eq!(placeholder["size"], content.len());
        assert!(
            placeholder["url"]
                .as_str()
                .unwrap()
                .ends_with(&file_id.to_string())
        );
        // Announced again: the same placeholder.
        assert_eq!(app.put(&path, &announce).await.expect(200), placeholder);
        let listed = app
            .get(&format!("/silo/v1/entries/{entry_id}"))
            .await
            .expect(200);
        assert_eq!(listed["attachments"][0]["stored"], false);
        app.get(&path).await.expect(404);

        // Other content (other digest, other size) is refused, naming `data`.
        for wrong in [b"%PDF-1.7 the fake thing".to_vec(), b"short".to_vec()] {
            let refused = app
                .put(
                    &path,
                    &json!({"name": "invoice.pdf", "data": STANDARD.encode(&wrong)}),
                )
                .await
                .expect(422);
            assert!(refused["fields"]["data"].is_string(), "{refused}");
        }
        app.get(&path).await.expect(404);

        let filled = app
            .put(
                &path,
                &json!({"name": "invoice.pdf", "data": STANDARD.encode(&content)}),
            )
            .await
            .expect(200);
        assert_eq!(filled["stored"], true, "{filled}");
        assert_eq!(filled["id"], placeholder["id"]);
        let got = app.get(&path).await;
        assert_eq!(got.status, 200, "{label}");
        assert_eq!(got.body, content);
        assert_eq!(got.header("content-type"), Some("application/pdf"));
        // Once filled it is a stored file: the same content again is the same file.
        app.put(
            &path,
            &json!({"name": "invoice.pdf", "data": STANDARD.encode(&content)}),
        )
        .await
        .expect(200);
    }
}

#[tokio::test]
async fn a_placeholder_needs_a_digest_and_a_size_within_the_limit() {
    let app = TestApp::sqlite().await;
    let entry = app
        .post("/silo/v1/entries", &json!({"data": super::note(1)}))
        .await
        .expect(200);
    let path = format!("/silo/v1/entries/{}/files", entry["id"].as_str().unwrap());
    let no_data = app.post(&path, &json!({"name": "a.pdf"})).await.expect(422);
    assert!(no_data["fields"]["data"].is_string());
    app.post(&path, &json!({"name": "a.pdf", "sha256": "abc", "size": 3}))
        .await
        .expect(422);
    let big = json!({"name": "a.pdf", "sha256": "a".repeat(64), "size": 1u64 << 40});
    app.post(&path, &big).await.expect(413);
    app.post(
        &path,
        &json!({"name": "a.pdf", "sha256": "a".repeat(64), "size": -1}),
    )
    .await
    .expect(422);
    // A placeholder made by POST has a server-chosen id and can be filled there.
    let made = app
        .post(
            &path,
            &json!({"name": "a.txt", "sha256": hex::encode(Sha256::digest(b"abc")), "size": 3}),
        )
        .await
        .expect(200);
    let file = format!("{path}/{}", made["id"].as_str().unwrap());
    app.put(
        &file,
        &json!({"name": "a.txt", "data": STANDARD.encode(b"abc")}),
    )
    .await
    .expect(200);
    assert_eq!(app.get(&file).await.body, b"abc");
}

/// As Invopop's clients do: the bytes themselves `PUT` to the placeholder's `url` fill it, under
/// the name and type it was announced with; other bytes are 422, and a file never announced 404.
#[tokio::test]
async fn the_bytes_put_to_the_url_fill_a_placeholder() {
    for app in TestApp::backends().await {
        let label = app.label();
        let entry = app
            .post("/silo/v1/entries", &json!({"data": super::note(2)}))
            .await
            .expect(200);
        let entry_id = entry["id"].as_str().unwrap();
        let content = b"<Invoice>the real thing</Invoice>".to_vec();
        let announce = json!({"name": "invoice.xml", "mime": "application/xml",
            "sha256": hex::encode(Sha256::digest(&content)), "size": content.len()});
        let path = format!("/silo/v1/entries/{entry_id}/files/{}", Uuid::now_v7());
        let placeholder = app.put(&path, &announce).await.expect(200);
        let url = format!("{}{}", app.base, placeholder["url"].as_str().unwrap());
        let raw = |bytes: Vec<u8>, url: String| {
            let req = app
                .client
                .put(url)
                .bearer_auth(&app.token)
                .header("content-type", "application/octet-stream")
                .body(bytes);
            app.send(req)
        };
        let refused = raw(b"<Invoice>fake</Invoice>".to_vec(), url.clone()).await;
        refused.expect(422);
        let filled = raw(content.clone(), url.clone()).await.expect(200);
        assert_eq!(filled["stored"], true, "{label}: {filled}");
        assert_eq!(filled["name"], "invoice.xml");
        assert_eq!(filled["mime"], "application/xml");
        let got = app.get(&path).await;
        assert_eq!(got.status, 200, "{label}");
        assert_eq!(got.body, content);
        // the same bytes again answer the file; bytes for a file never announced are 404
        raw(content.clone(), url).await.expect(200);
        let unknown = format!(
            "{}/silo/v1/entries/{entry_id}/files/{}",
            app.base,
            Uuid::now_v7()
        );
        raw(content, unknown).await.expect(404);
    }
}
