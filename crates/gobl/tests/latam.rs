//! The Latin American add-ons end to end: `ar-arca-v4` fills its codes and faults what it
//! cannot fill with the reference's rule ids; `co-dian-v2` likewise.

use gobl::builder::{BuildOptions, build_with};
use serde_json::{Value, json};

/// A goods invoice between two registered Argentine companies.
fn arca_invoice() -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$addons": ["ar-arca-v4"],
        "uuid": "3aea7b56-59d8-4beb-90bd-f8f280d852a0",
        "currency": "ARS",
        "issue_date": "2025-01-15",
        "series": "1",
        "code": "00000123",
        "supplier": {"name": "Proveedor S.A.", "tax_id": {"country": "AR", "code": "30-71234567-1"}},
        "customer": {"name": "Cliente S.R.L.", "tax_id": {"country": "AR", "code": "30987654321"}},
        "lines": [{
            "quantity": "2",
            "item": {"name": "Notebook", "price": "1000.00", "key": "goods"},
            "taxes": [{"cat": "VAT", "rate": "general"}],
        }],
    })
}

/// The built document and the codes of its faults.
fn build(doc: Value) -> (Value, Vec<String>) {
    match build_with(doc, &BuildOptions::default()) {
        Ok(env) => (env["doc"].clone(), vec![]),
        Err(inv) => {
            let codes = inv.faults.0.iter().map(|f| f.code.clone()).collect();
            (inv.envelope["doc"].clone(), codes)
        }
    }
}

#[test]
fn arca_fills_its_codes() {
    let (doc, faults) = build(arca_invoice());
    assert!(faults.is_empty(), "{faults:?}");
    assert_eq!(doc["supplier"]["tax_id"]["code"], "30712345671");
    assert_eq!(
        doc["tax"]["ext"],
        json!({"ar-arca-doc-type": "1", "ar-arca-concept": "1"})
    );
    assert_eq!(doc["customer"]["ext"]["ar-arca-vat-status"], "1");
    assert_eq!(doc["lines"][0]["taxes"][0]["ext"]["ar-arca-vat-rate"], "5");
}

#[test]
fn arca_document_class_follows_customer_and_tag() {
    let mut foreign = arca_invoice();
    foreign["customer"]["tax_id"] = json!({"country": "BR", "code": "11222333000181"});
    foreign["type"] = json!("credit-note");
    foreign["preceding"] =
        json!([{"code": "1", "issue_date": "2025-01-01", "ext": {"ar-arca-doc-type": "6"}}]);
    let (doc, faults) = build(foreign);
    assert!(faults.is_empty(), "{faults:?}");
    assert_eq!(doc["customer"]["ext"]["ar-arca-vat-status"], "9");
    assert_eq!(doc["tax"]["ext"]["ar-arca-doc-type"], "8");

    let mut monotax = arca_invoice();
    monotax["$tags"] = json!(["monotax"]);
    monotax["lines"][0]["item"]["key"] = json!("services");
    monotax["lines"][0].as_object_mut().unwrap().remove("taxes");
    let (doc, faults) = build(monotax);
    assert_eq!(doc["tax"]["ext"]["ar-arca-doc-type"], "11");
    assert_eq!(doc["tax"]["ext"]["ar-arca-concept"], "2");
    // Services need an ordering period and payment terms with due dates.
    for rule in ["15", "17"] {
        let code = format!("GOBL-AR-ARCA-BILL-INVOICE-{rule}");
        assert!(faults.contains(&code), "{faults:?} lacks {code}");
    }
}

#[test]
fn arca_faults_what_lacks_its_extension() {
    let mut doc = arca_invoice();
    doc["type"] = json!("credit-note");
    doc["preceding"] = json!([{"code": "1", "issue_date": "2025-01-01"}]);
    doc["charges"] = json!([{"key": "tax", "percent": "1%"}]);
    doc["lines"][0]["taxes"] = json!([{"cat": "VAT", "percent": "21%"}]);
    let (_, faults) = build(doc);
    for code in [
        "GOBL-AR-ARCA-BILL-INVOICE-22",
        "GOBL-AR-ARCA-BILL-CHARGE-01",
        "GOBL-AR-ARCA-TAX-COMBO-01",
    ] {
        assert!(faults.iter().any(|f| f == code), "{faults:?} lacks {code}");
    }
}

#[test]
fn arca_checks_series_and_class() {
    let mut doc = arca_invoice();
    doc["series"] = json!("A-1");
    doc["tax"] = json!({"ext": {"ar-arca-doc-type": "6"}});
    doc["currency"] = json!("USD");
    let (_, faults) = build(doc);
    for code in ["02", "14", "24"] {
        let code = format!("GOBL-AR-ARCA-BILL-INVOICE-{code}");
        assert!(faults.contains(&code), "{faults:?} lacks {code}");
    }
}

