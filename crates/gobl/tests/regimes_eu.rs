//! Whole invoices through the regimes of AE, AT, BE, CA, CH, DK, FI, IE, IN, NO, SA, SE and
//! SG: their own normalisation reaches the built document and their rules its faults.

use gobl::builder::{BuildOptions, build_with};
use serde_json::{Value, json};

fn invoice(cc: &str, supplier: Value, item: Value) -> Value {
    let cat = if cc == "SG" { "GST" } else { "VAT" };
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": cc,
        "uuid": "3aea7b56-59d8-4beb-90bd-f8f280d852a0",
        "code": "T-1",
        "issue_date": "2024-03-01",
        "supplier": supplier,
        "lines": [{"quantity": "1", "item": item, "taxes": [{"cat": cat, "rate": "general"}]}],
    })
}

fn item() -> Value {
    json!({"name": "x", "price": "100.00"})
}

/// The built document, or the fault codes with their paths.
fn build(doc: Value) -> Result<Value, Vec<String>> {
    build_with(doc, &BuildOptions::default())
        .map(|env| env["doc"].clone())
        .map_err(|inv| {
            inv.faults
                .0
                .iter()
                .map(|f| format!("{} {}", f.code, f.paths.join(",")))
                .collect()
        })
}

#[test]
fn norway_vat_numbers_carry_mva() {
    let supplier = json!({"name": "S", "tax_id": {"country": "NO", "code": "NO 923 456 783"},
        "identities": [{"type": "ON", "code": "923 456 783"}]});
    let d = build(invoice("NO", supplier, item())).unwrap();
    assert_eq!(d["supplier"]["tax_id"]["code"], "923456783MVA");
    assert_eq!(d["supplier"]["identities"][0]["code"], "923456783");
    assert_eq!(d["totals"]["tax"], "25.00");
}

#[test]
fn swiss_suffixes_are_dropped() {
    let supplier =
        json!({"name": "S", "tax_id": {"country": "CH", "code": "CHE-284.156.502 MWST"}});
    let d = build(invoice("CH", supplier, item())).unwrap();
    assert_eq!(d["supplier"]["tax_id"]["code"], "E284156502");
}

#[test]
fn a_bad_check_digit_is_a_fault() {
    for (cc, code) in [
        ("AT", "U00000000"),
        ("BE", "0413172885"),
        ("CH", "E100426306"),
        ("DK", "13585627"),
        ("FI", "01120388"),
        ("IE", "3628739A"),
        ("NO", "923456780"),
        ("SA", "312345678912341"),
        ("SE", "202100548801"),
        ("AE", "12345678901234"),
        ("SG", "S1234567A"),
    ] {
        let supplier = json!({"name": "S", "tax_id": {"country": cc, "code": code}});
        let faults = build(invoice(cc, supplier, item())).unwrap_err();
        assert!(
            faults.contains(&"tax-id-code doc.supplier.tax_id.code".to_string()),
            "{cc} {code}: {faults:?}"
        );
    }
}

#[test]
fn suppliers_need_a_tax_code_or_an_identity() {
    for (cc, rule) in [
        ("DK", "dk-bill-invoice-01 doc.supplier"),
        ("SE", "se-bill-invoice-01 doc.supplier"),
        ("BE", "be-bill-invoice-02 doc.supplier.tax_id.code"),
    ] {
        let supplier = json!({"name": "S", "tax_id": {"country": cc}});
        let faults = build(invoice(cc, supplier, item())).unwrap_err();
        assert!(faults.contains(&rule.to_string()), "{cc}: {faults:?}");
    }
    let supplier = json!({"name": "S", "identities": [{"type": "CVR", "code": "13585628"}]});
    assert!(build(invoice("DK", supplier, item())).is_ok());
}

#[test]
fn indian_items_need_an_hsn_code() {
    let supplier = json!({"name": "S", "tax_id": {"country": "IN", "code": "27AAPFU0939F1ZV"}});
    let gst = |item: Value| {
        let mut doc = invoice("IN", supplier.clone(), item);
        doc["lines"][0]["taxes"] = json!([{"cat": "IGST", "percent": "18%"}]);
        build(doc)
    };
    let faults = gst(item()).unwrap_err();
    assert_eq!(faults, ["in-org-item-01 doc.lines[0].item.identities"]);
    let with_hsn =
        json!({"name": "x", "price": "100.00", "identities": [{"type": "HSN", "code": "1234.56"}]});
    let d = gst(with_hsn).unwrap();
    assert_eq!(d["lines"][0]["item"]["identities"][0]["code"], "123456");
}
