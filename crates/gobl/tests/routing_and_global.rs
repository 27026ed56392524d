//! Behaviours outside any regime or add-on: YAML numbers read as the reference reads them,
//! the envelope head's `from`/`to` come from the document's party endpoints, and a combo
//! with no regime still gets GOBL's global VAT keys.

use gobl::builder::{BuildOptions, build_with};
use serde_json::{Value, json};

fn build(doc: Value) -> Value {
    let opts = BuildOptions {
        skip_validation: true,
        ..BuildOptions::default()
    };
    build_with(doc, &opts).map_err(|e| e.faults).unwrap()
}

fn invoice(tags: &[&str]) -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$tags": tags,
        "currency": "USD", "issue_date": "2024-09-04", "code": "1",
        "supplier": {"name": "S", "tax_id": {"country": "ZW"},
                     "endpoints": [{"uri": "iso6523-actorid-upis::0088:1"}]},
        "customer": {"name": "C", "endpoints": [{"uri": "mailto:c@example.com"}]},
        "lines": [{"quantity": "1", "item": {"name": "x", "price": "10.00"},
                   "taxes": [{"cat": "VAT", "percent": "15%"}]}]
    })
}

#[test]
fn head_routes_from_supplier_to_customer() {
    let env = build(invoice(&[]));
    assert_eq!(env["head"]["from"], "iso6523-actorid-upis::0088:1");
    assert_eq!(env["head"]["to"], "mailto:c@example.com");
    // a self-billed invoice is sent by the customer
    let env = build(invoice(&["self-billed"]));
    assert_eq!(env["head"]["from"], "mailto:c@example.com");
}

#[test]
fn a_combo_without_regime_takes_the_global_vat_keys() {
    let env = build(invoice(&[]));
    assert_eq!(env["doc"]["lines"][0]["taxes"][0]["key"], "standard");
    assert_eq!(env["doc"]["totals"]["tax"], "1.50");
}

#[test]
fn yaml_floats_without_fraction_read_as_integers() {
    let v = gobl::builder::parse_input("a: 20.000000\nb: 10.50\nc: [3.0]\n").unwrap();
    assert_eq!(v, json!({"a": 20, "b": 10.5, "c": [3]}));
}
