//! The EN 16931 add-on family: the reference examples that list `de-xrechnung-v3` and
//! `fr-facturx-v1` build to the reference output, digest included, and the codes come from
//! the document's own keys.

use std::path::Path;

use gobl::builder::{BuildOptions, build_with, parse_input};
use serde_json::{Value, json};

const FIXED_UUID: &str = "8a51fd30-2a27-11ee-be56-0242ac120002";

fn build_example(name: &str) -> (Value, Value) {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    let input = parse_input(&std::fs::read_to_string(base.join(name)).unwrap()).unwrap();
    let (dir, file) = name.split_once('/').unwrap();
    let stem = file.rsplit_once('.').unwrap().0;
    let out = base.join(dir).join("out").join(format!("{stem}.json"));
    let want: Value = serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    // the reference's head uuid, so the digests can be compared
    let uuid = want["head"]["uuid"].as_str().unwrap_or(FIXED_UUID);
    let opts = BuildOptions {
        uuid: Some(uuid.parse().unwrap()),
        ..BuildOptions::default()
    };
    (
        build_with(input, &opts).map_err(|e| e.faults).unwrap(),
        want,
    )
}

#[test]
fn xrechnung_and_facturx_examples_build_to_the_reference() {
    for name in ["de/invoice-de-es-xr.yaml", "fr/invoice-fr-fr-facturx.yaml"] {
        let (got, want) = build_example(name);
        assert_eq!(got["doc"], want["doc"], "{name}");
        assert_eq!(got["head"]["dig"], want["head"]["dig"], "{name}");
    }
}

fn invoice(extra: Value) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": "DE",
        "$addons": ["de-xrechnung-v3"],
        "currency": "EUR", "issue_date": "2026-01-15", "code": "1",
        "supplier": {"name": "S GmbH", "tax_id": {"country": "DE", "code": "111111125"}},
        "customer": {"name": "B GmbH", "tax_id": {"country": "DE", "code": "282741168"}},
        "lines": [
            {"quantity": "1", "item": {"name": "a", "price": "10.00"},
             "taxes": [{"cat": "VAT", "rate": "standard"}]},
            {"quantity": "1", "item": {"name": "b", "price": "5.00", "unit": "h"},
             "taxes": [{"cat": "VAT", "key": "exempt", "ext": {"untdid-tax-category": "Z"}}]}
        ],
        "payment": {"instructions": {"key": "direct-debit+sepa"}, "terms": {"detail": "30 days"}}
    });
    for (k, v) in extra.as_object().unwrap() {
        doc[k] = v.clone();
    }
    doc
}

#[test]
fn codes_come_from_the_documents_keys_and_given_codes_are_kept() {
    let built = gobl::builder::build_with(
        invoice(json!({"type": "credit-note"})),
        &BuildOptions {
            skip_validation: true,
            ..BuildOptions::default()
        },
    )
    .map_err(|e| e.faults)
    .unwrap();
    let doc = &built["doc"];
    assert_eq!(
        doc["$addons"],
        json!(["eu-en16931-v2017", "de-xrechnung-v3"])
    );
    assert_eq!(doc["tax"]["ext"]["untdid-document-type"], "381");
    assert_eq!(
        doc["lines"][0]["taxes"][0]["ext"]["untdid-tax-category"],
        "S"
    );
    assert_eq!(doc["lines"][0]["item"]["unit"], "one");
    assert_eq!(doc["lines"][1]["item"]["unit"], "h");
    // a code the document gives is not overwritten
    assert_eq!(
        doc["lines"][1]["taxes"][0]["ext"]["untdid-tax-category"],
        "Z"
    );
    assert_eq!(
        doc["payment"]["instructions"]["ext"]["untdid-payment-means"],
        "59"
    );
    assert_eq!(doc["payment"]["terms"]["notes"], "30 days");
    assert!(doc["payment"]["terms"].get("detail").is_none());
}

#[test]
fn documents_without_the_add_on_get_no_codes() {
    let mut doc = invoice(json!({}));
    doc.as_object_mut().unwrap().remove("$addons");
    let built = gobl::builder::build_with(
        doc,
        &BuildOptions {
            skip_validation: true,
            ..BuildOptions::default()
        },
    )
    .map_err(|e| e.faults)
    .unwrap();
    assert!(built["doc"].get("$addons").is_none());
    assert!(built["doc"]["lines"][0]["taxes"][0].get("ext").is_none());
    assert!(built["doc"]["payment"]["instructions"].get("ext").is_none());
}

#[test]
fn the_add_on_refuses_what_en16931_cannot_carry() {
    let mut doc = invoice(json!({}));
    doc["customer"]["addresses"] = json!([]);
    doc["lines"][0]["discounts"] = json!([{"percent": "10%"}]);
    // exempt, with neither a VATEX code nor a note saying why
    doc["lines"][1]["taxes"][0]["ext"] = json!({"untdid-tax-category": "E"});
    let faults = gobl::builder::build(doc).unwrap_err();
    let codes: Vec<(&str, &str)> = faults
        .0
        .iter()
        .map(|f| (f.path.as_str(), f.code.as_str()))
        .collect();
    for want in [
        ("$.supplier.addresses", "en16931-04"),
        ("$.customer.addresses", "en16931-05"),
        ("$.lines[0].discounts[0]", "en16931-41"),
        ("$.tax.notes", "en16931-08"),
    ] {
        assert!(codes.contains(&want), "{want:?} not in {codes:?}");
    }
    // the same document with what EN 16931 needs builds
    let mut fixed = invoice(json!({}));
    let address = json!([{"street": "Hauptstraße 1", "locality": "Berlin", "code": "10115", "country": "DE"}]);
    fixed["supplier"]["addresses"] = address.clone();
    fixed["customer"]["addresses"] = address;
    fixed["lines"][1]["taxes"][0]["ext"]["cef-vatex"] = json!("VATEX-EU-132");
    fixed["lines"][1]["taxes"][0]["ext"]["untdid-tax-category"] = json!("E");
    let built = gobl::builder::build(fixed);
    assert!(built.is_ok(), "{:?}", built.err());
}
