//! Related entries over HTTP on both backends: a credit note made from an invoice is found from
//! the invoice (`/entries/{id}/related`) and from its document UUID (`/entries/related?uuid=`),
//! with its `context`, paged, filtered by context, and never across workspaces; the lookup goes
//! through the index (the query plan names it).

use reqwest::Method;
use serde_json::{Value, json};

use super::send_as;
use crate::harness::TestApp;

fn invoice(code: &str) -> Value {
    super::invoice("B", code, 2)
}

/// Stores an invoice; returns (entry id, document uuid, envelope).
async fn store_invoice(app: &TestApp, code: &str) -> (String, String, Value) {
    let entry = app
        .post("/silo/v1/entries", &json!({"data": invoice(code)}))
        .await
        .expect(200);
    let id = entry["id"].as_str().unwrap().to_string();
    let env = app.get(&format!("/silo/v1/entries/{id}")).await.expect(200)["data"].clone();
    (id, env["doc"]["uuid"].as_str().unwrap().to_string(), env)
}

/// Stores a credit note correcting `env`; returns its entry id.
async fn store_credit_note(app: &TestApp, env: &Value, day: u32) -> String {
    let credit = app
        .post(
            "/silo/v1/gobl/correct",
            &json!({"data": env, "options": {"type": "credit-note", "reason": "Storno",
                     "issue_date": format!("2026-11-{day:02}")}}),
        )
        .await
        .expect(200);
    let mut doc = credit["data"]["doc"].clone();
    doc["code"] = json!(format!("CN-{day}"));
    let stored = app
        .post("/silo/v1/entries", &json!({"data": doc}))
        .await
        .expect(200);
    stored["id"].as_str().unwrap().to_string()
}

fn ids(page: &Value) -> Vec<&str> {
    page["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn credit_notes_are_found_from_their_invoice() {
    for app in TestApp::backends().await {
        let label = app.label();
        let (invoice_id, doc_uuid, env) = store_invoice(&app, "1").await;
        let (_, _, other_env) = store_invoice(&app, "2").await;
        let first = store_credit_note(&app, &env, 20).await;
        let second = store_credit_note(&app, &env, 21).await;
        store_credit_note(&app, &other_env, 22).await;

        let page = app
            .get(&format!("/silo/v1/entries/{invoice_id}/related"))
            .await
            .expect(200);
        assert_eq!(
            ids(&page),
            [second.as_str(), first.as_str()],
            "{label}: {page}"
        );
        for entry in page["list"].as_array().unwrap() {
            assert_eq!(entry["context"], "preceding", "{entry}");
            assert!(entry.get("data").is_none());
        }
        let by_uuid = app
            .get(&format!("/silo/v1/entries/related?uuid={doc_uuid}"))
            .await
            .expect(200);
        assert_eq!(ids(&by_uuid), ids(&page));

        // Paged newest first through next_cursor; filtered by context.
        let one = app
            .get(&format!("/silo/v1/entries/{invoice_id}/related?limit=1"))
            .await
            .expect(200);
        assert_eq!(ids(&one), [second.as_str()]);
        let cursor = one["next_cursor"].as_str().expect("a next page");
        let two = app
            .get(&format!(
                "/silo/v1/entries/{invoice_id}/related?limit=1&cursor={cursor}"
            ))
            .await
            .expect(200);
        assert_eq!(ids(&two), [first.as_str()]);
        assert!(two.get("next_cursor").is_none(), "{two}");
        let none = app
            .get(&format!(
                "/silo/v1/entries/related?uuid={doc_uuid}&context=line.item"
            ))
            .await
            .expect(200);
        assert!(ids(&none).is_empty());
        let some = app
            .get(&format!(
                "/silo/v1/entries/related?uuid={doc_uuid}&context=preceding"
            ))
            .await
            .expect(200);
        assert_eq!(ids(&some).len(), 2);

        // An entry nothing mentions; a credit note mentions no one that mentions it.
        let nothing = app
            .get(&format!("/silo/v1/entries/{second}/related"))
            .await
            .expect(200);
        assert!(ids(&nothing).is_empty());

        // Another workspace sees none of it.
        let other = app.other_workspace("other").await;
        let theirs = send_as(
            &app,
            &other,
            Method::GET,
            &format!("/silo/v1/entries/related?uuid={doc_uuid}"),
            None,
        )
        .await
        .expect(200);
        assert!(ids(&theirs).is_empty(), "{label}: {theirs}");
        send_as(
            &app,
            &other,
            Method::GET,
            &format!("/silo/v1/entries/{invoice_id}/related"),
            None,
        )
        .await
        .expect(404);

        // Bad input.
        app.get("/silo/v1/entries/related").await.expect(422);
        app.get("/silo/v1/entries/related?uuid=nope")
            .await
            .expect(422);
        app.get(&format!(
            "/silo/v1/entries/{}/related",
            uuid::Uuid::now_v7()
        ))
        .await
        .expect(404);
    }
}

#[tokio::test]
async fn a_new_version_replaces_the_references() {
    for app in TestApp::backends().await {
        let (_, doc_uuid, env) = store_invoice(&app, "1").await;
        let credit = store_credit_note(&app, &env, 20).await;
        let related = format!("/silo/v1/entries/related?uuid={doc_uuid}");
        assert_eq!(ids(&app.get(&related).await.expect(200)), [credit.as_str()]);
        // The credit note now corrects nothing: it leaves the index.
        let stored = app
            .get(&format!("/silo/v1/entries/{credit}"))
            .await
            .expect(200);
        let mut doc = stored["data"]["doc"].clone();
        doc.as_object_mut().unwrap().remove("preceding");
        doc.as_object_mut().unwrap().remove("totals");
        app.patch(
            &format!("/silo/v1/entries/{credit}"),
            &json!({"data": doc, "allow_invalid": true}),
        )
        .await
        .expect(200);
        assert!(ids(&app.get(&related).await.expect(200)).is_empty());
    }
}

#[tokio::test]
async fn the_lookup_reads_the_index() {
    use sqlx::Row;
    let app = TestApp::sqlite().await;
    let rows = sqlx::query(
        "EXPLAIN QUERY PLAN SELECT e.id FROM silo_related r \
         JOIN silo_envelopes e ON e.workspace_id = r.workspace_id AND e.id = r.envelope_id \
         WHERE r.workspace_id = 'w' AND r.target IN ('t') \
         ORDER BY r.created_at DESC, r.envelope_id DESC LIMIT 21",
    )
    .fetch_all(app.db.store.pool())
    .await
    .unwrap();
    let plan: Vec<String> = rows.iter().map(|r| r.get::<String, _>(3)).collect();
    let text = plan.join("\n");
    assert!(text.contains("silo_related_target"), "{text}");
    assert!(
        !text.contains("SCAN r"),
        "no scan of the index table: {text}"
    );
    assert!(!text.contains("SCAN e"), "envelopes by primary key: {text}");
    assert!(
        !text.contains("TEMP B-TREE"),
        "the index gives the order: {text}"
    );
}
