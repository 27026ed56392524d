//! Hand-made invoices: both rounding rules, discounts, retained taxes, advances, and
//! property tests (deterministic calculation; re-building a built document changes nothing).

use gobl::builder::{BuildOptions, build_with};
use proptest::prelude::*;
use serde_json::{Value, json};

fn build_doc(doc: Value) -> Value {
    let opts = BuildOptions {
        uuid: Some("8a51fd30-2a27-11ee-be56-0242ac120002".parse().unwrap()),
        skip_validation: false,
    };
    match build_with(doc, &opts) {
        Ok(env) => env["doc"].clone(),
        Err(inv) => panic!("build failed: {}", inv.faults),
    }
}

fn invoice(rounding: Option<&str>, lines: Value) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "uuid": "3aea7b56-59d8-4beb-90bd-f8f280d852a0",
        "code": "T-1",
        "issue_date": "2024-03-01",
        "supplier": {"name": "Provide One S.L.", "tax_id": {"country": "ES", "code": "B98602642"}},
        "lines": lines,
    });
    if let Some(r) = rounding {
        doc["tax"] = json!({"rounding": r});
    }
    doc
}

fn three_small_lines() -> Value {
    let l = json!({"quantity": "1", "item": {"name": "x", "price": "1.005"}, "taxes": [{"cat": "VAT", "rate": "general"}]});
    json!([l.clone(), l.clone(), l])
}

#[test]
fn precise_rounding_keeps_precision_until_the_end() {
    let d = build_doc(invoice(None, three_small_lines()));
    assert_eq!(d["currency"], "EUR");
    assert_eq!(d["lines"][0]["sum"], "1.005");
    assert_eq!(d["lines"][0]["total"], "1.005");
    let t = &d["totals"];
    assert_eq!(t["sum"], "3.02");
    assert_eq!(t["taxes"]["categories"][0]["rates"][0]["base"], "3.02");
    assert_eq!(t["tax"], "0.63");
    assert_eq!(t["total_with_tax"], "3.65");
    assert_eq!(t["payable"], "3.65");
}

#[test]
fn currency_rounding_rounds_each_line_first() {
    let d = build_doc(invoice(Some("currency"), three_small_lines()));
    assert_eq!(d["tax"]["rounding"], "currency");
    assert_eq!(d["lines"][0]["sum"], "1.01");
    let t = &d["totals"];
    assert_eq!(t["sum"], "3.03");
    assert_eq!(t["tax"], "0.64");
    assert_eq!(t["total_with_tax"], "3.67");
    // The legacy name maps to the same rule.
    let legacy = build_doc(invoice(Some("round-then-sum"), three_small_lines()));
    assert_eq!(legacy["totals"], d["totals"]);
    assert_eq!(legacy["tax"]["rounding"], "currency");
}

#[test]
fn discounts_charges_retained_and_advances() {
    let mut doc = invoice(
        None,
        json!([{
            "quantity": "3",
            "item": {"name": "Consulting", "price": "-100.00"},
            "discounts": [{"percent": "10%"}],
            "taxes": [{"cat": "VAT", "rate": "standard"}, {"cat": "IRPF", "rate": "pro"}]
        }]),
    );
    doc["discounts"] = json!([{"percent": "5%", "reason": "loyalty", "taxes": [{"cat": "VAT", "rate": "general"}]}]);
    doc["charges"] = json!([{"amount": "12.5", "reason": "travel", "taxes": [{"cat": "VAT", "rate": "general"}]}]);
    doc["payment"] = json!({"advances": [{"description": "deposit", "percent": "50%"}]});
    let d = build_doc(doc);
    let l = &d["lines"][0];
    // A negative price is normalised into a negative quantity.
    assert_eq!(l["quantity"], "-3");
    assert_eq!(l["item"]["price"], "100.00");
    assert_eq!(l["sum"], "-300.00");
    assert_eq!(l["discounts"][0]["amount"], "-30.00");
    assert_eq!(l["total"], "-270.00");
    assert_eq!(l["taxes"][1]["percent"], "15.0%");
    let t = &d["totals"];
    assert_eq!(t["sum"], "-270.00");
    assert_eq!(t["discount"], "-13.50");
    assert_eq!(t["charge"], "12.50");
    assert_eq!(t["total"], "-244.00");
    // VAT base: -270 + 13.50 (negated discount) + 12.50 = -244.00; IRPF only on the line.
    let cats = t["taxes"]["categories"].as_array().unwrap();
    assert_eq!(cats[0]["rates"][0]["base"], "-244.00");
    assert_eq!(cats[0]["amount"], "-51.24");
    assert_eq!(cats[1]["code"], "IRPF");
    assert_eq!(cats[1]["retained"], true);
    assert_eq!(cats[1]["amount"], "-40.50");
    assert_eq!(t["total_with_tax"], "-295.24");
    assert_eq!(t["retained_tax"], "-40.50");
    assert_eq!(t["payable"], "-254.74");
    assert_eq!(d["payment"]["advances"][0]["amount"], "-127.37");
    assert_eq!(t["advance"], "-127.37");
    assert_eq!(t["due"], "-127.37");
}

