//! `sequence.enumerate` → `silo.close`: the signed document carries the series' next code, a
//! re-run does not take a second number, a document with a code is skipped, and the job arg
//! `sequence-series-id` picks the series.

use serde_json::{Value, json};
use uuid::Uuid;

use super::{all_entries, apps, body, series};
use crate::harness::TestApp;
use crate::transform::{step_verdict, verdict};

fn invoice() -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "currency": "EUR", "issue_date": "2026-11-02",
        "supplier": {"name": "Muster GmbH", "tax_id": {"country": "DE", "code": "111111125"}},
        "customer": {"name": "Kunde AG", "tax_id": {"country": "DE", "code": "282741168"}},
        "lines": [{"quantity": "1", "item": {"name": "Beratung", "price": "100.00"},
                   "taxes": [{"cat": "VAT", "rate": "standard"}]}]
    })
}

async fn stored(app: &TestApp, doc: Value) -> Uuid {
    let id = Uuid::now_v7();
    app.put(&format!("/silo/v1/envelopes/{id}"), &json!({"data": doc}))
        .await
        .expect(200);
    id
}

async fn run(app: &TestApp, workflow: &Value, env: Uuid, args: Value) -> Value {
    app.post(
        "/transform/v1/jobs?wait=10",
        &json!({"workflow_id": workflow["id"], "silo_entry_id": env, "args": args}),
    )
    .await
    .expect(202)
}

#[tokio::test]
async fn enumerate_then_close_signs_the_numbered_document_once() {
    for app in apps().await {
        let id = Uuid::new_v4();
        let wf = app
            .put(
                &format!("/transform/v1/workflows/{id}"),
                &json!({"name": "issue", "steps": [
                    {"id": "num", "provider": "sequence.enumerate",
                     "config": {"name": "Rechnungen", "prefix": "RE-", "padding": 4, "start": 1}},
                    {"id": "close", "provider": "silo.close"}
                ]}),
            )
            .await
            .expect(200);
        let mut codes = Vec::new();
        for _ in 0..3 {
            let env = stored(&app, invoice()).await;
            let job = run(&app, &wf, env, json!({})).await;
            assert_eq!(job["status"], "OK", "{}: {job}", app.label());
            let entry = app
                .get(&format!("/silo/v1/envelopes/{env}"))
                .await
                .expect(200);
            assert!(entry["data"]["sigs"].is_array(), "signed: {entry}");
            codes.push(entry["data"]["doc"]["code"].as_str().unwrap().to_string());

            // the same document through the workflow again: it has its code, nothing is taken
            let again = run(&app, &wf, env, json!({})).await;
            assert_eq!(step_verdict(&again, "num"), "SKIP", "{again}");
        }
        assert_eq!(codes, ["RE-0001", "RE-0002", "RE-0003"], "{}", app.label());
        let list = app.get("/sequence/v1/series").await.expect(200);
        let series_id = list["list"][0]["id"].as_str().unwrap().parse().unwrap();
        assert_eq!(all_entries(&app, series_id).await.len(), 3);
    }
}

#[tokio::test]
async fn the_job_arg_names_the_series_and_a_document_with_a_code_is_skipped() {
    for app in apps().await {
        let chosen = series(&app, body("Chosen", "CH-", 3)).await;
        let id = Uuid::new_v4();
        let wf = app
            .put(
                &format!("/transform/v1/workflows/{id}"),
                &json!({"name": "number", "steps": [
                    {"id": "num", "action": "sequence.enumerate", "config": {"name": "Default"}}
                ]}),
            )
            .await
            .expect(200);
        let env = stored(&app, invoice()).await;
        let job = run(&app, &wf, env, json!({"sequence-series-id": chosen})).await;
        assert_eq!(job["status"], "OK", "{job}");
        let entry = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        assert_eq!(entry["data"]["doc"]["code"], "CH-001");

        let mut coded = invoice();
        coded["code"] = json!("MANUAL-7");
        let env = stored(&app, coded).await;
        let job = run(&app, &wf, env, json!({})).await;
        assert_eq!(verdict(&job), "SKIP", "{job}");
        let entry = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        assert_eq!(entry["data"]["doc"]["code"], "MANUAL-7");
        // nothing was taken from the default series for it
        let list = app.get("/sequence/v1/series").await.expect(200);
        assert_eq!(list["list"].as_array().unwrap().len(), 1, "{list}");
    }
}
