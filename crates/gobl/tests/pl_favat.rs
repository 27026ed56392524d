//! Poland and `pl-favat-v3` (KSeF FA(3)): the extensions the add-on fills in, the reference's
//! rule ids for what an invoice lacks, the corrections FA(3) and FA(2) allow, and every `pl`
//! example built to the reference's output.

use std::path::{Path, PathBuf};

use gobl::builder::{BuildOptions, build_with, parse_input};
use serde_json::{Value, json};

fn invoice(extra: Value) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": "PL",
        "$addons": ["pl-favat-v3"],
        "issue_date": "2026-02-01", "series": "FV", "code": "1",
        "supplier": {
            "name": "Dostawca Sp. z o.o.",
            "tax_id": {"country": "PL", "code": "9551893317"},
            "addresses": [{"street": "Prosta 1", "locality": "Warszawa", "country": "PL"}]
        },
        "customer": {"name": "Nabywca S.A.", "tax_id": {"country": "PL", "code": "5841896486"}},
        "lines": [
            {"quantity": "2", "item": {"name": "Usługa", "price": "100.00"},
             "taxes": [{"cat": "VAT", "key": "standard", "rate": "general"}]}
        ]
    });
    for (k, v) in extra.as_object().unwrap() {
        doc[k] = v.clone();
    }
    doc
}

/// The built envelope and the codes of its faults (with their first paths).
fn build(doc: Value) -> (Value, Vec<(String, String)>) {
    match build_with(doc, &BuildOptions::default()) {
        Ok(env) => (env, vec![]),
        Err(inv) => {
            let faults = inv.faults.0.iter();
            let codes = faults
                .map(|f| (f.code.clone(), f.paths.join(",")))
                .collect();
            (inv.envelope, codes)
        }
    }
}

fn fault_codes(doc: Value) -> Vec<String> {
    build(doc).1.into_iter().map(|(c, _)| c).collect()
}

#[test]
fn a_complete_invoice_validates_and_carries_its_codes() {
    let (env, faults) = build(invoice(json!({
        "$tags": ["self-billed"],
        "payment": {"instructions": {"key": "card+debit"}}
    })));
    assert!(faults.is_empty(), "{faults:?}");
    let doc = &env["doc"];
    assert_eq!(doc["tax"]["ext"]["pl-favat-invoice-type"], "VAT");
    assert_eq!(doc["tax"]["ext"]["pl-favat-self-billing"], "1");
    assert_eq!(
        doc["lines"][0]["taxes"][0]["ext"]["pl-favat-tax-category"],
        "1"
    );
    assert_eq!(doc["lines"][0]["taxes"][0]["percent"], "23.0%");
    let rate = &doc["totals"]["taxes"]["categories"][0]["rates"][0];
    assert_eq!(rate["ext"]["pl-favat-tax-category"], "1");
    assert_eq!(
        doc["payment"]["instructions"]["ext"]["pl-favat-payment-means"],
        "2"
    );
}

#[test]
fn rates_follow_the_issue_date() {
    let before = invoice(json!({"issue_date": "2010-12-31"}));
    let (env, _) = build(before);
    assert_eq!(env["doc"]["lines"][0]["taxes"][0]["percent"], "22.0%");
    assert_eq!(env["doc"]["totals"]["tax"], "44.00");
}

#[test]
fn a_combo_without_its_rate_category_is_the_combo_rule() {
    // Without a key at normalisation the reference sets no category (the key comes later).
    let lines = json!([{"quantity": "1", "item": {"name": "x", "price": "10.00"},
                        "taxes": [{"cat": "VAT", "rate": "general"}]}]);
    let (_, faults) = build(invoice(json!({ "lines": lines })));
    assert_eq!(
        faults,
        vec![(
            "GOBL-PL-FAVAT-TAX-COMBO-01".into(),
            "doc.lines[0].taxes[0].ext".into()
        )]
    );
}

#[test]
fn supplier_rules() {
    let no_tax_id = json!({"name": "S", "addresses": [{"street": "a", "country": "PL"}]});
    assert_eq!(
        build(invoice(json!({ "supplier": no_tax_id }))).1,
        [(
            "GOBL-PL-FAVAT-BILL-INVOICE-16".into(),
            "doc.supplier.tax_id".into()
        )]
    );
    let no_street = json!({"name": "S", "tax_id": {"country": "PL", "code": "9551893317"},
                           "addresses": [{"country": "PL"}]});
    assert_eq!(
        fault_codes(invoice(json!({ "supplier": no_street }))),
        ["GOBL-PL-FAVAT-BILL-INVOICE-08"]
    );
    let no_address = json!({"name": "S", "tax_id": {"country": "PL", "code": "9551893317"}});
    assert_eq!(
        fault_codes(invoice(json!({ "supplier": no_address }))),
        ["GOBL-PL-FAVAT-BILL-INVOICE-06"]
    );
}

