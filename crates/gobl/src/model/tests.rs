//! The model read from the built examples of `../shared/gobl/examples`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::*;
use crate::num::{Amount, Percentage};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples")
}

fn load(rel: &str) -> Value {
    let text = std::fs::read_to_string(examples().join(rel)).expect(rel);
    serde_json::from_str(&text).expect(rel)
}

fn read(rel: &str) -> Invoice {
    Invoice::from_value(&load(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn a(s: &str) -> Amount {
    Amount::parse(s).unwrap()
}

#[test]
fn every_built_invoice_example_reads() {
    let mut n = 0;
    for dir in std::fs::read_dir(examples()).unwrap() {
        let out = dir.unwrap().path().join("out");
        let Ok(files) = std::fs::read_dir(&out) else {
            continue;
        };
        for f in files {
            let path = f.unwrap().path();
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if v["doc"]["$schema"] != INVOICE_SCHEMA {
                continue;
            }
            let inv = Invoice::from_value(&v).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            assert!(!inv.lines.is_empty() || !inv.charges.is_empty(), "{path:?}");
            n += 1;
        }
    }
    assert!(n >= 40, "only {n} invoices read");
}

#[test]
fn italian_fund_contribution_keeps_charges_retained_taxes_and_ext() {
    let v = load("it/out/b2b-fund-contribution.json");
    assert!(head_uuid(&v).is_some());
    let inv = Invoice::from_value(&v).unwrap();
    assert_eq!(inv.regime.as_deref(), Some("IT"));
    assert_eq!(inv.addons, ["it-sdi-v1"]);
    assert_eq!(inv.full_code(), "SAMPLE-002");
    assert_eq!(inv.issue_date, NaiveDate::from_ymd_opt(2025, 8, 21));
    assert_eq!(inv.tax_ext("it-sdi-document-type"), Some("TD01"));
    assert_eq!(inv.supplier.ext["it-sdi-fiscal-regime"], "RF01");
    let reg = inv.supplier.registration.as_ref().unwrap();
    assert_eq!(reg.capital, Some(a("50000.00")));
    assert_eq!(
        inv.customer.as_ref().unwrap().inboxes[0].code.as_deref(),
        Some("M5UXCR5")
    );

    let line = &inv.lines[0];
    assert_eq!((line.index, line.quantity), (1, a("1")));
    assert_eq!(line.item.price, Some(a("1600.00")));
    let period = line.period.as_ref().unwrap();
    assert_eq!(period.end, NaiveDate::from_ymd_opt(2025, 8, 19));
    let irpef = line.tax("IRPEF").unwrap();
    assert_eq!(irpef.ext["it-sdi-retained"], "A");
    assert_eq!(irpef.percent.unwrap().to_string(), "20%");
    assert_eq!(line.tax("VAT").unwrap().rate.as_deref(), Some("general"));

    let charge = &inv.charges[0];
    assert!(charge.has_key("fund-contribution"));
    assert_eq!(charge.amount.to_string(), "64.00");
    assert_eq!(charge.ext["it-sdi-fund-type"], "TC22");

    let t = &inv.totals;
    assert_eq!(t.retained_tax, Some(a("332.80")));
    assert_eq!(t.payable.to_string(), "1697.28");
    let irpef = t.category("IRPEF").unwrap();
    assert!(irpef.retained);
    assert_eq!(irpef.rates[0].base.to_string(), "1664.00");
    let vat = t.category("VAT").unwrap();
    assert_eq!(
        vat.rates[0].percent,
        Some(Percentage::parse("22.0%").unwrap())
    );
    assert_eq!(vat.rates[0].percent.unwrap().to_string(), "22.0%");
}

#[test]
fn spanish_corrective_keeps_the_preceding_invoice_and_its_taxes() {
    let inv = read("es/out/invoice-es-es-verifactu-corrective.json");
    let p = &inv.preceding[0];
    assert_eq!(p.full_code(), "SAMPLE-003");
    assert_eq!(p.issue_date, NaiveDate::from_ymd_opt(2025, 7, 1));
    let tax = p.tax.as_ref().unwrap();
    assert_eq!(tax.categories[0].rates[0].amount.to_string(), "2100.00");
    let rate = &inv.totals.category("VAT").unwrap().rates[1];
    assert_eq!(rate.key.as_deref(), Some("zero"));
    assert_eq!(rate.ext["es-verifactu-op-class"], "S1");
}

#[test]
fn payment_terms_instructions_and_advances() {
    let inv = read("es/out/invoice-es-es-vateqs-provider.json");
    let pay = inv.payment.as_ref().expect("payment");
    let terms = pay.terms.as_ref().unwrap();
    assert_eq!(terms.key.as_deref(), Some("due-date"));
    assert_eq!(terms.due_dates[1].amount, a("68.58"));
    assert_eq!(terms.due_dates[1].percent.unwrap().to_string(), "60%");
    assert_eq!(
        terms.due_dates[0].date,
        NaiveDate::from_ymd_opt(2021, 10, 30)
    );
    assert_eq!(pay.advances[0].amount, a("25.00"));
    assert_eq!(
        pay.advances[0].description.as_deref(),
        Some("Deposit paid upfront")
    );
    let ins = pay.instructions.as_ref().unwrap();
    assert_eq!(ins.key.as_deref(), Some("credit-transfer"));
    assert_eq!(ins.credit_transfer[0].bic.as_deref(), Some("BKBKESMMXXX"));
    let inv = read("dk/out/invoice-peppol.json");
    let ins = inv.payment.unwrap().instructions.unwrap();
    assert_eq!(ins.ext["untdid-payment-means"], "58");
}

#[test]
fn other_documents_and_unbuilt_invoices_are_refused() {
    let delivery = load("es/out/delivery.json");
    assert!(matches!(
        Invoice::from_value(&delivery),
        Err(ReadError::NotAnInvoice(s)) if s.ends_with("bill/delivery")
    ));
    let bare = json!({"$schema": INVOICE_SCHEMA, "code": "1"});
    assert_eq!(Invoice::from_value(&bare), Err(ReadError::NotCalculated));
    let bad = json!({"$schema": INVOICE_SCHEMA, "totals": {"sum": "x"}});
    assert!(matches!(
        Invoice::from_value(&bad),
        Err(ReadError::Malformed(_))
    ));
}

#[test]
fn unknown_members_are_ignored() {
    let v = json!({"$schema": INVOICE_SCHEMA, "code": "7", "novelty": {"a": 1},
        "supplier": {"name": "S", "shiny": true}, "totals": {"sum": "1.00", "extra": 2}});
    let inv = Invoice::from_value(&v).unwrap();
    assert_eq!(inv.supplier.name.as_deref(), Some("S"));
    assert_eq!(inv.totals.sum, a("1.00"));
}