#[test]
fn rates_follow_the_tax_date() {
    let mut doc = invoice(
        None,
        json!([{"quantity": "1", "item": {"name": "x", "price": "100"}, "taxes": [{"cat": "VAT", "rate": "general"}]}]),
    );
    doc["supplier"]["tax_id"] = json!({"country": "DE", "code": "111111125"});
    doc["issue_date"] = json!("2020-08-15");
    let d = build_doc(doc.clone());
    assert_eq!(d["lines"][0]["taxes"][0]["percent"], "16%");
    assert_eq!(d["totals"]["tax"], "16.00");
    doc["issue_date"] = json!("2021-02-01");
    doc["value_date"] = json!("2020-12-31");
    let d = build_doc(doc);
    assert_eq!(d["lines"][0]["taxes"][0]["percent"], "16%");
}

#[test]
fn scenario_notes_and_unknown_tags() {
    let mut doc = invoice(
        None,
        json!([{"quantity": "1", "item": {"name": "x", "price": "100"}, "taxes": [{"cat": "VAT", "rate": "exempt+reverse-charge"}]}]),
    );
    doc["$tags"] = json!(["reverse-charge"]);
    let d = build_doc(doc.clone());
    assert_eq!(d["lines"][0]["taxes"][0]["key"], "reverse-charge");
    assert_eq!(d["tax"]["notes"][0]["key"], "reverse-charge");
    assert_eq!(d["totals"]["tax"], "0.00");
    doc["$tags"] = json!(["no-such-tag"]);
    let err = build_with(doc, &BuildOptions::default()).unwrap_err();
    assert_eq!(err.faults.0[0].paths, ["doc.$tags"]);
}

