//! Bad input for every transform/v1 endpoint: each answers the JSON error body with the right
//! status and names the offending field.

use reqwest::Method;
use serde_json::json;
use uuid::Uuid;

use super::{apps, workflow};

#[tokio::test]
async fn every_endpoint_refuses_bad_input() {
    for app in apps().await {
        let wid = Uuid::new_v4();
        let wpath = format!("/transform/v1/workflows/{wid}");
        // workflows: PUT
        let e = app
            .put(
                &wpath,
                &json!({"name": "x", "steps": [{"id": "a", "action": "nope"}]}),
            )
            .await
            .expect(422);
        assert!(e["fields"]["steps"]["0"]["action"].is_string(), "{e}");
        let e = app.put(&wpath, &json!({"name": "x", "steps": [
            {"id": "a", "action": "sleep", "config": {"seconds": 0}, "next": [{"step_id": "zz"}]}]})).await.expect(422);
        assert!(
            e["fields"]["steps"]["0"]["next"]["0"]["step_id"].is_string(),
            "{e}"
        );
        let e = app
            .put(
                &wpath,
                &json!({"name": "x", "steps": [
            {"id": "a", "action": "sleep", "config": {"seconds": 0}},
            {"id": "b", "action": "sleep", "config": {"seconds": 0}, "next": [{"step_id": "a"}]}]}),
            )
            .await
            .expect(422);
        assert!(e["fields"]["steps"]["1"]["next"].is_string(), "{e}");
        let e = app
            .put(
                &wpath,
                &json!({"name": "x", "steps": [
            {"id": "a", "action": "webhook.send", "config": {"url": 5}}]}),
            )
            .await
            .expect(422);
        assert!(
            e["fields"]["steps"]["0"]["config"]["url"].is_string(),
            "{e}"
        );
        let e = app
            .put(&wpath, &json!({"name": "x", "steps": "many"}))
            .await
            .expect(422);
        assert!(e["fields"]["steps"].is_string(), "{e}");
        let e = app.put(&wpath, &json!({"steps": []})).await.expect(422);
        assert!(
            e["fields"]["name"].is_string() && e["fields"]["steps"].is_string(),
            "{e}"
        );
        let many: Vec<_> = (0..101)
            .map(|i| json!({"id": format!("s{i}"), "action": "sleep", "config": {"seconds": 0}}))
            .collect();
        app.put(&wpath, &json!({"name": "big", "steps": many}))
            .await
            .expect(422);
        app.put("/transform/v1/workflows/not-a-uuid", &json!({"name": "x"}))
            .await
            .expect(422);
        app.raw(Method::PUT, &wpath, b"{\"name\": ".to_vec())
            .await
            .expect(400);
        let r = app
            .send(
                app.request(Method::PUT, &wpath)
                    .header("content-type", "text/plain")
                    .body("x"),
            )
            .await;
        r.expect(415);
        // nothing was saved
        app.get(&wpath).await.expect(404);
        // workflows: PATCH, GET, list
        app.patch(&wpath, &json!({"name": "x", "steps": [{"id": "a", "action": "sleep", "config": {"seconds": 0}}]})).await.expect(404);
        app.get("/transform/v1/workflows/123").await.expect(422);
        app.get("/transform/v1/workflows?limit=0").await.expect(422);
        app.get("/transform/v1/workflows?limit=abc")
            .await
            .expect(422);
        let e = app
            .get("/transform/v1/workflows?created_at=yesterday")
            .await
            .expect(422);
        assert!(e["fields"]["created_at"].is_string());
        let wf = workflow(&app, json!({"name": "ok", "steps": [{"id": "a", "action": "sleep", "config": {"seconds": 0}}]})).await;
        let path = format!("/transform/v1/workflows/{}", wf["id"].as_str().unwrap());
        let e = app
            .patch(
                &path,
                &json!({"name": "x", "steps": [{"id": "a", "action": "silo.state", "config": {}}]}),
            )
            .await
            .expect(422);
        assert!(e["fields"]["steps"]["0"]["config"].is_string(), "{e}");
        // jobs: PUT/POST
        let jpath = format!("/transform/v1/jobs/{}", Uuid::new_v4());
        let e = app.put(&jpath, &json!({})).await.expect(422);
        assert!(e["fields"]["workflow_id"].is_string());
        let e = app
            .put(&jpath, &json!({"workflow_id": "nope"}))
            .await
            .expect(422);
        assert!(e["fields"]["workflow_id"].is_string());
        let e = app
            .post(
                "/transform/v1/jobs",
                &json!({"workflow_id": wf["id"], "args": {"a": 1}}),
            )
            .await
            .expect(422);
        assert!(e["fields"]["args"]["a"].is_string(), "{e}");
        let e = app
            .post(
                "/transform/v1/jobs",
                &json!({"workflow_id": wf["id"], "silo_entry_id": Uuid::new_v4()}),
            )
            .await
            .expect(422);
        assert!(e["fields"]["silo_entry_id"].is_string(), "{e}");
        let e = app
            .post(
                "/transform/v1/jobs",
                &json!({"workflow_id": wf["id"], "data": {"no": "schema"}}),
            )
            .await
            .expect(422);
        assert!(
            e["fields"]["data"].is_object() || e["fields"]["data"].is_string(),
            "{e}"
        );
        app.post(
            "/transform/v1/jobs",
            &json!({"workflow_id": wf["id"], "data": "text"}),
        )
        .await
        .expect(422);
        let e = app
            .post(
                "/transform/v1/jobs?wait=61",
                &json!({"workflow_id": wf["id"]}),
            )
            .await
            .expect(422);
        assert!(e["fields"]["wait"].is_string());
        app.post(
            "/transform/v1/jobs?wait=-1",
            &json!({"workflow_id": wf["id"]}),
        )
        .await
        .expect(422);
        app.post(
            "/transform/v1/jobs",
            &json!({"workflow_id": wf["id"], "key": ""}),
        )
        .await
        .expect(422);
        app.raw(
            Method::POST,
            "/transform/v1/jobs",
            b"{\"workflow_id\": ".to_vec(),
        )
        .await
        .expect(400);
        app.put("/transform/v1/jobs/xyz", &json!({"workflow_id": wf["id"]}))
            .await
            .expect(422);
        // jobs: GET, by key, list
        app.get(&jpath).await.expect(404);
        app.get("/transform/v1/jobs/xyz").await.expect(422);
        app.get(&format!("{jpath}?wait=100")).await.expect(422);
        app.get("/transform/v1/jobs/key/none").await.expect(404);
        let e = app
            .get("/transform/v1/jobs?cursor=garbage")
            .await
            .expect(422);
        assert!(e["fields"]["cursor"].is_string());
        app.get("/transform/v1/jobs?limit=-5").await.expect(422);
        app.get("/transform/v1/jobs?created_at=x").await.expect(422);
        // no token
        let r = app
            .send(app.client.get(format!("{}/transform/v1/jobs", app.base)))
            .await;
        r.expect(401);
    }
}

