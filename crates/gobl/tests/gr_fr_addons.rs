//! Greece (the EL regime and `gr-mydata-v1`) and `fr-choruspro-v1`: what normalisation adds
//! and which of the reference's rule ids a document lacking it gets.

use gobl::builder::{BuildOptions, build_with};
use serde_json::{Value, json};

/// The built envelope and the codes of its faults.
fn build(doc: Value) -> (Value, Vec<String>) {
    match build_with(doc, &BuildOptions::default()) {
        Ok(env) => (env, vec![]),
        Err(inv) => {
            let codes = inv.faults.0.iter().map(|f| f.code.clone()).collect();
            (inv.envelope, codes)
        }
    }
}

fn mydata_invoice() -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$addons": ["gr-mydata-v1"],
        "currency": "EUR", "issue_date": "2024-06-01", "series": "A", "code": "1",
        "supplier": {"name": "S", "tax_id": {"country": "GR", "code": "EL177472438"}},
        "customer": {"name": "C", "tax_id": {"country": "EL", "code": "841442160"},
                     "addresses": [{"locality": "Αθήνα", "code": "11636"}]},
        "lines": [{"quantity": "2", "item": {"name": "x", "price": "50.00"},
                   "taxes": [{"cat": "VAT", "rate": "standard+island"}]}],
        "payment": {"instructions": {"key": "credit-transfer+sepa"}}
    })
}

#[test]
fn mydata_invoice_is_complete_and_valid() {
    let (env, faults) = build(mydata_invoice());
    assert_eq!(faults, Vec::<String>::new());
    let doc = &env["doc"];
    assert_eq!(
        doc["supplier"]["tax_id"],
        json!({"country": "EL", "code": "177472438"})
    );
    let combo = &doc["lines"][0]["taxes"][0];
    assert_eq!(combo["percent"], "17%");
    assert_eq!(combo["ext"]["gr-mydata-vat-rate"], "4");
    assert_eq!(doc["tax"]["ext"]["gr-mydata-invoice-type"], "2.1");
    assert_eq!(
        doc["payment"]["instructions"]["ext"]["gr-mydata-payment-means"],
        "1"
    );
    // the Greek regime rounds each line to the currency
    assert_eq!(doc["totals"]["tax"], "17.00");
}

#[test]
fn mydata_rule_ids_name_what_is_missing() {
    let mut doc = mydata_invoice();
    doc["payment"]["instructions"]["key"] = json!("direct-debit");
    doc["lines"][0]["taxes"][0] = json!({"cat": "VAT", "percent": "24%"});
    doc.as_object_mut().unwrap().remove("series");
    let (_, faults) = build(doc);
    for code in [
        "GOBL-GR-MYDATA-PAY-INSTRUCTIONS-02",
        "GOBL-GR-MYDATA-TAX-COMBO-01",
        "GOBL-GR-MYDATA-BILL-INVOICE-01",
    ] {
        assert!(faults.iter().any(|f| f == code), "{code} in {faults:?}");
    }
}

#[test]
fn mydata_charges_take_their_tax_type() {
    let mut doc = mydata_invoice();
    doc["charges"] = json!([{"amount": "3.00", "reason": "fee", "ext": {"gr-mydata-fee": "18"}},
                            {"key": "tax", "amount": "1.00", "reason": "tax"}]);
    let (env, faults) = build(doc);
    assert_eq!(env["doc"]["charges"][0]["ext"]["gr-mydata-tax-type"], "2");
    assert_eq!(env["doc"]["charges"][1]["ext"]["gr-mydata-tax-type"], "3");
    // a tax charge must name its kind of tax
    assert_eq!(faults, ["GOBL-GR-MYDATA-BILL-CHARGE-03"]);
}

#[test]
fn greek_tax_id_check_digit() {
    let mut doc = mydata_invoice();
    doc["customer"]["tax_id"]["code"] = json!("841442161");
    let (_, faults) = build(doc);
    assert!(faults.iter().any(|f| f == "tax-id-code"), "{faults:?}");
}

fn choruspro_invoice() -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$addons": ["fr-choruspro-v1"],
        "currency": "EUR", "issue_date": "2024-06-01", "code": "1",
        "supplier": {"name": "S", "tax_id": {"country": "DE", "code": "111111125"},
                     "addresses": [{"locality": "Berlin", "country": "DE"}]},
        "customer": {"name": "C", "tax_id": {"country": "FR", "code": "39356000000"},
                     "identities": [{"type": "SIRET", "code": "35600000000048"}],
                     "addresses": [{"locality": "Paris", "country": "FR"}]},
        "lines": [{"quantity": "1.123456", "item": {"name": "x", "price": "10.00"},
                   "taxes": [{"cat": "VAT", "rate": "general"}]}],
        "payment": {"terms": {"key": "instant"}}
    })
}

#[test]
fn choruspro_defaults_framework_schemes_and_quantities() {
    let (env, faults) = build(choruspro_invoice());
    let doc = &env["doc"];
    assert_eq!(doc["tax"]["ext"]["fr-choruspro-framework"], "A1");
    assert_eq!(doc["supplier"]["ext"]["fr-choruspro-scheme"], "2");
    assert_eq!(doc["customer"]["ext"]["fr-choruspro-scheme"], "1");
    assert_eq!(doc["lines"][0]["quantity"], "1.1235");
    assert!(
        !faults.iter().any(|f| f.starts_with("GOBL-FR-CHORUSPRO")),
        "{faults:?}"
    );
}

#[test]
fn choruspro_rule_ids() {
    let mut doc = choruspro_invoice();
    doc["customer"]["identities"] = json!([]);
    doc["currency"] = json!("USD");
    let (_, faults) = build(doc);
    for code in [
        "GOBL-FR-CHORUSPRO-BILL-INVOICE-07",
        "GOBL-FR-CHORUSPRO-BILL-INVOICE-02",
        "GOBL-FR-CHORUSPRO-ORG-PARTY-01",
    ] {
        assert!(faults.iter().any(|f| f == code), "{code} in {faults:?}");
    }
}

#[test]
fn choruspro_checks_every_party() {
    let mut doc = choruspro_invoice();
    doc["lines"][0]["seller"] = json!({"name": "Seller"});
    let faults = build_with(doc, &BuildOptions::default())
        .unwrap_err()
        .faults
        .0;
    let fault = faults
        .iter()
        .find(|f| f.code == "GOBL-FR-CHORUSPRO-ORG-PARTY-01")
        .expect("a party without a scheme");
    assert_eq!(fault.paths, ["doc.lines[0].seller.ext"]);
}
