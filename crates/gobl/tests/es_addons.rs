//! Spanish add-ons (es-verifactu-v1, es-sii-v1) and the ES regime's own rules.

use std::path::Path;

use gobl::builder::{BuildOptions, build_with, parse_input};
use serde_json::{Value, json};

mod common;
use common::diff;

/// A Spanish invoice under `addon`, with one line of `taxes`.
fn invoice(addon: &str, taxes: Value) -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$addons": [addon],
        "series": "S", "code": "1",
        "issue_date": "2025-01-10",
        "supplier": {"name": "Provide One S.L.", "tax_id": {"country": "ES", "code": "B98602642"}},
        "customer": {"name": "Sample Consumer", "tax_id": {"country": "ES", "code": "54387763P"}},
        "lines": [{"quantity": "1", "item": {"name": "Thing", "price": "100.00"}, "taxes": taxes}]
    })
}

fn vat(extra: Value) -> Value {
    let mut c = json!({"cat": "VAT", "rate": "general"});
    for (k, v) in extra.as_object().unwrap() {
        c[k] = v.clone();
    }
    json!([c])
}

/// The calculated document (validation skipped).
fn build(doc: Value) -> Value {
    let opts = BuildOptions {
        uuid: None,
        skip_validation: true,
    };
    let env = build_with(doc, &opts).unwrap_or_else(|e| panic!("{}", e.faults));
    env["doc"].clone()
}

/// The fault codes of a calculated document.
fn codes(doc: &Value) -> Vec<String> {
    let faults =
        gobl::validate::validate_document(gobl::json::Value::from(doc).as_object().unwrap());
    faults.0.into_iter().map(|f| f.code).collect()
}

fn with(mut doc: Value, k: &str, v: Value) -> Value {
    doc[k] = v;
    doc
}

#[test]
fn scenarios_set_the_verifactu_doc_type_by_type_and_tags() {
    let cases = [
        ("standard", json!([]), "F1"),
        ("standard", json!(["simplified"]), "F2"),
        ("standard", json!(["replacement"]), "F3"),
        ("credit-note", json!([]), "R1"),
        ("credit-note", json!(["simplified"]), "R5"),
        ("corrective", json!(["simplified"]), "R5"),
    ];
    for (kind, tags, want) in cases {
        let doc = with(
            invoice("es-verifactu-v1", vat(json!({}))),
            "type",
            json!(kind),
        );
        let doc = build(with(doc, "$tags", tags.clone()));
        let ext = &doc["tax"]["ext"];
        assert_eq!(ext["es-verifactu-doc-type"], want, "{kind} {tags}");
    }
}

#[test]
fn scenarios_set_the_sii_doc_type_by_type_and_tags() {
    for (tags, want) in [(json!([]), "F1"), (json!(["simplified"]), "F2")] {
        let doc = build(with(invoice("es-sii-v1", vat(json!({}))), "$tags", tags));
        assert_eq!(doc["tax"]["ext"]["es-sii-doc-type"], want);
    }
}

#[test]
fn corrections_carry_their_correction_type() {
    for (kind, want) in [
        ("credit-note", "I"),
        ("debit-note", "I"),
        ("corrective", "S"),
    ] {
        let doc = build(with(
            invoice("es-verifactu-v1", vat(json!({}))),
            "type",
            json!(kind),
        ));
        assert_eq!(
            doc["tax"]["ext"]["es-verifactu-correction-type"], want,
            "{kind}"
        );
        let doc = build(with(
            invoice("es-sii-v1", vat(json!({}))),
            "type",
            json!(kind),
        ));
        assert_eq!(doc["tax"]["ext"]["es-sii-correction-type"], want, "{kind}");
    }
    // A document type given by the user among R2–R5 stays.
    let doc = with(
        invoice("es-verifactu-v1", vat(json!({}))),
        "type",
        json!("credit-note"),
    );
    let doc = build(with(
        doc,
        "tax",
        json!({"ext": {"es-verifactu-doc-type": "R4"}}),
    ));
    assert_eq!(doc["tax"]["ext"]["es-verifactu-doc-type"], "R4");
}

