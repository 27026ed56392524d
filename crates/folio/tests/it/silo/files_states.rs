//! Files (base64 in, bytes out, replacement by key and category) and states.

use base64::Engine;
use serde_json::json;
use uuid::Uuid;

use super::store_note;
use crate::harness::TestApp;

#[tokio::test]
async fn files_upload_download_and_replace() {
    for app in TestApp::backends().await {
        let id = store_note(&app, 1).await;
        let pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n".to_vec();
        let file_id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}/files/{file_id}");
        let body = json!({
            "name": "invoice.pdf",
            "data": base64::engine::general_purpose::STANDARD.encode(&pdf),
            "key": "pdf", "category": "print", "desc": "the printable invoice", "meta": {"lang": "en"},
        });
        let out = app.put(&uri, &body).await.expect(200);
        assert_eq!(out["mime"], "application/pdf");
        assert_eq!(out["size"], pdf.len());
        assert_eq!(out["url"], uri);
        assert_eq!(out["hash"].as_str().unwrap().len(), 64);
        app.put(&uri, &body).await.expect(200);
        let mut other = body.clone();
        other["data"] = json!("aGVsbG8=");
        app.put(&uri, &other).await.expect(409);

        let got = app.get(&uri).await;
        assert_eq!(got.status, 200);
        assert_eq!(got.body, pdf);
        assert_eq!(got.header("content-type"), Some("application/pdf"));
        assert!(
            got.header("content-disposition")
                .unwrap()
                .contains("invoice.pdf")
        );

        let env = app
            .get(&format!("/silo/v1/envelopes/{id}"))
            .await
            .expect(200);
        assert_eq!(env["attachments"][0]["id"], file_id.to_string());

        // Same key and category: replaces; the earlier file stays downloadable.
        let newer = Uuid::new_v4();
        app.put(&format!("/silo/v1/envelopes/{id}/files/{newer}"), &other)
            .await
            .expect(200);
        let env = app
            .get(&format!("/silo/v1/envelopes/{id}"))
            .await
            .expect(200);
        let attachments = env["attachments"].as_array().unwrap();
        assert_eq!(attachments.len(), 1);
        assert_eq!(attachments[0]["id"], newer.to_string());
        assert_eq!(app.get(&uri).await.body, pdf);
        let list = app.get("/silo/v1/envelopes").await.expect(200);
        assert_eq!(list["list"][0]["attachments"][0]["id"], newer.to_string());

        app.get(&format!("/silo/v1/envelopes/{id}/files/{}", Uuid::new_v4()))
            .await
            .expect(404);
        app.put(
            &format!(
                "/silo/v1/envelopes/{}/files/{}",
                Uuid::new_v4(),
                Uuid::new_v4()
            ),
            &body,
        )
        .await
        .expect(404);
        app.stop().await;
    }
}

#[tokio::test]
async fn states_are_recorded_in_order() {
    for app in TestApp::backends().await {
        let id = store_note(&app, 1).await;
        let uri = format!("/silo/v1/envelopes/{id}/states");
        assert_eq!(app.get(&uri).await.expect(200)["list"], json!([]));
        app.post(&uri, &json!({"key": "processing"}))
            .await
            .expect(200);
        let s = app
            .post(
                &uri,
                &json!({"key": "sent", "notes": "by mail", "meta": {"to": "a@b.c"}}),
            )
            .await
            .expect(200);
        assert_eq!(s["key"], "sent");
        assert!(s["id"].is_string() && s["created_at"].is_string());
        let list = app.get(&uri).await.expect(200);
        let keys: Vec<&str> = list["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["key"].as_str().unwrap())
            .collect();
        assert_eq!(keys, vec!["processing", "sent"]);
        assert_eq!(list["list"][1]["notes"], "by mail");
        let env = app
            .get(&format!("/silo/v1/envelopes/{id}"))
            .await
            .expect(200);
        assert_eq!(env["state"], "sent");
        app.post(&uri, &json!({})).await.expect(422);
        app.post(
            &format!("/silo/v1/envelopes/{}/states", Uuid::new_v4()),
            &json!({"key": "sent"}),
        )
        .await
        .expect(404);
        app.stop().await;
    }
}
