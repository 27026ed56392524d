//! What bad input gets: each case its status and error body, and nothing half-written.

use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{note, rows, send_as};
use crate::harness::TestApp;

/// Asserts that no envelope, version, file or state was written.
async fn nothing_written(app: &TestApp) {
    for table in [
        "silo_envelopes",
        "silo_versions",
        "silo_files",
        "silo_states",
    ] {
        assert_eq!(rows(app, table).await, 0, "{table} on {}", app.label());
    }
}

fn field<'a>(body: &'a Value, path: &[&str]) -> &'a Value {
    path.iter().fold(&body["fields"], |v, p| &v[*p])
}

fn envelope(id: Uuid) -> Value {
    let doc = note(1);
    let text = doc.to_string();
    let doc_value = gobl::json::parse(&text).unwrap();
    let env = gobl::envelope::Envelope::wrap(id, doc_value).unwrap();
    serde_json::from_str(&env.to_json_string()).unwrap()
}

#[tokio::test]
async fn each_bad_input_gets_its_status_and_leaves_nothing_behind() {
    for app in TestApp::backends().await {
        let id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}");
        let put = |body: String| send_as(&app, &app.token, Method::PUT, &uri, Some(body));

        // Not JSON.
        put("{\"data\": ".into()).await.expect(400);
        put("not json at all".into()).await.expect(400);

        // JSON, but not an envelope or document.
        let b = put(r#"{"data": 42}"#.into()).await.expect(422);
        assert!(field(&b, &["data"]).is_string(), "{b}");
        let b = put(r#"{"data": {"foo": 1}}"#.into()).await.expect(422);
        assert!(field(&b, &["data", "$schema"]).is_string(), "{b}");
        let b = put(r#"{"data": {"$schema": "https://example.com/thing"}}"#.into())
            .await
            .expect(422);
        assert!(field(&b, &["data", "$schema"]).is_string(), "{b}");
        let b = put(r#"{"key": "x"}"#.into()).await.expect(422);
        assert!(field(&b, &["data"]).is_string(), "{b}");

        // Unknown top-level shape.
        let b = put("[1, 2, 3]".into()).await.expect(422);
        assert!(b["fields"].is_object(), "{b}");

        // Wrong field types: in the request, and in the envelope.
        let b = put(json!({"data": note(1), "tags": "x"}).to_string())
            .await
            .expect(422);
        assert!(field(&b, &["tags"]).is_string(), "{b}");
        let b = put(json!({"data": note(1), "meta": {"a": 1}}).to_string())
            .await
            .expect(422);
        assert!(
            field(&b, &["meta"]).is_object() || field(&b, &["meta"]).is_string(),
            "{b}"
        );
        let mut env = envelope(id);
        env["head"]["uuid"] = json!(5);
        let b = put(json!({"data": env}).to_string()).await.expect(422);
        assert!(field(&b, &["data", "head", "uuid"]).is_string(), "{b}");
        let mut env = envelope(id);
        env["doc"] = json!("text");
        let b = put(json!({"data": env}).to_string()).await.expect(422);
        assert!(field(&b, &["data", "doc"]).is_string(), "{b}");

        // Digest that does not match the document: a fault.
        let mut env = envelope(id);
        env["doc"]["title"] = json!("tampered");
        let b = put(json!({"data": env}).to_string()).await.expect(422);
        assert_eq!(b["faults"][0]["code"], "digest-mismatch", "{b}");
        assert_eq!(b["faults"][0]["provider"], "gobl");

        // head.uuid differs from the path id.
        let b = put(json!({"data": envelope(Uuid::new_v4())}).to_string())
            .await
            .expect(422);
        assert!(field(&b, &["data", "head", "uuid"]).is_string(), "{b}");

        // Deeply nested JSON: refused, not a crash (in the body, and inside the document).
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        let s = put(format!(r#"{{"data": {deep}}}"#)).await;
        assert!((400..500).contains(&s.status), "{}", s.status);
        let s = put(format!(
            r#"{{"data": {{"$schema": "https://gobl.org/draft-0/note/message", "x": {deep}}}}}"#
        ))
        .await;
        assert!((400..500).contains(&s.status), "{}", s.status);
        let nested = "{\"a\":".repeat(100) + "1" + &"}".repeat(100);
        let s = put(format!(
            r#"{{"data": {{"$schema": "https://gobl.org/draft-0/note/message", "x": {nested}}}}}"#
        ))
        .await;
        assert_eq!(s.status, 422, "{}", s.text());
        // A key twice inside `data` (JSON to serde_json, not to GOBL): `data` is refused, as
        // when the body is read in one pass (a key twice in the body's own members).
        let twice =
            r#"{"$schema": "https://gobl.org/draft-0/note/message", "title": "a", "title": "b"}"#;
        let b = put(format!(r#"{{"data": {twice}}}"#)).await.expect(422);
        assert!(field(&b, &["data"]).is_string(), "{b}");
        let b = put(format!(r#"{{"data": {twice}, "key": "a", "key": "b"}}"#))
            .await
            .expect(422);
        assert!(b["fields"].is_object(), "{b}");

        // Bad ids in the path.
        app.get("/silo/v1/envelopes/not-a-uuid").await.expect(422);

        nothing_written(&app).await;
        app.put(&uri, &json!({"data": note(1)})).await.expect(200);
        app.stop().await;
    }
}

/// A `PATCH`'s body is read as a `PUT`'s is (in one pass when it can be): what it refuses is
/// refused as before and changes nothing; what it takes makes a new version, answered with the
/// stored data.
#[tokio::test]
async fn a_patch_refuses_what_a_put_refuses_and_changes_nothing() {
    for app in TestApp::backends().await {
        let id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}");
        let first = app.put(&uri, &json!({"data": note(1)})).await.expect(200);
        let patch = |body: String| send_as(&app, &app.token, Method::PATCH, &uri, Some(body));

        patch("{\"data\": ".into()).await.expect(400);
        let b = patch(json!({"data": note(2), "tags": "x"}).to_string())
            .await
            .expect(422);
        assert!(field(&b, &["tags"]).is_string(), "{b}");
        let twice =
            r#"{"$schema": "https://gobl.org/draft-0/note/message", "title": "a", "title": "b"}"#;
        let b = patch(format!(r#"{{"data": {twice}}}"#)).await.expect(422);
        assert!(field(&b, &["data"]).is_string(), "{b}");
        let b = patch(format!(
            r#"{{"data": {}, "tags": [], "tags": []}}"#,
            note(2)
        ))
        .await
        .expect(422);
        assert!(b["fields"].is_object(), "{b}");
        let fetched = app.get(&uri).await.expect(200);
        assert_eq!(
            fetched["data"],
            first["data"],
            "unchanged on {}",
            app.label()
        );
        assert_eq!(rows(&app, "silo_versions").await, 1, "{}", app.label());

        let b = patch(json!({"data": note(2), "tags": ["t"]}).to_string())
            .await
            .expect(200);
        assert_eq!(b["data"]["doc"]["title"], "note 2", "{b}");
        assert_eq!(b["tags"], json!(["t"]), "{b}");
        assert_eq!(app.get(&uri).await.expect(200)["data"], b["data"]);
        assert_eq!(rows(&app, "silo_versions").await, 2, "{}", app.label());
        app.stop().await;
    }
}

#[tokio::test]
async fn bodies_and_files_over_the_limits_are_refused() {
    let db = folio_store::testing::sqlite().await;
    let app = TestApp::start_with(
        db,
        |c| {
            c.limits.body_bytes = 64 * 1024;
            c.limits.file_bytes = 1000;
            c.limits.files_per_envelope = 2;
        },
        folio::services::all(),
    )
    .await;
    let id = Uuid::new_v4();
    let uri = format!("/silo/v1/envelopes/{id}");
    let big = json!({"data": {"$schema": "https://gobl.org/draft-0/note/message", "pad": "x".repeat(100_000)}});
    app.put(&uri, &big).await.expect(413);
    nothing_written(&app).await;

    app.put(&uri, &json!({"data": note(1)})).await.expect(200);
    use base64::Engine;
    let b64 = |n: usize| base64::engine::general_purpose::STANDARD.encode(vec![7u8; n]);
    let file = |n: usize| json!({"name": "a.bin", "data": b64(n)});
    app.put(&format!("{uri}/files/{}", Uuid::new_v4()), &file(1001))
        .await
        .expect(413);
    app.put(&format!("{uri}/files/{}", Uuid::new_v4()), &file(10))
        .await
        .expect(200);
    app.put(&format!("{uri}/files/{}", Uuid::new_v4()), &file(11))
        .await
        .expect(200);
    app.put(&format!("{uri}/files/{}", Uuid::new_v4()), &file(12))
        .await
        .expect(422);
    app.put(
        &format!("{uri}/files/{}", Uuid::new_v4()),
        &json!({"name": "a.pdf", "data": "%%%not base64"}),
    )
    .await
    .expect(422);
    assert_eq!(rows(&app, "silo_files").await, 2);
    app.stop().await;
}

#[tokio::test]
async fn another_workspaces_envelope_is_not_found() {
    for app in TestApp::backends().await {
        let id = super::store_note(&app, 1).await;
        app.put(
            &format!("/silo/v1/envelopes/{id}/files/{}", Uuid::new_v4()),
            &json!({"name": "a.txt", "data": "aGk="}),
        )
        .await
        .expect(200);
        let other = app.other_workspace("other").await;
        let uri = format!("/silo/v1/envelopes/{id}");
        for (method, path, body) in [
            (Method::GET, uri.clone(), None),
            (
                Method::PATCH,
                uri.clone(),
                Some(json!({"folder": "x"}).to_string()),
            ),
            (Method::GET, format!("{uri}/states"), None),
            (
                Method::POST,
                format!("{uri}/states"),
                Some(json!({"key": "sent"}).to_string()),
            ),
            (Method::GET, format!("{uri}/versions"), None),
            (
                Method::PUT,
                format!("{uri}/files/{}", Uuid::new_v4()),
                Some(json!({"name": "b.txt", "data": "aGk="}).to_string()),
            ),
        ] {
            send_as(&app, &other, method.clone(), &path, body)
                .await
                .expect(404);
        }
        let list = send_as(&app, &other, Method::GET, "/silo/v1/envelopes", None)
            .await
            .expect(200);
        assert_eq!(list["list"], json!([]));
        // The other workspace may use the same id for its own envelope.
        let put = send_as(
            &app,
            &other,
            Method::PUT,
            &uri,
            Some(json!({"data": note(2)}).to_string()),
        )
        .await;
        put.expect(200);
        assert_eq!(app.get(&uri).await.expect(200)["data"]["doc"]["n"], 1);
        assert_eq!(rows(&app, "silo_files").await, 1);
        assert_eq!(rows(&app, "silo_states").await, 0);
        app.stop().await;
    }
}

/// A stored row that no longer decodes is the server's fault: 500 with nothing of the row in
/// the answer (the detail goes to the log), never a 422 that blames the client.
#[tokio::test]
async fn a_corrupt_stored_row_answers_500_without_internals() {
    for app in TestApp::backends().await {
        let id = Uuid::now_v7();
        let doc = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "x"});
        app.put(&format!("/silo/v1/envelopes/{id}"), &json!({"data": doc}))
            .await
            .expect(200);
        sqlx::query("UPDATE silo_envelopes SET tags = 'not json' WHERE id = $1")
            .bind(id.to_string())
            .execute(app.db.store.pool())
            .await
            .unwrap();
        let resp = app.get(&format!("/silo/v1/envelopes/{id}")).await;
        assert_eq!(resp.status, 500, "{}: {}", app.label(), resp.text());
        assert_eq!(resp.json()["key"], "internal");
        assert!(
            !resp.text().contains("not json") && !resp.text().contains("stored"),
            "{}",
            resp.text()
        );
    }
}