#[test]
fn verifactu_combo_extensions_follow_the_key() {
    let cases = [
        (json!({}), Some("S1"), None, "01"),
        (
            json!({"key": "reverse-charge", "rate": null}),
            Some("S2"),
            None,
            "01",
        ),
        (
            json!({"key": "exempt", "rate": null}),
            None,
            Some("E1"),
            "01",
        ),
        (
            json!({"key": "exempt", "rate": null, "ext": {"es-verifactu-exempt": "E6"}}),
            None,
            Some("E6"),
            "01",
        ),
        (
            json!({"key": "export", "rate": null}),
            None,
            Some("E2"),
            "02",
        ),
        (
            json!({"key": "intra-community", "rate": null}),
            None,
            Some("E5"),
            "01",
        ),
        (
            json!({"key": "outside-scope", "rate": null}),
            Some("N2"),
            None,
            "01",
        ),
        (
            json!({"country": "FR", "rate": null, "percent": "20%"}),
            Some("N2"),
            None,
            "01",
        ),
        // A legacy extension without a key gives the key.
        (
            json!({"rate": null, "ext": {"es-verifactu-exempt": "E5"}}),
            None,
            Some("E5"),
            "01",
        ),
    ];
    for (extra, op, exempt, regime) in cases {
        let doc = build(invoice("es-verifactu-v1", vat(extra.clone())));
        let ext = &doc["lines"][0]["taxes"][0]["ext"];
        assert_eq!(ext["es-verifactu-op-class"].as_str(), op, "{extra}");
        assert_eq!(ext["es-verifactu-exempt"].as_str(), exempt, "{extra}");
        assert_eq!(ext["es-verifactu-regime"], regime, "{extra}");
        assert!(codes(&doc).is_empty(), "{extra}: {:?}", codes(&doc));
    }
    let legacy = build(invoice(
        "es-verifactu-v1",
        vat(json!({"rate": null, "ext": {"es-verifactu-exempt": "E5"}})),
    ));
    assert_eq!(legacy["lines"][0]["taxes"][0]["key"], "intra-community");
}

#[test]
fn sii_combo_extensions_follow_the_key_and_the_item() {
    let mut doc = invoice("es-sii-v1", vat(json!({})));
    doc["lines"][0]["item"]["key"] = json!("goods");
    let doc = build(doc);
    let ext = &doc["lines"][0]["taxes"][0]["ext"];
    assert_eq!(ext["es-sii-product"], "goods");
    assert_eq!(ext["es-sii-regime"], "01");
    let doc = build(invoice(
        "es-sii-v1",
        vat(json!({"key": "outside-scope", "rate": null})),
    ));
    assert_eq!(
        doc["lines"][0]["taxes"][0]["ext"]["es-sii-outside-scope"],
        "location"
    );
    let doc = build(invoice(
        "es-sii-v1",
        vat(json!({"key": "export", "rate": null})),
    ));
    let ext = &doc["lines"][0]["taxes"][0]["ext"];
    assert_eq!(
        (ext["es-sii-exempt"].as_str(), ext["es-sii-regime"].as_str()),
        (Some("E2"), Some("02"))
    );
    assert!(codes(&doc).is_empty(), "{:?}", codes(&doc));
}

#[test]
fn foreign_customers_and_issuers_are_typed() {
    let mut doc = invoice("es-verifactu-v1", vat(json!({})));
    doc["customer"] = json!({"name": "Tourist", "identities": [{"key": "passport", "code": "X1", "country": "GB"}]});
    doc["$tags"] = json!(["self-billed"]);
    let doc = build(doc);
    assert_eq!(
        doc["customer"]["identities"][0]["ext"]["es-verifactu-identity-type"],
        "03"
    );
    assert_eq!(doc["tax"]["ext"]["es-verifactu-issuer-type"], "D");
    assert!(codes(&doc).is_empty(), "{:?}", codes(&doc));
}

