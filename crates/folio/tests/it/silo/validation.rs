//! Bare documents are built (normalised, calculated, validated) before they are stored: faults
//! refuse them unless `allow_invalid` is sent, and then they are recorded on the resource.

use gobl::envelope::Envelope;
use reqwest::Method;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{rows, send_as};
use crate::harness::TestApp;

/// A small Spanish invoice: 20 h at 90.00 with standard VAT (21 %).
fn invoice(supplier_tax_code: &str) -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "currency": "EUR",
        "issue_date": "2024-03-01",
        "series": "T",
        "code": "0001",
        "supplier": {"tax_id": {"country": "ES", "code": supplier_tax_code}, "name": "Provide One S.L."},
        "customer": {"tax_id": {"country": "ES", "code": "54387763P"}, "name": "Sample Consumer"},
        "lines": [{
            "quantity": "20",
            "item": {"name": "Development services", "price": "90.00"},
            "taxes": [{"cat": "VAT", "rate": "standard"}]
        }]
    })
}

/// A supplier tax id whose check letter is wrong.
const BAD_TAX_ID: &str = "B12345675";

#[derive(Deserialize)]
struct WithData {
    data: Box<RawValue>,
}

/// The stored envelope of a resource fetched by id, with its digest checked.
fn stored_envelope(resp_body: &[u8]) -> Envelope {
    let got: WithData = serde_json::from_slice(resp_body).unwrap();
    let env = Envelope::from_json(got.data.get()).unwrap();
    env.verify_digest().unwrap();
    env
}

/// The faults name the supplier's tax id code, relative to the envelope.
#[track_caller]
fn assert_tax_id_fault(faults: &Value) {
    let faults = faults
        .as_array()
        .unwrap_or_else(|| panic!("no faults: {faults}"));
    assert!(!faults.is_empty());
    for f in faults {
        assert_eq!(f["provider"], "gobl", "{f}");
        assert!(f["code"].as_str().is_some_and(|c| !c.is_empty()), "{f}");
        assert!(f["message"].is_string(), "{f}");
    }
    assert!(
        faults
            .iter()
            .any(|f| f["paths"].as_array().into_iter().flatten().any(|p| p
                .as_str()
                .is_some_and(|p| p.starts_with("doc.supplier.tax_id")))),
        "no fault names doc.supplier.tax_id: {faults:?}"
    );
}

#[tokio::test]
async fn a_valid_bare_invoice_is_stored_calculated_with_a_correct_digest() {
    for app in TestApp::backends().await {
        let id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}");
        let out = app
            .put(&uri, &json!({"data": invoice("B98602642")}))
            .await
            .expect(200);
        assert!(out.get("faults").is_none(), "{out}");
        let totals = &out["data"]["doc"]["totals"];
        assert_eq!(totals["sum"], "1800.00", "{out}");
        assert_eq!(totals["tax"], "378.00");
        assert_eq!(totals["payable"], "2178.00");
        let got = app.get(&uri).await;
        got.expect(200);
        let env = stored_envelope(&got.body);
        assert_eq!(env.head.uuid, id);
        assert_eq!(out["digest"]["val"], env.head.dig.val);
        assert!(got.json().get("faults").is_none());
        app.stop().await;
    }
}