fn arb_line() -> impl Strategy<Value = Value> {
    (
        -99_999i64..99_999,
        0u32..5,
        1i64..500,
        0u32..3,
        prop::option::of(0i64..100),
        prop::sample::select(vec!["general", "reduced", "super-reduced", "zero", "exempt"]),
    )
        .prop_map(|(p, pe, q, qe, disc, rate)| {
            let price = gobl::num::Amount::new(p, pe).to_string();
            let qty = gobl::num::Amount::new(q, qe).to_string();
            let mut l = json!({"quantity": qty, "item": {"name": "item", "price": price}, "taxes": [{"cat": "VAT", "rate": rate}]});
            if let Some(d) = disc {
                l["discounts"] = json!([{"percent": format!("{d}%")}]);
            }
            l
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn calculation_is_deterministic_and_rebuild_is_stable(
        lines in prop::collection::vec(arb_line(), 1..12),
        currency_rule in any::<bool>(),
        prices_include in any::<bool>(),
    ) {
        let mut doc = invoice(currency_rule.then_some("currency"), Value::Array(lines));
        if prices_include {
            doc["tax"] = json!({"prices_include": "VAT"});
        }
        let a = build_doc(doc.clone());
        let b = build_doc(doc);
        prop_assert_eq!(&a, &b);
        let again = build_doc(a.clone());
        prop_assert_eq!(&again, &a);
    }
}

#[test]
fn unknown_members_and_empty_lists_are_dropped() {
    let mut doc = invoice(None, three_small_lines());
    doc["region"] = json!("ES");
    doc["notes"] = json!([]);
    doc["supplier"]["addresses"] = json!([{"street": "Calle", "country\"": "ES", "code": "28002"}]);
    let d = build_doc(doc);
    assert!(d.get("region").is_none());
    assert!(d.get("notes").is_none());
    assert_eq!(
        d["supplier"]["addresses"][0],
        json!({"street": "Calle", "code": "28002"})
    );
}

#[test]
fn a_nested_zero_or_empty_uuid_is_dropped() {
    const ZERO: &str = "00000000-0000-0000-0000-000000000000";
    const REAL: &str = "0194ad4c-3462-7695-a40c-66a30ccc1405";
    let mut doc = invoice(None, three_small_lines());
    doc["supplier"]["uuid"] = json!("");
    doc["customer"] = json!({"uuid": REAL, "name": "Sample Consumer"});
    doc["lines"][0]["uuid"] = json!(ZERO);
    doc["lines"][1]["item"]["uuid"] = json!(ZERO);
    doc["lines"][2]["uuid"] = json!(REAL);
    let d = build_doc(doc);
    assert!(d["supplier"].get("uuid").is_none(), "{}", d["supplier"]);
    assert_eq!(d["customer"]["uuid"], REAL);
    assert!(d["lines"][0].get("uuid").is_none(), "{}", d["lines"][0]);
    assert!(d["lines"][1]["item"].get("uuid").is_none());
    assert_eq!(d["lines"][2]["uuid"], REAL);
    assert_eq!(d["uuid"], "3aea7b56-59d8-4beb-90bd-f8f280d852a0");
}

#[test]
fn french_siren_becomes_a_vat_code() {
    let mut doc = invoice(None, three_small_lines());
    doc["customer"] =
        json!({"name": "La Poste", "tax_id": {"country": "FR", "code": "356 000 000"}});
    let d = build_doc(doc);
    assert_eq!(d["customer"]["tax_id"]["code"], "39356000000");
}

#[test]
fn tax_identity_document_is_normalised() {
    let env = build_with(
        json!({"$schema": "https://gobl.org/draft-0/tax/identity", "country": "ES", "code": "es-b-986.026.42"}),
        &BuildOptions::default(),
    )
    .unwrap();
    assert_eq!(env["doc"]["code"], "B98602642");
}

#[test]
fn an_envelope_without_head_is_built_from_its_doc() {
    let env = build_with(
        json!({"doc": invoice(None, three_small_lines())}),
        &BuildOptions::default(),
    )
    .unwrap();
    assert_eq!(env["doc"]["totals"]["sum"], "3.02");
    assert_eq!(env["doc"]["$regime"], "ES");
}

fn payment(lines: Value) -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/payment",
        "uuid": "0194ad4c-3462-7695-a40c-66a30ccc1405",
        "code": "P-1",
        "issue_date": "2025-01-28",
        "exchange_rates": [{"from": "USD", "to": "EUR", "amount": "0.90"}],
        "supplier": {"name": "Provide One S.L.", "tax_id": {"country": "ES", "code": "B98602642"}},
        "lines": lines,
        "methods": [{"key": "credit-transfer"}],
    })
}

#[test]
fn payment_line_takes_payable_and_due_from_its_document() {
    let d = build_doc(payment(json!([
        {"document": {"code": "A", "payable": "1000.00"}, "amount": "400.00", "advances": "100.00"},
        {"document": {"code": "B", "currency": "USD", "payable": "100.00"}, "amount": "90.00"},
    ])));
    assert_eq!(d["lines"][0]["payable"], "1000.00");
    assert_eq!(d["lines"][0]["due"], "500.00");
    assert_eq!(d["lines"][1]["payable"], "90.00");
    assert_eq!(d["lines"][1]["due"], "0.00");
    assert_eq!(d["total"], "490.00");
}

#[test]
fn payment_line_document_taxes_are_calculated_and_scaled() {
    let tax =
        json!({"categories": [{"code": "VAT", "rates": [{"base": "826.45", "percent": "21.0%"}]}]});
    let d = build_doc(payment(json!([
        {"document": {"code": "A", "tax": tax.clone()}, "amount": "1000.00"},
        {"document": {"code": "B", "tax": tax, "payable": "1000.00"}, "amount": "500.00"},
    ])));
    let dt = &d["lines"][0]["document"]["tax"];
    assert_eq!(dt["categories"][0]["rates"][0]["amount"], "173.55");
    assert_eq!(dt["categories"][0]["amount"], "173.55");
    assert_eq!(dt["sum"], "173.55");
    assert!(d["lines"][0].get("tax").is_none());
    // Half of the document is paid: the line's taxes cover half of its base.
    let lt = &d["lines"][1]["tax"];
    assert_eq!(lt["categories"][0]["rates"][0]["base"], "413.23");
    assert_eq!(lt["categories"][0]["rates"][0]["amount"], "86.78");
    assert_eq!(lt["sum"], "86.78");
    assert_eq!(d["lines"][1]["due"], "500.00");
}
