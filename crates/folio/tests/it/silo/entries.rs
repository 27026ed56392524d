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

#[tokio::test]
async fn a_file_posted_to_an_entry_gets_an_id_and_reads_back() {
    for app in TestApp::backends().await {
        let id = Uuid::now_v7();
        let doc = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "hi"});
        app.put(&format!("/silo/v1/entries/{id}"), &json!({"data": doc}))
            .await
            .expect(200);
        let file = app
            .post(
                &format!("/silo/v1/entries/{id}/files"),
                &json!({"name": "a.txt", "data": "aGVsbG8=", "key": "txt"}),
            )
            .await
            .expect(200);
        let file_id: Uuid = file["id"].as_str().unwrap().parse().expect("a uuid");
        let bytes = app
            .send(app.request(
                reqwest::Method::GET,
                &format!("/silo/v1/entries/{id}/files/{file_id}"),
            ))
            .await;
        assert_eq!(bytes.body, b"hello", "{}", app.label());
        // no content, no entry: refused with the reason
        let resp = app
            .post(
                &format!("/silo/v1/entries/{id}/files"),
                &json!({"name": "b.txt"}),
            )
            .await;
        assert_eq!(resp.status, 422, "{}", resp.text());
        assert!(resp.text().contains("data"), "{}", resp.text());
        let resp = app
            .post(
                &format!("/silo/v1/entries/{}/files", Uuid::now_v7()),
                &json!({"name": "a.txt", "data": "aGVsbG8="}),
            )
            .await;
        assert_eq!(resp.status, 404, "{}", resp.text());
    }
}

#[tokio::test]
async fn a_state_put_at_a_time_joins_the_history_in_time_order() {
    for app in TestApp::backends().await {
        let id = Uuid::now_v7();
        let doc = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "hi"});
        app.put(&format!("/silo/v1/entries/{id}"), &json!({"data": doc}))
            .await
            .expect(200);
        app.post(
            &format!("/silo/v1/entries/{id}/states"),
            &json!({"key": "sent"}),
        )
        .await
        .expect(200);
        // reported late: a state of the past does not replace the current one
        let at = "2026-01-02T03:04:05.678Z";
        let past = app
            .put(
                &format!("/silo/v1/entries/{id}/states/{at}"),
                &json!({"key": "registered", "notes": "late"}),
            )
            .await
            .expect(200);
        assert_eq!(past["created_at"], at, "{past}");
        let again = app
            .put(
                &format!("/silo/v1/entries/{id}/states/{at}"),
                &json!({"key": "registered"}),
            )
            .await
            .expect(200);
        assert_eq!(again["id"], past["id"], "a repeated PUT is the same state");
        let states = app
            .get(&format!("/silo/v1/entries/{id}/states"))
            .await
            .expect(200);
        let keys: Vec<_> = states["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["key"].as_str().unwrap())
            .collect();
        assert_eq!(keys, ["registered", "sent"], "{}", app.label());
        let entry = app.get(&format!("/silo/v1/entries/{id}")).await.expect(200);
        assert_eq!(entry["state"], "sent", "{entry}");

        // a state later than every other one becomes current
        let later = app
            .put(
                &format!("/silo/v1/entries/{id}/states/2099-01-01T00:00:00.000Z"),
                &json!({"key": "paid"}),
            )
            .await
            .expect(200);
        assert_eq!(later["key"], "paid");
        let entry = app.get(&format!("/silo/v1/entries/{id}")).await.expect(200);
        assert_eq!(entry["state"], "paid", "{entry}");

        let resp = app
            .put(
                &format!("/silo/v1/entries/{id}/states/yesterday"),
                &json!({"key": "paid"}),
            )
            .await;
        assert_eq!(resp.status, 422, "{}", resp.text());
        assert!(resp.text().contains("at"), "{}", resp.text());
        let resp = app
            .put(
                &format!("/silo/v1/entries/{}/states/{at}", Uuid::now_v7()),
                &json!({"key": "paid"}),
            )
            .await;
        assert_eq!(resp.status, 404, "{}", resp.text());
    }
}

