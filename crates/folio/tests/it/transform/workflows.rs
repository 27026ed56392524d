//! Workflows: save, publish, drafts, versions, idempotent PUT, listing.

use serde_json::{Value, json};
use uuid::Uuid;

use super::apps;

fn body(name: &str, state: &str) -> serde_json::Value {
    json!({"name": name, "schema": "bill/invoice", "steps": [
        {"id": "s1", "name": "Set state", "action": "silo.state", "config": {"state": state}}
    ]})
}

#[tokio::test]
async fn publish_versions_drafts_and_idempotent_put() {
    for app in apps().await {
        let id = Uuid::new_v4();
        let path = format!("/transform/v1/workflows/{id}");
        let wf = app.put(&path, &body("w", "sent")).await.expect(200);
        assert_eq!(wf["id"], id.to_string());
        assert_eq!(wf["version"], "1", "{}", app.label());
        assert_eq!(wf["draft"], false);
        assert_eq!(wf["hash"].as_str().unwrap().len(), 16);
        assert_eq!(wf["versions"].as_array().unwrap().len(), 1);
        assert!(wf["created_at"].as_str().unwrap().ends_with('Z'));
        // same body again: the same workflow; a different body: 409
        let again = app.put(&path, &body("w", "sent")).await.expect(200);
        assert_eq!(again["hash"], wf["hash"]);
        app.put(&path, &body("w", "paid")).await.expect(409);
        // a draft update does not publish
        let mut draft = body("w", "paid");
        draft["draft"] = json!(true);
        let d = app.patch(&path, &draft).await.expect(200);
        assert_eq!(d["draft"], true);
        assert_eq!(d["version"], "1");
        assert_ne!(d["hash"], wf["hash"]);
        // publishing makes version 2; publishing the same again does not
        let p = app.patch(&path, &body("w", "paid")).await.expect(200);
        assert_eq!(p["version"], "2");
        let p = app.patch(&path, &body("w", "paid")).await.expect(200);
        assert_eq!(p["version"], "2");
        let got = app.get(&path).await.expect(200);
        assert_eq!(got["steps"][0]["config"]["state"], "paid");
        let versions = got["versions"].as_array().unwrap();
        assert_eq!(versions.len(), 2);
        assert_eq!(versions[0]["hash"], wf["hash"]);
        // disabled is kept when a PATCH leaves it out
        let mut off = body("w", "paid");
        off["disabled"] = json!(true);
        app.patch(&path, &off).await.expect(200);
        let kept = app.patch(&path, &body("w", "paid")).await.expect(200);
        assert_eq!(kept["disabled"], true);
        // a partial PATCH (as Invopop's clients send) changes only what it names
        let described = app
            .patch(&path, &json!({"description": "only this"}))
            .await
            .expect(200);
        assert_eq!(described["description"], "only this");
        assert_eq!(described["name"], "w");
        assert_eq!(described["steps"], got["steps"], "{}", app.label());
        assert_eq!(described["version"], "3");
        // ids left out are generated, stably
        let no_ids =
            json!({"name": "n", "steps": [{"action": "silo.folder", "config": {"folder": "x"}}]});
        let id2 = Uuid::new_v4();
        let a = app
            .put(&format!("/transform/v1/workflows/{id2}"), &no_ids)
            .await
            .expect(200);
        assert!(!a["steps"][0]["id"].as_str().unwrap().is_empty());
        app.put(&format!("/transform/v1/workflows/{id2}"), &no_ids)
            .await
            .expect(200);
        // another workspace sees nothing
        let other = app.other_workspace("other").await;
        let resp = app
            .send(
                app.client
                    .get(format!("{}{path}", app.base))
                    .bearer_auth(other),
            )
            .await;
        resp.expect(404);
    }
}

#[tokio::test]
async fn list_pages_through_everything_once() {
    for app in apps().await {
        let mut ids = Vec::new();
        for i in 0..7 {
            let mut b = body(&format!("w{i}"), "sent");
            if i % 2 == 1 {
                b["schema"] = json!("note/message");
            }
            let w = super::workflow(&app, b).await;
            ids.push((w["created_at"].clone(), w["id"].clone()));
        }
        // The documented order is newest first, then by id: workflows created in the same
        // millisecond come back in id order, not in the order they were made.
        ids.sort_by(|a, b| {
            let key = |v: &(Value, Value)| {
                (
                    v.0.as_str().unwrap().to_owned(),
                    v.1.as_str().unwrap().to_owned(),
                )
            };
            key(b).cmp(&key(a))
        });
        let ids: Vec<Value> = ids.into_iter().map(|(_, id)| id).collect();
        let mut seen = Vec::new();
        let mut created_at: Option<String> = None;
        loop {
            let path = match &created_at {
                Some(c) => format!(
                    "/transform/v1/workflows?limit=3&created_at={}",
                    urlencode(c)
                ),
                None => "/transform/v1/workflows?limit=3".into(),
            };
            let page = app.get(&path).await.expect(200);
            assert_eq!(page["limit"], 3);
            let list = page["list"].as_array().unwrap();
            // longer than the limit only to keep one millisecond's workflows together
            assert!(
                list.len() <= 3
                    || list
                        .iter()
                        .all(|w| w["created_at"] == list[0]["created_at"])
            );
            for w in list {
                assert!(w.get("versions").is_none(), "lists carry no versions");
                seen.push(w["id"].clone());
            }
            match page["next_created_at"].as_str() {
                Some(n) => created_at = Some(n.to_string()),
                None => break,
            }
        }
        assert_eq!(seen, ids, "{}", app.label());
        let notes = app
            .get("/transform/v1/workflows?schema=note/message")
            .await
            .expect(200);
        assert_eq!(notes["list"].as_array().unwrap().len(), 3);
        assert_eq!(notes["schema"], "note/message");
    }
}

fn urlencode(s: &str) -> String {
    s.replace(':', "%3A").replace('+', "%2B")
}

/// A workflow as Invopop's console exports it: steps name their action `provider` and carry a
/// `summary`. It saves, reads back with both names and the summary, and runs.
#[tokio::test]
async fn invopop_exported_steps_with_provider_save_and_run() {
    for app in super::apps().await {
        let wf = super::workflow(
            &app,
            json!({"name": "Exported", "schema": "bill/invoice", "steps": [
                {"id": "bd7eb640-abd0-11ef-a013-91c68ca9f44b", "name": "Set state",
                 "provider": "silo.state", "summary": "Set state to `processing`{.state .processing}",
                 "config": {"state": "processing"}}
            ]}),
        )
        .await;
        let step = &wf["steps"][0];
        assert_eq!(step["action"], "silo.state", "{wf}");
        assert_eq!(step["provider"], "silo.state", "{wf}");
        assert_eq!(
            step["summary"],
            "Set state to `processing`{.state .processing}"
        );
        let env = super::envelope(&app).await;
        let job = super::run(&app, &wf["id"], env).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let entry = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        assert_eq!(entry["state"], "processing");

        // an action folio does not have is refused by either name
        let id = Uuid::new_v4();
        let resp = app
            .put(
                &format!("/transform/v1/workflows/{id}"),
                &json!({"name": "x", "steps": [{"provider": "sdi.send"}]}),
            )
            .await;
        assert_eq!(resp.status, 422, "{}", resp.text());
        assert!(resp.text().contains("sdi.send"), "{}", resp.text());
    }
}
