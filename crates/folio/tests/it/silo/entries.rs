//! `/silo/v1/entries` and `/silo/v1/envelopes` are two names of one resource: what is written
//! through one path reads back, the same, through the other.

use serde_json::json;
use uuid::Uuid;

use crate::harness::TestApp;

#[tokio::test]
async fn entries_and_envelopes_are_the_same_resources() {
    for app in TestApp::backends().await {
        let doc = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "hello"});
        let id = Uuid::now_v7();
        let made = app
            .put(
                &format!("/silo/v1/entries/{id}"),
                &json!({"data": doc, "key": "K-1"}),
            )
            .await
            .expect(200);
        let as_envelope = app
            .get(&format!("/silo/v1/envelopes/{id}"))
            .await
            .expect(200);
        assert_eq!(made, as_envelope, "{}", app.label());
        assert_eq!(
            app.get("/silo/v1/entries/key/K-1").await.expect(200)["id"],
            id.to_string()
        );

        // written as an envelope, read as an entry: a state, a file, a change, a version
        app.post(
            &format!("/silo/v1/envelopes/{id}/states"),
            &json!({"key": "sent"}),
        )
        .await
        .expect(200);
        let states = app
            .get(&format!("/silo/v1/entries/{id}/states"))
            .await
            .expect(200);
        assert_eq!(states["list"][0]["key"], "sent");
        let file_id = Uuid::now_v7();
        app.put(
            &format!("/silo/v1/entries/{id}/files/{file_id}"),
            &json!({"name": "note.txt", "data": "aGVsbG8="}),
        )
        .await
        .expect(200);
        let bytes = app
            .send(app.request(
                reqwest::Method::GET,
                &format!("/silo/v1/envelopes/{id}/files/{file_id}"),
            ))
            .await;
        assert_eq!(bytes.body, b"hello");
        let patched = app
            .patch(
                &format!("/silo/v1/entries/{id}"),
                &json!({"folder": "archive"}),
            )
            .await
            .expect(200);
        assert_eq!(patched["folder"], "archive");
        let version = made["version"].as_str().unwrap();
        let old = app
            .get(&format!("/silo/v1/entries/{id}/versions/{version}"))
            .await
            .expect(200);
        assert_eq!(old["data"]["doc"]["title"], "hello", "{old}");
        let list = app.get("/silo/v1/entries").await.expect(200);
        assert_eq!(list["list"][0]["id"], id.to_string());
        let posted = app
            .post("/silo/v1/entries", &json!({"data": doc}))
            .await
            .expect(200);
        assert_eq!(
            app.get(&format!(
                "/silo/v1/envelopes/{}",
                posted["id"].as_str().unwrap()
            ))
            .await
            .status,
            200
        );
        assert_eq!(
            app.get(&format!("/silo/v1/entries/{}", Uuid::now_v7()))
                .await
                .status,
            404
        );
    }
}
