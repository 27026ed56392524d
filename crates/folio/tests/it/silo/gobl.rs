//! `POST /silo/v1/gobl/build` and `/silo/v1/gobl/sign`: GOBL calculated, validated and signed
//! without being stored; a document with faults is 422 with them, as on `PUT`.

use serde_json::{Value, json};

use crate::harness::TestApp;

fn invoice() -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "currency": "EUR", "issue_date": "2026-11-02", "series": "B", "code": "1",
        "supplier": {"name": "Muster GmbH", "tax_id": {"country": "DE", "code": "111111125"}},
        "customer": {"name": "Kunde AG", "tax_id": {"country": "DE", "code": "282741168"}},
        "lines": [{"quantity": "2", "item": {"name": "Beratung", "price": "100.00"},
                   "taxes": [{"cat": "VAT", "rate": "standard"}]}]
    })
}

#[tokio::test]
async fn build_and_sign_answer_gobl_and_store_nothing() {
    for app in TestApp::backends().await {
        let doc = app
            .post("/silo/v1/gobl/build", &json!({"data": invoice()}))
            .await
            .expect(200);
        assert_eq!(doc["data"]["totals"]["payable"], "238.00", "{doc}");
        assert!(
            doc["data"].get("head").is_none(),
            "the document alone: {doc}"
        );
        let env = app
            .post(
                "/silo/v1/gobl/build",
                &json!({"data": invoice(), "envelop": true}),
            )
            .await
            .expect(200);
        assert!(env["data"]["head"]["dig"]["val"].is_string(), "{env}");
        assert!(env["data"].get("sigs").is_none());

        let signed = app
            .post("/silo/v1/gobl/sign", &json!({"data": invoice()}))
            .await
            .expect(200);
        let sigs = signed["data"]["sigs"].as_array().expect("signed");
        assert_eq!(sigs.len(), 1);
        // the signature is the workspace key's: the silo accepts the envelope as signed by it
        let id = signed["data"]["head"]["uuid"].as_str().unwrap().to_string();
        let stored = app
            .put(
                &format!("/silo/v1/envelopes/{id}"),
                &json!({"data": signed["data"]}),
            )
            .await
            .expect(200);
        assert_eq!(stored["signed"], true, "{stored}");

        // nothing was stored by build or sign
        let list = app.get("/silo/v1/envelopes").await.expect(200);
        assert_eq!(list["list"].as_array().unwrap().len(), 1, "{list}");

        let mut bad = invoice();
        bad["supplier"]["tax_id"]["code"] = json!("111111124");
        for path in ["/silo/v1/gobl/build", "/silo/v1/gobl/sign"] {
            let resp = app.post(path, &json!({"data": bad})).await;
            assert_eq!(resp.status, 422, "{path}: {}", resp.text());
            assert!(resp.text().contains("tax-id-code"), "{}", resp.text());
            let resp = app.post(path, &json!({})).await;
            assert_eq!(resp.status, 422, "{}", resp.text());
        }
    }
}