#[test]
fn customer_rules() {
    let mut doc = invoice(json!({}));
    doc.as_object_mut().unwrap().remove("customer");
    assert_eq!(fault_codes(doc.clone()), ["GOBL-PL-FAVAT-BILL-INVOICE-09"]);
    doc["$tags"] = json!(["simplified"]);
    assert!(fault_codes(doc).is_empty());

    let jst = json!({"name": "Gmina", "ext": {"pl-favat-jst": "1"}});
    assert_eq!(
        fault_codes(invoice(json!({ "customer": jst }))),
        ["GOBL-PL-FAVAT-BILL-INVOICE-11"]
    );
    let jst_unit = json!({"name": "Gmina", "ext": {"pl-favat-jst": "1"},
        "identities": [{"code": "1234567890", "ext": {"pl-favat-third-party-role": "8"}}]});
    assert!(fault_codes(invoice(json!({ "customer": jst_unit }))).is_empty());
    let group = json!({"name": "GV", "ext": {"pl-favat-group-vat": "1"}});
    assert_eq!(
        fault_codes(invoice(json!({ "customer": group }))),
        ["GOBL-PL-FAVAT-BILL-INVOICE-12"]
    );
}

#[test]
fn currency_needs_a_rate_to_pln() {
    let eur = invoice(json!({"currency": "EUR"}));
    assert_eq!(fault_codes(eur), ["GOBL-PL-FAVAT-BILL-INVOICE-15"]);
    let rated = invoice(json!({"currency": "EUR",
        "exchange_rates": [{"from": "EUR", "to": "PLN", "amount": "4.30"}]}));
    assert!(fault_codes(rated).is_empty());
}

#[test]
fn exemption_needs_one_legal_note() {
    let lines = json!([{"quantity": "1", "item": {"name": "x", "price": "10.00"},
                        "taxes": [{"cat": "VAT", "key": "exempt"}]}]);
    let exempt = invoice(json!({"lines": lines, "tax": {"ext": {"pl-favat-exemption": "A"}}}));
    assert_eq!(
        fault_codes(exempt.clone()),
        ["GOBL-PL-FAVAT-BILL-INVOICE-13"]
    );
    let note = json!({"key": "legal", "src": "pl-favat-exemption", "code": "A", "text": "Art. 43"});
    let mut noted = exempt;
    noted["notes"] = json!([note]);
    assert!(fault_codes(noted.clone()).is_empty());
    noted["notes"] = json!([note, note]);
    assert_eq!(fault_codes(noted), ["GOBL-PL-FAVAT-BILL-INVOICE-14"]);
}

#[test]
fn preceding_and_advances() {
    let credit = invoice(json!({"type": "credit-note", "preceding": [{"code": "FV-1"}]}));
    assert_eq!(fault_codes(credit), ["GOBL-PL-FAVAT-BILL-INVOICE-02"]);
    let advance = json!({"advances": [{"key": "cash", "description": "a", "amount": "10.00"}]});
    let (env, faults) = build(invoice(json!({ "payment": advance })));
    assert_eq!(
        faults,
        vec![(
            "GOBL-PL-FAVAT-PAY-RECORD-01".into(),
            "doc.payment.advances[0].date".into()
        )]
    );
    let means = &env["doc"]["payment"]["advances"][0]["ext"]["pl-favat-payment-means"];
    assert_eq!(means, "1");
}

#[test]
fn a_bad_nip_is_a_fault() {
    let supplier = json!({"name": "S", "tax_id": {"country": "PL", "code": "PL 955-189-33.18"},
                          "addresses": [{"street": "a", "country": "PL"}]});
    let (_, faults) = build(invoice(json!({ "supplier": supplier })));
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0].1, "doc.supplier.tax_id.code");
}