#[test]
fn a_verifactu_invoice_lacking_its_doc_type_breaks_the_rule() {
    let mut doc = build(invoice("es-verifactu-v1", vat(json!({}))));
    assert!(codes(&doc).is_empty(), "{:?}", codes(&doc));
    doc["tax"]["ext"]
        .as_object_mut()
        .unwrap()
        .remove("es-verifactu-doc-type");
    assert!(codes(&doc).contains(&"GOBL-ES-VERIFACTU-BILL-INVOICE-10".to_string()));
    doc["tax"]["ext"]["es-verifactu-doc-type"] = json!("R1");
    assert!(codes(&doc).contains(&"GOBL-ES-VERIFACTU-BILL-INVOICE-11".to_string()));
    assert!(codes(&doc).contains(&"GOBL-ES-VERIFACTU-BILL-INVOICE-13".to_string()));
}

#[test]
fn a_verifactu_combo_lacking_its_regime_breaks_the_rule() {
    let mut doc = build(invoice("es-verifactu-v1", vat(json!({}))));
    let ext = doc["lines"][0]["taxes"][0]["ext"].as_object_mut().unwrap();
    ext.remove("es-verifactu-regime");
    ext.remove("es-verifactu-op-class");
    let c = codes(&doc);
    assert!(
        c.contains(&"GOBL-ES-VERIFACTU-TAX-COMBO-01".to_string()),
        "{c:?}"
    );
    assert!(
        c.contains(&"GOBL-ES-VERIFACTU-TAX-COMBO-04".to_string()),
        "{c:?}"
    );
}

#[test]
fn verifactu_customers_are_checked_by_doc_type() {
    let mut doc = invoice("es-verifactu-v1", vat(json!({})));
    doc.as_object_mut().unwrap().remove("customer");
    assert!(codes(&build(doc)).contains(&"GOBL-ES-VERIFACTU-BILL-INVOICE-06".to_string()));
    let doc = with(
        invoice("es-verifactu-v1", vat(json!({}))),
        "$tags",
        json!(["simplified"]),
    );
    assert!(codes(&build(doc)).contains(&"GOBL-ES-VERIFACTU-BILL-INVOICE-04".to_string()));
    let irpf_only = json!([{"cat": "IRPF", "rate": "pro"}]);
    let doc = build(invoice("es-verifactu-v1", irpf_only));
    assert!(codes(&doc).contains(&"GOBL-ES-VERIFACTU-BILL-INVOICE-15".to_string()));
}

#[test]
fn sii_rules_give_the_reference_ids() {
    let mut doc = build(invoice("es-sii-v1", vat(json!({}))));
    assert!(codes(&doc).is_empty(), "{:?}", codes(&doc));
    doc["tax"]["ext"]
        .as_object_mut()
        .unwrap()
        .remove("es-sii-doc-type");
    assert!(codes(&doc).contains(&"GOBL-ES-SII-BILL-INVOICE-08".to_string()));
    let mut doc = invoice("es-sii-v1", vat(json!({})));
    doc["currency"] = json!("USD");
    let c = codes(&build(doc));
    assert!(
        c.contains(&"GOBL-ES-SII-BILL-INVOICE-15".to_string()),
        "{c:?}"
    );
    let doc = with(
        invoice("es-sii-v1", vat(json!({}))),
        "type",
        json!("corrective"),
    );
    assert!(codes(&build(doc)).contains(&"GOBL-ES-SII-BILL-INVOICE-01".to_string()));
}

