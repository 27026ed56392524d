//! `cii.generate` → `pdf` → `cii.pdf.embed` over HTTP on both backends: the envelope ends with
//! its CII and a Factur-X hybrid PDF (served as `application/pdf` under a name a browser
//! keeps) whose embedded XML is the attached CII byte for byte; `cii.pdf.import` reads the
//! hybrid back into a new envelope with the same totals.

use serde_json::{Value, json};
use uuid::Uuid;

use super::{apps, workflow};
use crate::harness::TestApp;

fn invoice() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/it/data/invoice-de-b2g.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

async fn run(app: &TestApp, wf: &Value, env: Uuid) -> Value {
    app.post(
        "/transform/v1/jobs?wait=20",
        &json!({"workflow_id": wf["id"], "silo_entry_id": env}),
    )
    .await
    .expect(202)
}

fn file<'a>(job: &'a Value, key: &str) -> &'a Value {
    job["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|f| f["key"] == key)
        .unwrap_or_else(|| panic!("no {key} file: {job}"))
}

async fn download(app: &TestApp, url: &str) -> (String, String, Vec<u8>) {
    let resp = app.send(app.request(reqwest::Method::GET, url)).await;
    assert_eq!(resp.status, 200);
    let header = |name: &str| {
        resp.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    (
        header("content-type"),
        header("content-disposition"),
        resp.body.to_vec(),
    )
}

#[tokio::test]
async fn generate_render_embed_then_import_the_hybrid() {
    for app in apps().await {
        let wf = workflow(
            &app,
            json!({"name": "zugferd", "steps": [
                {"id": "cii", "provider": "cii.generate", "config": {"doc_type": "zugferd-v2", "validate_cii": true}},
                {"id": "pdf", "provider": "pdf", "config": {"locale": "de", "layout": "A4", "logo_height": 40, "scripting": false}},
                {"id": "embed", "provider": "cii.pdf.embed"}
            ]}),
        )
        .await;
        let env = Uuid::now_v7();
        app.put(
            &format!("/silo/v1/envelopes/{env}"),
            &json!({"data": invoice()}),
        )
        .await
        .expect(200);
        let job = run(&app, &wf, env).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let cii = file(&job, "cii");
        let pdf = file(&job, "pdf");
        assert_eq!(pdf["name"], "RE-2026-0042.pdf", "{pdf}");
        let (mime, disposition, bytes) = download(&app, pdf["url"].as_str().unwrap()).await;
        assert_eq!(mime, "application/pdf");
        assert!(
            disposition.contains("filename=\"RE-2026-0042.pdf\""),
            "{disposition}"
        );
        let (_, _, xml) = download(&app, cii["url"].as_str().unwrap()).await;
        let found = folio_einvoice::extract(&bytes).expect("a hybrid");
        assert_eq!(found.file_name, "factur-x.xml");
        assert_eq!(found.xml, xml, "the embedded CII is not the attached one");
        let embed = job["intents"][2]["events"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        assert_eq!(embed["args"]["same_as_cii_file"], "true", "{embed}");

        // the hybrid, received: cii.pdf.import makes a new envelope with the same totals
        let wf = workflow(
            &app,
            json!({"name": "receive", "steps": [{"id": "in", "action": "cii.pdf.import"}]}),
        )
        .await;
        let holder = Uuid::now_v7();
        app.put(&format!("/silo/v1/envelopes/{holder}"), &json!({"data": {"$schema": "https://gobl.org/draft-0/note/message", "title": "inbox"}}))
            .await
            .expect(200);
        let body = json!({"name": "received.pdf", "data": base64_of(&bytes)});
        app.put(
            &format!("/silo/v1/envelopes/{holder}/files/{}", Uuid::now_v7()),
            &body,
        )
        .await
        .expect(200);
        let job = run(&app, &wf, holder).await;
        assert_eq!(job["status"], "OK", "{job}");
        let new_id = job["intents"][0]["events"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()["silo_entry_id"]
            .clone();
        let imported = app
            .get(&format!("/silo/v1/envelopes/{}", new_id.as_str().unwrap()))
            .await
            .expect(200);
        let original = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        assert_eq!(
            imported["data"]["doc"]["totals"]["payable"],
            original["data"]["doc"]["totals"]["payable"]
        );
    }
}

fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
