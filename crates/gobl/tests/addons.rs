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

/// The built document, its faults not checked: what the add-ons' normalisation did.
fn normalized(doc: Value) -> Value {
    let options = BuildOptions {
        skip_validation: true,
        ..BuildOptions::default()
    };
    build_with(doc, &options).map_err(|e| e.faults).unwrap()
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
    let built = normalized(invoice(json!({"type": "credit-note"})));
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
    let built = normalized(doc);
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
        .map(|f| (f.paths[0].as_str(), f.code.as_str()))
        .collect();
    for want in [
        ("doc.supplier.addresses", "en16931-04"),
        ("doc.customer.addresses", "en16931-05"),
        ("doc.lines[0].discounts[0]", "en16931-41"),
        ("doc.tax.notes", "en16931-08"),
    ] {
        assert!(codes.contains(&want), "{want:?} not in {codes:?}");
    }
    // the same document with what EN 16931 needs builds
    let mut fixed = invoice(json!({"$addons": ["eu-en16931-v2017"]}));
    let address = json!([{"street": "Hauptstraße 1", "locality": "Berlin", "code": "10115", "country": "DE"}]);
    fixed["supplier"]["addresses"] = address.clone();
    fixed["customer"]["addresses"] = address;
    fixed["lines"][1]["taxes"][0]["ext"]["cef-vatex"] = json!("VATEX-EU-132");
    fixed["lines"][1]["taxes"][0]["ext"]["untdid-tax-category"] = json!("E");
    let built = gobl::builder::build(fixed);
    assert!(built.is_ok(), "{:?}", built.err());
}

fn fault_codes(doc: Value) -> Vec<(String, String)> {
    match gobl::builder::build(doc) {
        Ok(_) => vec![],
        Err(faults) => faults
            .0
            .into_iter()
            .map(|f| (f.paths[0].clone(), f.code))
            .collect(),
    }
}

#[test]
fn xrechnung_asks_for_contacts_addresses_buyer_reference_and_payment_details() {
    let address = json!([{"street": "Hauptstraße 1", "locality": "Berlin", "code": "10115", "country": "DE"}]);
    let mut doc = invoice(json!({"type": "credit-note"}));
    doc["supplier"]["addresses"] = json!([{"street": "Hauptstraße 1", "country": "DE"}]);
    doc["customer"]["addresses"] = address.clone();
    doc["payment"]["instructions"]["direct_debit"] = json!({"ref": "MANDATE-1"});
    let codes = fault_codes(doc.clone());
    for (path, code) in [
        ("doc.preceding", "xrechnung-02"),
        ("doc.supplier.people", "xrechnung-04"),
        ("doc.supplier.addresses", "xrechnung-06"),
        ("doc.supplier.addresses", "xrechnung-07"),
        ("doc.supplier.inboxes", "xrechnung-08"),
        ("doc.supplier", "xrechnung-09"),
        ("doc.supplier", "xrechnung-10"),
        ("doc.customer.inboxes", "xrechnung-15"),
        (
            "doc.payment.instructions.direct_debit.creditor",
            "xrechnung-23",
        ),
        (
            "doc.payment.instructions.direct_debit.account",
            "xrechnung-24",
        ),
        ("doc.ordering", "xrechnung-29"),
    ] {
        let want = (path.to_string(), code.to_string());
        assert!(codes.contains(&want), "{want:?} not in {codes:?}");
    }
    assert!(!codes.iter().any(|(_, c)| c == "xrechnung-22"), "{codes:?}");

    // completed as the German CIUS asks, it builds
    doc["supplier"]["addresses"] = address;
    doc["supplier"]["people"] = json!([{"name": {"given": "Anna", "surname": "Weber"},
        "telephones": [{"num": "+49 30 1234567"}], "emails": [{"addr": "anna@s.example"}]}]);
    doc["supplier"]["inboxes"] = json!([{"scheme": "EM", "code": "billing@s.example"}]);
    doc["customer"]["inboxes"] = json!([{"scheme": "EM", "code": "ap@b.example"}]);
    doc["preceding"] = json!([{"code": "INV-1", "issue_date": "2026-01-01"}]);
    doc["ordering"] = json!({"code": "04011000-12345-03"});
    doc["payment"]["instructions"]["direct_debit"] = json!({
        "ref": "MANDATE-1", "creditor": "DE98ZZZ09999999999", "account": "DE89370400440532013000"});
    let codes = fault_codes(doc.clone());
    assert!(codes.is_empty(), "{codes:?}");

    // a credit transfer without an IBAN needs an account number; a card payment its card
    doc["payment"]["instructions"] =
        json!({"key": "credit-transfer", "credit_transfer": [{"name": "S GmbH"}]});
    let codes = fault_codes(doc.clone());
    let want = (
        "doc.payment.instructions.credit_transfer[0].number".to_string(),
        "xrechnung-19".to_string(),
    );
    assert!(codes.contains(&want), "{codes:?}");
    doc["payment"]["instructions"] = json!({"key": "card"});
    let codes = fault_codes(doc);
    let want = (
        "doc.payment.instructions.card".to_string(),
        "xrechnung-20".to_string(),
    );
    assert!(codes.contains(&want), "{codes:?}");
}

#[test]
fn reasons_schemes_and_inboxes_get_their_codes() {
    let mut doc = invoice(json!({"$addons": ["eu-en16931-v2017"]}));
    doc["discounts"] = json!([{"key": "sample", "amount": "1.00", "ext": {"untdid-allowance": "95"},
        "taxes": [{"cat": "VAT", "rate": "standard"}]}]);
    doc["charges"] = json!([{"key": "delivery", "amount": "2.00",
        "taxes": [{"cat": "VAT", "rate": "standard"}]}]);
    doc["lines"][0]["charges"] = json!([{"key": "packing", "amount": "1.00"}]);
    doc["supplier"]["identities"] = json!([{"key": "gln", "code": "4000001123452"}]);
    doc["supplier"]["inboxes"] = json!([{"key": "peppol", "code": "0088:4000001123452"}]);
    doc["customer"]["identities"] = json!([{"type": "SIRET", "code": "73282932000074"}]);
    doc["tax"] =
        json!({"notes": [{"cat": "VAT", "ext": {"untdid-tax-category": "E"}, "text": "Exempt"}]});
    let built = normalized(doc);
    let doc = &built["doc"];
    // a key's code replaces a code given by hand, as GOBL's merge does
    assert_eq!(doc["discounts"][0]["ext"]["untdid-allowance"], "67");
    assert_eq!(doc["charges"][0]["ext"]["untdid-charge"], "DL");
    assert_eq!(doc["lines"][0]["charges"][0]["ext"]["untdid-charge"], "PC");
    assert_eq!(
        doc["supplier"]["identities"][0]["ext"]["iso-scheme-id"],
        "0088"
    );
    assert_eq!(
        doc["customer"]["identities"][0]["ext"]["iso-scheme-id"],
        "0009"
    );
    let inbox = &doc["supplier"]["inboxes"][0];
    assert_eq!(
        (&inbox["scheme"], &inbox["code"]),
        (&json!("0088"), &json!("4000001123452"))
    );
    assert_eq!(
        doc["supplier"]["endpoints"],
        json!([{"uri": "iso6523-actorid-upis::0088:4000001123452"}])
    );
    assert!(doc["customer"].get("endpoints").is_none());
    assert_eq!(doc["tax"]["notes"][0]["key"], "exempt");
}
