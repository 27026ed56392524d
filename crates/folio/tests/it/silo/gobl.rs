//! `POST /silo/v1/gobl/build`, `/sign` and `/correct`: GOBL calculated, validated, signed and
//! corrected without being stored; a document with faults is 422 with them, as on `PUT`.

use serde_json::{Value, json};

use crate::harness::TestApp;

fn invoice() -> Value {
    super::invoice("B", "1", 2)
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

#[tokio::test]
async fn correct_answers_the_regimes_options_then_a_credit_note_of_the_invoice() {
    for app in TestApp::backends().await {
        let env = app
            .post("/silo/v1/gobl/sign", &json!({"data": invoice()}))
            .await
            .expect(200)["data"]
            .clone();
        let options = app
            .post("/silo/v1/gobl/correct", &json!({"data": env}))
            .await
            .expect(200);
        // Germany allows credit notes only
        let types = &options["data"]["properties"]["type"];
        assert_eq!(types["default"], "credit-note", "{options}");
        assert_eq!(types["oneOf"].as_array().unwrap().len(), 1, "{options}");

        let credit = app
            .post(
                "/silo/v1/gobl/correct",
                &json!({"data": env, "options": {"type": "credit-note", "reason": "Storno",
                         "issue_date": "2026-11-20"}}),
            )
            .await
            .expect(200);
        let doc = &credit["data"]["doc"];
        assert_eq!(doc["type"], "credit-note", "{credit}");
        assert_eq!(doc["issue_date"], "2026-11-20");
        assert!(
            doc.get("code").is_none(),
            "the new document is numbered later"
        );
        assert_ne!(doc["uuid"], env["doc"]["uuid"]);
        assert_eq!(doc["preceding"][0]["uuid"], env["doc"]["uuid"]);
        assert_eq!(doc["preceding"][0]["code"], "1");
        assert_eq!(doc["preceding"][0]["series"], "B");
        assert_eq!(doc["preceding"][0]["reason"], "Storno");
        assert_eq!(doc["totals"]["payable"], "238.00", "recalculated: {credit}");
        assert!(credit["data"].get("sigs").is_none(), "not signed");
        assert_ne!(credit["data"]["head"]["uuid"], env["head"]["uuid"]);

        // a type the regime does not allow, a document, an invoice without a code
        for (body, field) in [
            (
                json!({"data": env, "options": {"type": "corrective"}}),
                "options.type",
            ),
            (
                json!({"data": env["doc"], "options": {"type": "credit-note"}}),
                "data",
            ),
            (json!({"data": env, "options": {}}), "options.type"),
            (
                json!({"data": env, "options": {"type": "credit-note", "issue_date": "soon"}}),
                "options.issue_date",
            ),
        ] {
            let resp = app.post("/silo/v1/gobl/correct", &body).await;
            assert_eq!(resp.status, 422, "{body}: {}", resp.text());
            assert!(resp.text().contains(field), "{field}: {}", resp.text());
        }
        let mut uncoded = invoice();
        uncoded.as_object_mut().unwrap().remove("code");
        let draft = app
            .post(
                "/silo/v1/gobl/build",
                &json!({"data": uncoded, "envelop": true}),
            )
            .await
            .expect(200)["data"]
            .clone();
        let resp = app
            .post(
                "/silo/v1/gobl/correct",
                &json!({"data": draft, "options": {"type": "credit-note"}}),
            )
            .await;
        assert_eq!(resp.status, 422, "{}", resp.text());
        assert!(resp.text().contains("without a code"), "{}", resp.text());

        // Spain allows corrective invoices
        let mut es = invoice();
        es["supplier"] =
            json!({"name": "Prov SL", "tax_id": {"country": "ES", "code": "B98602642"}});
        es["customer"] =
            json!({"name": "Cliente SL", "tax_id": {"country": "ES", "code": "54387763P"}});
        let es_env = app
            .post("/silo/v1/gobl/build", &json!({"data": es, "envelop": true}))
            .await
            .expect(200)["data"]
            .clone();
        let corrective = app
            .post(
                "/silo/v1/gobl/correct",
                &json!({"data": es_env, "options": {"type": "corrective"}}),
            )
            .await
            .expect(200);
        assert_eq!(
            corrective["data"]["doc"]["type"], "corrective",
            "{corrective}"
        );
    }
}
