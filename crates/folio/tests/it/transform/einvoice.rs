//! The e-invoice actions over HTTP on both backends: `ubl.generate` → `cii.generate` attach
//! XRechnung files that pass the official rules, a regenerated file replaces the earlier one,
//! `validate_ubl` turns a failing document into `KO` with the rule ids, and `ubl.import`
//! reads an attached file into a new envelope, refusing what is not an invoice.

use base64::Engine as _;
use folio_judge::{Judge, Rules};
use serde_json::{Value, json};
use uuid::Uuid;

use super::{apps, run, verdict, workflow};
use crate::harness::TestApp;

fn invoice() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/it/data/invoice-de-b2g.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

async fn store(app: &TestApp, doc: Value) -> Uuid {
    let id = Uuid::now_v7();
    app.put(&format!("/silo/v1/envelopes/{id}"), &json!({"data": doc}))
        .await
        .expect(200);
    id
}

/// The events of every intent of a job that name a file.
fn written(job: &Value) -> Vec<Value> {
    job["intents"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|i| i["events"].as_array().unwrap().clone())
        .filter(|e| e["args"]["file_name"].is_string())
        .collect()
}

async fn attach(app: &TestApp, env: Uuid, name: &str, bytes: &[u8]) {
    let body =
        json!({"name": name, "data": base64::engine::general_purpose::STANDARD.encode(bytes)});
    app.put(
        &format!("/silo/v1/envelopes/{env}/files/{}", Uuid::now_v7()),
        &body,
    )
    .await
    .expect(200);
}

