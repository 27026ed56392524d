//! Series and entries: idempotent creation, codes written as the series says, the chain of
//! previous entries, paging, and clear errors.

use serde_json::json;
use uuid::Uuid;

use super::{all_entries, apps, body, series};

#[tokio::test]
async fn series_are_created_once_and_read_back() {
    for app in apps().await {
        let id = Uuid::new_v4();
        let path = format!("/sequence/v1/series/{id}");
        let mut def = body("Sales", "INV-", 5);
        def["code"] = json!("SALES-2026");
        def["suffix"] = json!("-F1");
        let made = app.put(&path, &def).await.expect(200);
        assert_eq!(made["id"], id.to_string());
        assert_eq!(made["last_index"], 0, "{made}");
        assert!(made.get("last_entry_id").is_none());
        // the same request again answers the same series; other content is a conflict
        assert_eq!(app.put(&path, &def).await.expect(200), made);
        let other = app.put(&path, &body("Other", "X-", 2)).await;
        assert_eq!(other.status, 409, "{}", other.text());
        assert_eq!(app.get(&path).await.expect(200), made);
        let list = app.get("/sequence/v1/series").await.expect(200);
        assert_eq!(list["list"].as_array().unwrap().len(), 1);

        // what the request gets wrong is 422 naming the field; an unknown series 404
        for (bad, field) in [
            (json!({"prefix": "A"}), "name"),
            (json!({"name": "n", "padding": 99}), "padding"),
            (json!({"name": "n", "start": -1}), "start"),
        ] {
            let resp = app
                .put(&format!("/sequence/v1/series/{}", Uuid::new_v4()), &bad)
                .await;
            assert_eq!(resp.status, 422, "{bad}: {}", resp.text());
            assert!(resp.text().contains(field), "{}", resp.text());
        }
        let missing = app
            .get(&format!("/sequence/v1/series/{}", Uuid::new_v4()))
            .await;
        assert_eq!(missing.status, 404);
    }
}

#[tokio::test]
async fn entries_take_consecutive_codes_and_repeat_requests_keep_theirs() {
    for app in apps().await {
        let mut def = body("Sales", "INV-", 5);
        def["suffix"] = json!("-F1");
        let s = series(&app, def).await;
        let mut ids = Vec::new();
        for n in 1..=5 {
            let id = Uuid::new_v4();
            let e = app
                .put(
                    &format!("/sequence/v1/series/{s}/entries/{id}"),
                    &json!({"meta": {"n": n.to_string()}, "sig": "eyJ..."}),
                )
                .await
                .expect(200);
            assert_eq!(e["code"], format!("INV-{n:05}-F1"), "{e}");
            assert_eq!(e["series_id"], s.to_string());
            assert_eq!(e["sigs"], json!(["eyJ..."]));
            match ids.last() {
                Some(prev) => assert_eq!(e["previous_id"], json!(prev)),
                None => assert!(e.get("previous_id").is_none()),
            }
            ids.push(id.to_string());
        }
        // a repeated request answers the first entry, and takes no new code
        let again = app
            .put(
                &format!("/sequence/v1/series/{s}/entries/{}", ids[1]),
                &json!({}),
            )
            .await
            .expect(200);
        assert_eq!(again["code"], "INV-00002-F1");
        let fetched = app
            .get(&format!("/sequence/v1/series/{s}/entries/{}", ids[4]))
            .await
            .expect(200);
        assert_eq!(fetched["code"], "INV-00005-F1");
        assert_eq!(fetched["meta"]["n"], "5");
        let series = app
            .get(&format!("/sequence/v1/series/{s}"))
            .await
            .expect(200);
        assert_eq!(series["last_index"], 5);
        assert_eq!(series["last_entry_id"], json!(ids[4]));

        // pages of two, newest first, cover everything once
        let page = app
            .get(&format!("/sequence/v1/series/{s}/entries?limit=2"))
            .await
            .expect(200);
        assert_eq!(page["list"][0]["code"], "INV-00005-F1");
        assert_eq!(page["limit"], 2);
        assert!(page["cursor"].is_string(), "{page}");
        let codes: Vec<String> = all_entries(&app, s)
            .await
            .iter()
            .map(|e| e["code"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(codes.len(), 5);

        // an entry of a series that does not exist is 404; a bad cursor 422
        let resp = app
            .put(
                &format!(
                    "/sequence/v1/series/{}/entries/{}",
                    Uuid::new_v4(),
                    Uuid::new_v4()
                ),
                &json!({}),
            )
            .await;
        assert_eq!(resp.status, 404, "{}", resp.text());
        let resp = app
            .get(&format!("/sequence/v1/series/{s}/entries?cursor=zz"))
            .await;
        assert_eq!(resp.status, 422, "{}", resp.text());
    }
}

/// A stored entry that no longer decodes is the server's fault: 500 with nothing of the row in
/// the answer (the detail goes to the log), never a 422 that blames the client.
#[tokio::test]
async fn a_corrupt_stored_entry_answers_500_without_internals() {
    for app in apps().await {
        let s = series(&app, body("Sales", "INV-", 5)).await;
        let id = Uuid::new_v4();
        let path = format!("/sequence/v1/series/{s}/entries/{id}");
        app.put(&path, &json!({})).await.expect(200);
        sqlx::query("UPDATE sequence_entries SET meta = 'not json' WHERE id = $1")
            .bind(id.to_string())
            .execute(app.db.store.pool())
            .await
            .unwrap();
        let resp = app.get(&path).await;
        assert_eq!(resp.status, 500, "{}: {}", app.label(), resp.text());
        assert_eq!(resp.json()["key"], "internal");
        assert!(!resp.text().contains("not json"), "{}", resp.text());
    }
}