/// A stored row that no longer decodes is the server's fault: 500 with nothing of the row in
/// the answer (the detail goes to the log), never a 422 that blames the client.
#[tokio::test]
async fn corrupt_stored_rows_answer_500_without_internals() {
    for app in apps().await {
        let wf = workflow(&app, json!({"name": "ok", "steps": [{"id": "a", "action": "sleep", "config": {"seconds": 0}}]})).await;
        let job = app
            .post(
                "/transform/v1/jobs?wait=10",
                &json!({"workflow_id": wf["id"]}),
            )
            .await
            .expect(202);
        // finished first, so no worker claims the row once it is spoilt
        assert!(job["completed_at"].is_string(), "{job}");
        let wf_id = wf["id"].as_str().unwrap();
        let job_id = job["id"].as_str().unwrap();
        for (sql, id, path) in [
            (
                "UPDATE transform_jobs SET args = 'not json' WHERE id = $1",
                job_id,
                format!("/transform/v1/jobs/{job_id}"),
            ),
            (
                "UPDATE transform_workflows SET definition = 'not json' WHERE id = $1",
                wf_id,
                format!("/transform/v1/workflows/{wf_id}"),
            ),
        ] {
            sqlx::query(sql)
                .bind(id.to_string())
                .execute(app.db.store.pool())
                .await
                .unwrap();
            let resp = app.get(&path).await;
            assert_eq!(resp.status, 500, "{} {path}: {}", app.label(), resp.text());
            assert_eq!(resp.json()["key"], "internal");
            assert!(!resp.text().contains("not json"), "{}", resp.text());
        }
    }
}