#[tokio::test]
async fn generate_attaches_valid_ubl_and_cii_and_replaces_on_rerun() {
    for app in apps().await {
        let wf = workflow(
            &app,
            json!({"name": "xrechnung", "steps": [
                {"id": "ubl", "action": "ubl.generate",
                 "config": {"doc_type": "xrechnung-invoice-v2", "validate_ubl": true}},
                {"id": "cii", "action": "cii.generate",
                 "config": {"doc_type": "xrechnung-v3", "validate_cii": true, "unknown": 1}}]}),
        )
        .await;
        let env = store(&app, invoice()).await;
        let job = run(&app, &wf["id"], env).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let events = written(&job);
        let names: Vec<&str> = events
            .iter()
            .map(|e| e["args"]["file_name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["xrechnung-ubl.xml", "xrechnung-cii.xml"], "{job}");
        let stored = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        let files = stored["attachments"].as_array().unwrap().clone();
        assert_eq!(files.len(), 2, "{stored}");
        let mut docs = Vec::new();
        for f in &files {
            assert_eq!(f["mime"], "application/xml");
            let got = app.get(f["url"].as_str().unwrap()).await;
            assert_eq!(got.status, 200);
            docs.push((f["name"].as_str().unwrap().to_string(), got.text()));
        }
        if let Some(judge) = Judge::find() {
            for v in judge.check(Rules::XRechnung, &docs) {
                assert!(v.ok, "{}", v.explain());
            }
        }
        // again: the new files replace the old ones (same key and category)
        let again = run(&app, &wf["id"], env).await;
        assert_eq!(again["status"], "OK", "{again}");
        let stored = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        let current = stored["attachments"].as_array().unwrap();
        assert_eq!(current.len(), 2, "{stored}");
        assert!(
            current
                .iter()
                .all(|f| !files.iter().any(|old| old["id"] == f["id"]))
        );
        // the earlier file is still there by its id
        let old = app.get(files[0]["url"].as_str().unwrap()).await;
        assert_eq!(old.status, 200, "{}", app.label());
    }
}

#[tokio::test]
async fn a_failing_document_with_validate_ubl_ends_ko_with_the_rules() {
    for app in apps().await {
        // Peppol refuses e-mail addresses as electronic addresses (PEPPOL-EN16931-CL008)
        let wf = workflow(
            &app,
            json!({"name": "peppol", "steps": [{"id": "ubl", "action": "ubl.generate",
                   "config": {"doc_type": "bis-invoice-v3", "validate_ubl": true}}]}),
        )
        .await;
        let env = store(&app, invoice()).await;
        let job = run(&app, &wf["id"], env).await;
        assert_eq!(verdict(&job), "KO", "{job}");
        let last = job["intents"][0]["events"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        assert_eq!(last["code"], "invalid", "{last}");
        assert!(
            last["args"]["rules"]
                .as_str()
                .unwrap()
                .contains("PEPPOL-EN16931-CL008"),
            "{last}"
        );
        let stored = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        assert_eq!(stored["attachments"], json!([]), "nothing attached");
        // without validate_ubl the file is attached and the failed rules are reported
        let lax = workflow(
            &app,
            json!({"name": "peppol-lax", "steps": [{"id": "ubl", "action": "ubl.generate",
                   "config": {"doc_type": "bis-invoice-v3"}}]}),
        )
        .await;
        let job = run(&app, &lax["id"], env).await;
        assert_eq!(job["status"], "OK", "{job}");
        let event = &written(&job)[0];
        assert!(
            event["args"]["rules"].as_str().unwrap().contains("CL008"),
            "{event}"
        );
    }
}

#[tokio::test]
async fn an_unknown_doc_type_is_refused_when_the_workflow_is_saved() {
    for app in apps().await {
        let body = json!({"name": "bad", "steps": [{"id": "ubl", "action": "cii.generate",
                          "config": {"doc_type": "bis-invoice-v3"}}]});
        let resp = app
            .put(
                &format!("/transform/v1/workflows/{}", Uuid::new_v4()),
                &body,
            )
            .await;
        assert_eq!(resp.status, 422, "{}", resp.text());
        assert!(resp.text().contains("doc_type"), "{}", resp.text());
    }
}

#[tokio::test]
async fn import_reads_an_attached_file_into_a_new_envelope() {
    let ubl = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/einvoice/fixtures/cen/ubl/ubl-tc434-example1.xml"
    ))
    .unwrap();
    for app in apps().await {
        let wf = workflow(
            &app,
            json!({"name": "import", "steps": [{"id": "in", "action": "ubl.import"}]}),
        )
        .await;
        let holder = super::envelope(&app).await;
        attach(&app, holder, "received.xml", &ubl).await;
        let job = run(&app, &wf["id"], holder).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let event = &written(&job)[0];
        // the engine reports the envelope a step wrote as the event's `silo_entry_id`
        let new_id = event["silo_entry_id"].as_str().expect("the new envelope");
        assert_ne!(new_id, holder.to_string());
        let imported = app
            .get(&format!("/silo/v1/envelopes/{new_id}"))
            .await
            .expect(200);
        let model = en16931_formats_totals(&ubl);
        assert_eq!(
            imported["data"]["doc"]["totals"]["payable"], model,
            "{imported}"
        );
        assert_eq!(imported["attachments"][0]["name"], "received.xml");
        // what is not an invoice ends KO with the reason, at once
        for (name, bytes, says) in [
            ("page.xml", b"<html><body/></html>".to_vec(), "root element html"),
            (
                "bomb.xml",
                br#"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&a;</ID></Invoice>"#.to_vec(),
                "DTD",
            ),
        ] {
            let holder = super::envelope(&app).await;
            attach(&app, holder, name, &bytes).await;
            let job = run(&app, &wf["id"], holder).await;
            assert_eq!(verdict(&job), "KO", "{job}");
            let last = job["intents"][0]["events"].as_array().unwrap().last().unwrap().clone();
            assert!(last["message"].as_str().unwrap().contains(says), "{last}");
        }
    }
}

/// BT-115 of the CEN example, as GOBL writes amounts.
fn en16931_formats_totals(xml: &[u8]) -> Value {
    let text = String::from_utf8_lossy(xml);
    let at = text.find("<cbc:PayableAmount").unwrap();
    let start = at + text[at..].find('>').unwrap() + 1;
    let end = start + text[start..].find('<').unwrap();
    json!(text[start..end].trim())
}

#[tokio::test]
async fn import_reads_xml_given_as_job_data_and_the_job_works_on_the_new_envelope() {
    let cii = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/einvoice/fixtures/cen/cii/CII_example1.xml"
    ))
    .unwrap();
    for app in apps().await {
        let wf = workflow(
            &app,
            json!({"name": "receive", "steps": [
                {"id": "in", "action": "cii.import"},
                {"id": "state", "action": "silo.state", "config": {"state": "registered"}}
            ]}),
        )
        .await;
        let job = app
            .post(
                "/transform/v1/jobs?wait=10",
                &json!({"workflow_id": wf["id"], "data": cii}),
            )
            .await
            .expect(202);
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let new_id = written(&job)[0]["silo_entry_id"].clone();
        assert!(new_id.is_string(), "{job}");
        // the job adopted the imported envelope: the next step set its state
        assert_eq!(job["silo_entry_id"], new_id, "{job}");
        let imported = app
            .get(&format!("/silo/v1/envelopes/{}", new_id.as_str().unwrap()))
            .await
            .expect(200);
        assert_eq!(imported["state"], "registered", "{imported}");
        assert_eq!(
            imported["data"]["doc"]["$schema"],
            "https://gobl.org/draft-0/bill/invoice"
        );
        assert_eq!(imported["attachments"][0]["name"], "einvoice.xml");

        // text that is not XML is refused when the job is created
        let resp = app
            .post(
                "/transform/v1/jobs",
                &json!({"workflow_id": wf["id"], "data": "an invoice"}),
            )
            .await;
        assert_eq!(resp.status, 422, "{}", resp.text());
        assert!(resp.text().contains("data"), "{}", resp.text());
    }
}