/// Numbers are read as serde_json reads them (`1e2` is `100.0`) before a bare document is
/// built; a text whose numbers are all plain integers skips that rewriting, one with any other
/// number must not (an amount written `1e2` is not an amount until it is rewritten).
#[tokio::test]
async fn a_bare_invoice_with_number_literals_is_built_as_serde_json_reads_them() {
    let app = TestApp::sqlite().await;
    let text = invoice("B98602642")
        .to_string()
        .replace(r#""quantity":"20""#, r#""quantity":20"#)
        .replace(r#""price":"90.00""#, r#""price":1e2"#);
    assert!(
        text.contains("1e2") && text.contains(r#""quantity":20"#),
        "{text}"
    );
    let body = format!(r#"{{"data":{text}}}"#).into_bytes();
    let out = app
        .raw(
            Method::PUT,
            &format!("/silo/v1/envelopes/{}", Uuid::new_v4()),
            body,
        )
        .await
        .expect(200);
    let line = &out["data"]["doc"]["lines"][0];
    assert_eq!(line["quantity"], "20", "{out}");
    assert_eq!(line["item"]["price"], "100.00", "{out}");
    assert_eq!(out["data"]["doc"]["totals"]["sum"], "2000.00", "{out}");
    app.stop().await;
}

#[tokio::test]
async fn an_invalid_bare_invoice_is_refused_with_faults_and_nothing_is_stored() {
    for app in TestApp::backends().await {
        let id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}");
        for allow_invalid in [json!(false), Value::Null] {
            let mut body = json!({"data": invoice(BAD_TAX_ID), "key": "INV-BAD"});
            if !allow_invalid.is_null() {
                body["allow_invalid"] = allow_invalid;
            }
            let err = app.put(&uri, &body).await.expect(422);
            assert_eq!(err["key"], "validation");
            assert_tax_id_fault(&err["faults"]);
        }
        let err = app
            .post("/silo/v1/envelopes", &json!({"data": invoice(BAD_TAX_ID)}))
            .await
            .expect(422);
        assert_tax_id_fault(&err["faults"]);
        app.get(&uri).await.expect(404);
        app.get("/silo/v1/envelopes/key/INV-BAD").await.expect(404);
        assert_eq!(rows(&app, "silo_envelopes").await, 0);
        assert_eq!(rows(&app, "silo_versions").await, 0);
        app.stop().await;
    }
}

#[tokio::test]
async fn allow_invalid_stores_it_and_records_the_faults() {
    for app in TestApp::backends().await {
        let id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}");
        let body = json!({"data": invoice(BAD_TAX_ID), "allow_invalid": true, "key": "INV-BAD"});
        let out = app.put(&uri, &body).await.expect(200);
        assert_tax_id_fault(&out["faults"]);
        // Still calculated, with a digest of what is stored.
        assert_eq!(out["data"]["doc"]["totals"]["payable"], "2178.00");
        let got = app.get(&uri).await;
        let fetched = got.expect(200);
        let env = stored_envelope(&got.body);
        assert_eq!(out["digest"]["val"], env.head.dig.val);
        assert_eq!(fetched["faults"], out["faults"]);
        let by_key = app.get("/silo/v1/envelopes/key/INV-BAD").await.expect(200);
        assert_eq!(by_key["faults"], out["faults"]);
        let list = app.get("/silo/v1/envelopes").await.expect(200);
        assert_eq!(list["list"][0]["faults"], out["faults"]);
        // The same request again: the stored envelope, not a second one.
        let again = app.put(&uri, &body).await.expect(200);
        assert_eq!(again["version"], out["version"]);
        assert_eq!(again["created_at"], out["created_at"]);
        assert_eq!(again["faults"], out["faults"]);
        assert_eq!(rows(&app, "silo_envelopes").await, 1);
        assert_eq!(rows(&app, "silo_versions").await, 1);
        // Labels only: the faults stay with the document.
        let patched = app
            .patch(&uri, &json!({"folder": "review"}))
            .await
            .expect(200);
        assert_eq!(patched["faults"], out["faults"]);
        // A corrected document replaces them; none are shown.
        let fixed = app
            .patch(&uri, &json!({"data": invoice("B98602642")}))
            .await
            .expect(200);
        assert!(fixed.get("faults").is_none(), "{fixed}");
        assert!(app.get(&uri).await.expect(200).get("faults").is_none());
        app.stop().await;
    }
}

#[tokio::test]
async fn a_valid_bare_invoice_is_idempotent() {
    for app in TestApp::backends().await {
        let id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}");
        let body = json!({"data": invoice("B98602642"), "key": "INV-1"});
        let first = app.put(&uri, &body).await.expect(200);
        let again = app.put(&uri, &body).await.expect(200);
        assert_eq!(again["version"], first["version"]);
        assert_eq!(again["digest"], first["digest"]);
        // allow_invalid does not make it another request.
        let mut allowing = body.clone();
        allowing["allow_invalid"] = json!(true);
        let third = app.put(&uri, &allowing).await.expect(200);
        assert_eq!(third["version"], first["version"]);
        assert_eq!(rows(&app, "silo_envelopes").await, 1);
        app.stop().await;
    }
}

#[tokio::test]
async fn a_full_envelope_is_not_rebuilt_and_a_calculation_error_is_always_refused() {
    for app in TestApp::backends().await {
        // Stored despite faults, then sent again whole to another workspace: a full envelope
        // keeps its text and digest and is not validated again, so it records no faults.
        let id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}");
        app.put(
            &uri,
            &json!({"data": invoice(BAD_TAX_ID), "allow_invalid": true}),
        )
        .await
        .expect(200);
        let got = app.get(&uri).await;
        got.expect(200);
        let data: WithData = serde_json::from_slice(&got.body).unwrap();
        let token = app.other_workspace("whole").await;
        let body = format!(r#"{{"data": {}}}"#, data.data.get());
        let resp = send_as(&app, &token, Method::PUT, &uri, Some(body)).await;
        let out = resp.expect(200);
        assert!(out.get("faults").is_none(), "{out}");
        let fetched = send_as(&app, &token, Method::GET, &uri, None).await;
        let fetched: WithData = serde_json::from_slice(&fetched.body).unwrap();
        assert_eq!(fetched.data.get(), data.data.get());

        // A document that cannot be calculated is refused even with allow_invalid.
        let mut broken = invoice("B98602642");
        broken["$tags"] = json!(["no-such-tag"]);
        let other = Uuid::new_v4();
        let err = app
            .put(
                &format!("/silo/v1/envelopes/{other}"),
                &json!({"data": broken, "allow_invalid": true}),
            )
            .await
            .expect(422);
        assert_eq!(err["key"], "validation");
        assert!(
            err["faults"].as_array().is_some_and(|f| !f.is_empty()),
            "{err}"
        );
        app.get(&format!("/silo/v1/envelopes/{other}"))
            .await
            .expect(404);
        app.stop().await;
    }
}

#[tokio::test]
async fn an_unknown_regime_or_addon_is_a_422_naming_it() {
    for app in TestApp::backends().await {
        for (member, value, path) in [
            ("$regime", json!("XX"), "doc.$regime"),
            ("$addons", json!(["xx-nothing-v1"]), "doc.$addons[0]"),
        ] {
            let mut doc = invoice("B98602642");
            doc[member] = value;
            let uri = format!("/silo/v1/envelopes/{}", Uuid::new_v4());
            let err = app.put(&uri, &json!({ "data": doc })).await.expect(422);
            assert_eq!(err["key"], "validation", "{err}");
            let fault = err["faults"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|f| f["paths"][0] == path)
                .unwrap_or_else(|| panic!("no fault at {path}: {err}"));
            let named = if member == "$regime" {
                "'XX'"
            } else {
                "'xx-nothing-v1'"
            };
            assert!(
                fault["message"].as_str().unwrap().contains(named),
                "{fault}"
            );
        }
        assert_eq!(rows(&app, "silo_envelopes").await, 0);
        app.stop().await;
    }
}

/// The reference's Italian, Polish and Greek examples stored over HTTP: the stored document
/// is the reference's, digest included.
#[tokio::test]
async fn italian_polish_and_greek_examples_store_as_the_reference_builds_them() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    for app in TestApp::backends().await {
        for (input, output) in [
            ("it/b2b-deffered.json", "it/out/b2b-deffered.json"),
            (
                "pl/invoice-simplified.json",
                "pl/out/invoice-simplified.json",
            ),
            ("gr/invoice-el-el.yaml", "gr/out/invoice-el-el.json"),
        ] {
            let text = std::fs::read_to_string(dir.join(input)).unwrap();
            let mut data = gobl::builder::parse_input(&text).unwrap();
            // The examples are bare documents or envelopes whose head is still to be built.
            if let Some(doc) = data.get("doc").cloned() {
                data = doc;
            }
            let reference: Value =
                serde_json::from_str(&std::fs::read_to_string(dir.join(output)).unwrap()).unwrap();
            let uri = format!("/silo/v1/envelopes/{}", Uuid::new_v4());
            let out = app.put(&uri, &json!({ "data": data })).await.expect(200);
            assert_eq!(out["data"]["doc"], reference["doc"], "{input}");
            assert_eq!(out["digest"], reference["head"]["dig"], "{input}");
        }
        app.stop().await;
    }
}