#[test]
fn preceding_tax_totals_are_calculated() {
    let mut doc = with(
        invoice("es-verifactu-v1", vat(json!({}))),
        "type",
        json!("corrective"),
    );
    doc["preceding"] = json!([{"code": "0", "issue_date": "2025-01-01",
        "tax": {"categories": [{"code": "VAT", "rates": [{"base": "10000", "percent": "21.0%"}]}]}}]);
    let doc = build(doc);
    let tax = &doc["preceding"][0]["tax"];
    assert_eq!(tax["categories"][0]["rates"][0]["base"], "10000.00");
    assert_eq!(tax["categories"][0]["rates"][0]["amount"], "2100.00");
    assert_eq!(tax["sum"], "2100.00");
    assert!(codes(&doc).is_empty(), "{:?}", codes(&doc));
}

/// Prints the differences of every Spanish VERI*FACTU / SII example under `ES_EXAMPLES`
/// (a folder laid out like the reference's `examples/es`): a tool for development.
#[test]
#[ignore]
fn es_example_differences() {
    let Some(dir) = std::env::var_os("ES_EXAMPLES") else {
        return;
    };
    let dir = Path::new(&dir);
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    names.sort();
    for input in names {
        let stem = input.file_stem().unwrap().to_str().unwrap().to_string();
        let out = dir.join("out").join(format!("{stem}.json"));
        if !out.is_file() || !stem.starts_with("invoice-es") {
            continue;
        }
        let want: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        let parsed = parse_input(&std::fs::read_to_string(&input).unwrap()).unwrap();
        let opts = BuildOptions {
            uuid: Some("8a51fd30-2a27-11ee-be56-0242ac120002".parse().unwrap()),
            skip_validation: false,
        };
        let got = match build_with(parsed, &opts) {
            Ok(v) => v,
            Err(e) => {
                println!("{stem}: FAULTS {}", e.faults);
                if e.envelope.is_null() {
                    continue;
                }
                e.envelope
            }
        };
        let mut problems = Vec::new();
        diff("", &want, &got, &mut problems);
        println!(
            "{stem}: {}",
            if problems.is_empty() { "ok" } else { "DIFF" }
        );
        for p in problems.iter().take(12) {
            println!("    {p}");
        }
    }
}

#[test]
fn a_correction_takes_its_doc_type_from_the_options() {
    use gobl::bill::correct::{CorrectionOptions, correct};
    let original = build(invoice("es-verifactu-v1", vat(json!({}))));
    let opts: CorrectionOptions = serde_json::from_value(json!({
        "type": "credit-note", "ext": {"es-verifactu-doc-type": "R4"}, "copy_tax": true
    }))
    .unwrap();
    let doc = correct(
        gobl::json::Value::from(original).as_object().unwrap(),
        &opts,
        "2025-02-01",
    )
    .unwrap();
    assert_eq!(doc["tax"]["ext"]["es-verifactu-doc-type"], "R4");
    assert!(doc["preceding"][0].get("ext").is_none());
    let mut doc = gobl::json::Value::Object(doc).to_serde().unwrap();
    doc["code"] = json!("2");
    let doc = build(doc);
    assert_eq!(doc["tax"]["ext"]["es-verifactu-doc-type"], "R4");
    assert_eq!(doc["tax"]["ext"]["es-verifactu-correction-type"], "I");
    assert!(codes(&doc).is_empty(), "{:?}", codes(&doc));
}

#[test]
fn a_simplified_invoice_names_no_customer_identity() {
    let mut doc = invoice("es-verifactu-v1", vat(json!({})));
    doc["$tags"] = json!(["simplified"]);
    doc["customer"] =
        json!({"name": "Tourist", "identities": [{"key": "passport", "code": "AA1"}]});
    let c = codes(&build(doc));
    assert!(
        c.contains(&"GOBL-ES-VERIFACTU-BILL-INVOICE-05".to_string()),
        "{c:?}"
    );
    // A customer identified by another type must say its country.
    let mut doc = invoice("es-verifactu-v1", vat(json!({})));
    doc["customer"] =
        json!({"name": "Tourist", "identities": [{"key": "passport", "code": "AA1"}]});
    let c = codes(&build(doc));
    assert_eq!(c, ["GOBL-ES-VERIFACTU-BILL-INVOICE-17"]);
}