#[test]
fn argentine_supplier_needs_a_valid_cuit() {
    let mut doc = arca_invoice();
    doc["supplier"]["tax_id"]["code"] = json!("30712345672");
    let (_, faults) = build(doc);
    assert!(faults.contains(&"tax-id-code".to_string()), "{faults:?}");
    let mut doc = arca_invoice();
    doc["$regime"] = json!("AR");
    doc["supplier"].as_object_mut().unwrap().remove("tax_id");
    let (_, faults) = build(doc);
    assert!(
        faults.contains(&"GOBL-AR-BILL-INVOICE-01".to_string()),
        "{faults:?}"
    );
}

/// A Colombian credit note.
fn dian_credit_note() -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$addons": ["co-dian-v2"],
        "type": "credit-note",
        "series": "SETT",
        "code": "1235",
        "currency": "COP",
        "issue_date": "2021-01-02",
        "preceding": [{"code": "1234", "issue_date": "2021-01-01", "reason": "Refund"}],
        "supplier": {
            "name": "Supplier S.A.S.",
            "tax_id": {"country": "CO", "code": "901.451.481-2"},
            "ext": {"co-dian-municipality": "11001"},
        },
        "customer": {
            "name": "Customer S.A.S.",
            "tax_id": {"country": "CO", "code": "9014514805"},
            "ext": {"co-dian-municipality": "11001", "co-dian-fiscal-responsibility": "O-15"},
        },
        "lines": [{
            "quantity": "1",
            "item": {"name": "Service", "price": "200000.00"},
            "taxes": [{"cat": "VAT", "percent": "19%"}],
        }],
    })
}

#[test]
fn dian_defaults_fiscal_responsibility_and_needs_the_credit_code() {
    let (doc, faults) = build(dian_credit_note());
    assert_eq!(doc["supplier"]["tax_id"]["code"], "9014514812");
    assert_eq!(
        doc["supplier"]["ext"]["co-dian-fiscal-responsibility"],
        "R-99-PN"
    );
    assert_eq!(
        doc["customer"]["ext"]["co-dian-fiscal-responsibility"],
        "O-15"
    );
    assert_eq!(faults, ["GOBL-CO-DIAN-BILL-INVOICE-10"]);
    let mut fixed = dian_credit_note();
    fixed["preceding"][0]["ext"] = json!({"co-dian-credit-code": "1"});
    let (_, faults) = build(fixed);
    assert!(faults.is_empty(), "{faults:?}");
}

#[test]
fn dian_customer_needs_a_tax_id_unless_simplified() {
    let mut doc = dian_credit_note();
    doc["preceding"][0]["ext"] = json!({"co-dian-credit-code": "1"});
    doc["customer"] = json!({"name": "Consumer"});
    let (_, faults) = build(doc.clone());
    assert_eq!(faults, ["GOBL-CO-DIAN-BILL-INVOICE-05"]);
    doc["$tags"] = json!(["simplified"]);
    let (_, faults) = build(doc);
    assert!(faults.is_empty(), "{faults:?}");
}

#[test]
fn mexican_rfc_keeps_an_mx_of_its_own() {
    let doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "issue_date": "2023-07-10",
        "code": "1",
        "supplier": {"name": "A", "tax_id": {"country": "MX", "code": "mx-mxi-701231-23z"},
            "addresses": [{"code": "21000"}]},
        "customer": {"name": "B", "tax_id": {"country": "MX", "code": "K&A010301I16"}},
        "lines": [{"quantity": "1", "item": {"name": "X", "price": "10.00"},
            "taxes": [{"cat": "VAT", "rate": "general"}]}],
    });
    let (doc, faults) = build(doc);
    assert!(faults.is_empty(), "{faults:?}");
    assert_eq!(doc["supplier"]["tax_id"]["code"], "MXI70123123Z");
    assert_eq!(doc["tax"]["ext"]["mx-cfdi-issue-place"], "21000");
    assert_eq!(doc["totals"]["tax"], "1.60");
}

#[test]
fn arca_correction_keeps_the_original_codes_and_takes_the_new_type() {
    let (original, faults) = build(arca_invoice());
    assert!(faults.is_empty(), "{faults:?}");
    let opts: gobl::bill::correct::CorrectionOptions = serde_json::from_value(json!({
        "type": "credit-note",
        "reason": "Devolución",
        "ext": {"ar-arca-doc-type": "3"},
    }))
    .unwrap();
    let credit = gobl::bill::correct::correct(
        gobl::json::Value::from(&original).as_object().unwrap(),
        &opts,
        "2025-02-01",
    )
    .unwrap();
    let (doc, faults) = build(gobl::json::Value::Object(credit).to_serde().unwrap());
    assert!(faults.is_empty(), "{faults:?}");
    assert_eq!(doc["tax"]["ext"]["ar-arca-doc-type"], "3");
    assert_eq!(
        doc["preceding"][0]["ext"],
        json!({"ar-arca-doc-type": "1", "ar-arca-concept": "1"})
    );
}