#[test]
fn invoice_type_codes_by_type_and_tag() {
    let cases = [
        ("standard", None, "VAT"),
        ("standard", Some("partial"), "ZAL"),
        ("standard", Some("settlement"), "ROZ"),
        ("standard", Some("simplified"), "UPR"),
        ("credit-note", None, "KOR"),
        ("credit-note", Some("partial"), "KOR_ZAL"),
        ("credit-note", Some("settlement"), "KOR_ROZ"),
    ];
    for (kind, tag, code) in cases {
        let tags: Vec<&str> = tag.into_iter().collect();
        let (env, _) = build(invoice(json!({"type": kind, "$tags": tags})));
        assert_eq!(
            env["doc"]["tax"]["ext"]["pl-favat-invoice-type"], code,
            "{kind} {tag:?}"
        );
    }
    let (env, _) = build(invoice(json!({"$tags": ["reverse-charge"]})));
    assert_eq!(env["doc"]["tax"]["ext"]["pl-favat-reverse-charge"], "1");
    assert!(
        env["doc"]["tax"]["ext"]
            .get("pl-favat-self-billing")
            .is_none()
    );
}

/// The `pl` folders of the shared examples and of `GOBL_EXTRA_EXAMPLES`, where present.
fn example_dirs() -> Vec<PathBuf> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    let extra = std::env::var_os("GOBL_EXTRA_EXAMPLES").map(PathBuf::from);
    [Some(shared), extra]
        .into_iter()
        .flatten()
        .map(|d| d.join("pl"))
        .filter(|d| d.is_dir())
        .collect()
}

#[test]
fn every_pl_example_builds_to_the_reference_output() {
    for dir in example_dirs() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let input = entry.path();
            let stem = input.file_stem().unwrap().to_str().unwrap().to_string();
            let out = dir.join("out").join(format!("{stem}.json"));
            if !input.is_file() || !out.is_file() {
                continue;
            }
            let want: Value = serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
            let doc = parse_input(&std::fs::read_to_string(&input).unwrap()).unwrap();
            let opts = BuildOptions {
                uuid: Some(want["head"]["uuid"].as_str().unwrap().parse().unwrap()),
                ..BuildOptions::default()
            };
            let got = build_with(doc, &opts).map_err(|e| e.faults.to_string());
            let got = got.unwrap_or_else(|f| panic!("{stem}: {f}"));
            assert_eq!(got["doc"], want["doc"], "{stem}");
            assert_eq!(got["head"]["dig"], want["head"]["dig"], "{stem}");
        }
    }
}

fn correct(addon: &str, opts: Value) -> Result<Value, String> {
    let mut original = invoice(json!({"$addons": [addon]}));
    original["code"] = json!("FV-7");
    let opts: gobl::bill::correct::CorrectionOptions = serde_json::from_value(opts).unwrap();
    let doc = gobl::bill::correct::correct(
        gobl::json::Value::from(&original).as_object().unwrap(),
        &opts,
        "2026-03-01",
    );
    doc.map(|d| gobl::json::Value::Object(d).to_serde().unwrap())
        .map_err(|e| e.field.to_string())
}

#[test]
fn a_ksef_correction_is_a_credit_note_keeping_the_ksef_number() {
    let stamp = json!({"prv": "favat-ksef-number", "val": "9551893317-20260201-0A1B2C-D3"});
    let err = correct(
        "pl-favat-v3",
        json!({"type": "corrective", "stamps": [stamp]}),
    );
    assert_eq!(err.unwrap_err(), "type");
    let err = correct("pl-favat-v3", json!({"type": "credit-note"}));
    assert_eq!(err.unwrap_err(), "stamps");
    let doc = correct(
        "pl-favat-v3",
        json!({"type": "credit-note", "stamps": [stamp]}),
    )
    .unwrap();
    assert_eq!(doc["preceding"][0]["stamps"], json!([stamp]));
    assert_eq!(doc["preceding"][0]["code"], "FV-7");
}

#[test]
fn a_fa2_correction_needs_a_reason() {
    let stamp = json!({"prv": "favat-id", "val": "1"});
    let err = correct(
        "pl-favat-v2",
        json!({"type": "credit-note", "stamps": [stamp]}),
    );
    assert_eq!(err.unwrap_err(), "reason");
    let opts = json!({"type": "credit-note", "stamps": [stamp], "reason": "zwrot",
                      "ext": {"pl-favat-effective-date": "2"}});
    let doc = correct("pl-favat-v2", opts).unwrap();
    assert_eq!(doc["preceding"][0]["ext"]["pl-favat-effective-date"], "2");
}
