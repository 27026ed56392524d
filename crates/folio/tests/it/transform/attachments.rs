//! `attachments` on jobs: fetching one job that has an envelope returns the envelope's current
//! files, in the silo's file shape; lists and jobs without an envelope have none.

use serde_json::json;
use uuid::Uuid;

use super::{apps, envelope, run, workflow};

#[tokio::test]
async fn one_job_carries_its_envelopes_files() {
    for app in apps().await {
        let wf = workflow(
            &app,
            json!({"name": "mark", "steps": [
                {"id": "s", "action": "silo.state", "config": {"state": "processing"}}]}),
        )
        .await;
        // an envelope without files: an empty list
        let bare = envelope(&app).await;
        let job = run(&app, &wf["id"], bare).await;
        assert_eq!(job["attachments"], json!([]), "{}: {job}", app.label());
        // an envelope with a file, then a replacement (same key and category) and another
        let env = envelope(&app).await;
        let put = |file: Uuid, name: &str, data: &str, key: &str| {
            let body = json!({"name": name, "data": data, "key": key, "category": "print",
                              "desc": "the printable version", "meta": {"lang": "en"}});
            let path = format!("/silo/v1/envelopes/{env}/files/{file}");
            let app = &app;
            async move { app.put(&path, &body).await.expect(200) }
        };
        put(Uuid::now_v7(), "first.pdf", "JVBERi0x", "pdf").await;
        put(Uuid::now_v7(), "invoice.pdf", "JVBERi0y", "pdf").await;
        put(Uuid::now_v7(), "data.xml", "PHg+PC94Pg==", "xml").await;
        let job = app
            .post(
                "/transform/v1/jobs?wait=10",
                &json!({"workflow_id": wf["id"], "silo_entry_id": env, "key": "with-files"}),
            )
            .await
            .expect(202);
        assert_eq!(job["status"], "OK", "{job}");
        let stored = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        assert_eq!(stored["attachments"].as_array().unwrap().len(), 2);
        // the same files, in the same shape, as the silo reports them
        assert_eq!(job["attachments"], stored["attachments"], "{}", app.label());
        let first = &job["attachments"][0];
        assert_eq!(first["name"], "invoice.pdf");
        assert_eq!(first["key"], "pdf");
        assert_eq!(first["category"], "print");
        assert_eq!(first["mime"], "application/pdf");
        assert_eq!(first["size"], 6);
        assert_eq!(first["meta"]["lang"], "en");
        assert_eq!(job["attachments"][1]["name"], "data.xml");
        // the url downloads the file
        let got = app.get(first["url"].as_str().unwrap()).await;
        assert_eq!(got.status, 200);
        assert_eq!(got.body, b"%PDF-2");
        // fetch by id and by key (with ?wait too) carry them as well
        let id = job["id"].as_str().unwrap();
        for path in [
            format!("/transform/v1/jobs/{id}"),
            format!("/transform/v1/jobs/{id}?wait=5"),
            "/transform/v1/jobs/key/with-files".to_string(),
        ] {
            let one = app.get(&path).await.expect(200);
            assert_eq!(one["attachments"], stored["attachments"], "{path}");
        }
        // lists do not
        let list = app.get("/transform/v1/jobs").await.expect(200);
        for j in list["list"].as_array().unwrap() {
            assert!(j.get("attachments").is_none(), "{j}");
            assert!(j.get("envelope").is_none(), "{j}");
        }
        // a job without an envelope has no attachments member
        let wf2 = workflow(
            &app,
            json!({"name": "nap", "steps": [
                {"id": "n", "action": "sleep", "config": {"seconds": 0}}]}),
        )
        .await;
        let job = app
            .post(
                "/transform/v1/jobs?wait=10",
                &json!({"workflow_id": wf2["id"]}),
            )
            .await
            .expect(202);
        assert_eq!(job["status"], "OK", "{job}");
        assert!(job.get("attachments").is_none(), "{job}");
        assert!(job.get("envelope").is_none(), "{job}");
        app.stop().await;
    }
}