/// An add-on's rules refuse what it requires and name the rule: an Italian SDI invoice whose
/// supplier has no address breaks `GOBL-IT-SDI-BILL-INVOICE-04`.
#[tokio::test]
async fn an_addon_rule_is_a_422_with_its_rule_id() {
    for app in TestApp::backends().await {
        let doc = json!({
            "$schema": "https://gobl.org/draft-0/bill/invoice",
            "$addons": ["it-sdi-v1"],
            "currency": "EUR", "issue_date": "2024-03-01", "code": "1",
            "supplier": {"name": "Fornitore S.r.l.", "tax_id": {"country": "IT", "code": "12345678903"}},
            "customer": {"name": "Cliente S.p.A.", "tax_id": {"country": "IT", "code": "13029381004"}},
            "lines": [{"quantity": "1", "item": {"name": "Servizi", "price": "100.00"},
                       "taxes": [{"cat": "VAT", "rate": "general"}]}]
        });
        let uri = format!("/silo/v1/envelopes/{}", Uuid::new_v4());
        let err = app.put(&uri, &json!({ "data": doc })).await.expect(422);
        let fault = err["faults"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|f| f["code"] == "GOBL-IT-SDI-BILL-INVOICE-04")
            .unwrap_or_else(|| panic!("no GOBL-IT-SDI-BILL-INVOICE-04: {err}"));
        assert_eq!(fault["paths"][0], "doc.supplier.addresses", "{fault}");
        app.stop().await;
    }
}