/// Invopop's `PATCH` options: `content_type: application/merge-patch+json` patches the stored
/// document (recalculated as a bare document is), `sign` signs after the change, and JSON Patch
/// is refused by name rather than ignored.
#[tokio::test]
async fn a_patch_merges_into_the_document_and_signs_when_asked() {
    for app in TestApp::backends().await {
        let invoice = super::invoice("M", "1", 2);
        let made = app
            .post("/silo/v1/entries", &json!({"data": invoice}))
            .await
            .expect(200);
        let path = format!("/silo/v1/entries/{}", made["id"].as_str().unwrap());
        // a merge patch of the envelope's `doc`: the quantity changes, the totals follow
        let patch = json!({"doc": {"lines": [{"quantity": "3", "item": {"name": "Beratung",
            "price": "100.00"}, "taxes": [{"cat": "VAT", "rate": "standard"}]}]}});
        let patched = app
            .patch(
                &path,
                &json!({"content_type": "application/merge-patch+json", "data": patch}),
            )
            .await
            .expect(200);
        assert_ne!(patched["version"], made["version"], "{}", app.label());
        let doc = &app.get(&path).await.expect(200)["data"]["doc"];
        assert_eq!(doc["lines"][0]["quantity"], "3");
        assert_eq!(doc["totals"]["sum"], "300.00", "{doc}");
        assert_eq!(doc["supplier"]["name"], "Muster GmbH");
        // sign: the same document, now signed
        let signed = app.patch(&path, &json!({"sign": true})).await.expect(200);
        assert_eq!(signed["signed"], true, "{signed}");
        // JSON Patch is named as unsupported, not ignored
        let refused = app
            .patch(
                &path,
                &json!({"content_type": "application/json-patch+json", "data": []}),
            )
            .await
            .expect(422);
        assert!(refused.to_string().contains("content_type"), "{refused}");
    }
}

/// Invopop's `previous_id`: without `data`, a new entry is a copy of the previous one's document
/// under a new UUID, or, with `correct`, its credit note.
#[tokio::test]
async fn an_entry_made_from_a_previous_one_copies_or_corrects_it() {
    for app in TestApp::backends().await {
        let invoice = super::invoice("C", "7", 1);
        let first = app
            .post("/silo/v1/entries", &json!({"data": invoice, "sign": true}))
            .await
            .expect(200);
        let copy = app
            .post("/silo/v1/entries", &json!({"previous_id": first["id"]}))
            .await
            .expect(200);
        assert_ne!(copy["id"], first["id"], "{}", app.label());
        let copied = &app
            .get(&format!(
                "/silo/v1/entries/{}",
                copy["id"].as_str().unwrap()
            ))
            .await
            .expect(200)["data"]["doc"];
        assert_eq!(copied["code"], "7", "{copied}");
        assert_eq!(copied["totals"]["payable"], "119.00");
        let credit = app
            .post(
                "/silo/v1/entries",
                &json!({"previous_id": first["id"],
                        "correct": {"type": "credit-note", "reason": "Storno"}}),
            )
            .await
            .expect(200);
        let note = &app
            .get(&format!(
                "/silo/v1/entries/{}",
                credit["id"].as_str().unwrap()
            ))
            .await
            .expect(200)["data"]["doc"];
        assert_eq!(note["type"], "credit-note", "{note}");
        let first_doc = &app
            .get(&format!(
                "/silo/v1/entries/{}",
                first["id"].as_str().unwrap()
            ))
            .await
            .expect(200)["data"]["doc"];
        assert_eq!(note["preceding"][0]["uuid"], first_doc["uuid"]);
        // a previous entry that is not there is the client's mistake
        let missing = json!({"previous_id": Uuid::now_v7()});
        app.post("/silo/v1/entries", &missing).await.expect(422);
    }
}
