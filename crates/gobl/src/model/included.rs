//! An invoice whose prices include a tax (`tax.prices_include`), restated with prices
//! without it, as formats that only know net prices need: each price, line discount and
//! charge amount with the tax taken out (two more decimals kept), then the invoice
//! calculated again, and any difference from the original total with tax kept as
//! `totals.rounding`, as the reference does.

use crate::bill::val::{Obj, amount, set_amount, string};
use crate::bill::{CalcError, normalize_document};
use crate::json::Value;
use crate::num::{Amount, Percentage};

/// Decimals added to an amount before the included tax is taken out.
const EXTRA_DECIMALS: u32 = 2;

/// The document (bare, or an envelope's `doc`) with its included tax taken out of the
/// prices and recalculated; a copy of it when no tax is included.
pub fn without_included_taxes(v: &serde_json::Value) -> Result<serde_json::Value, CalcError> {
    let doc = v.get("doc").unwrap_or(v);
    if doc.pointer("/tax/prices_include").is_none() {
        return Ok(v.clone());
    }
    let mut out = Value::from(v);
    restated(&mut out)?;
    out.to_serde().map_err(|e| err(e.to_string()))
}

/// [`without_included_taxes`] on the calculation's tree, in place.
fn restated(out: &mut Value) -> Result<(), CalcError> {
    let doc = match out.get_mut("doc") {
        Some(d) => d,
        None => out,
    };
    let Some(doc) = doc.as_object_mut() else {
        return Ok(());
    };
    let Some(cat) = doc
        .get("tax")
        .and_then(Value::as_object)
        .and_then(|t| string(t, "prices_include"))
        .map(str::to_string)
    else {
        return Ok(());
    };
    let before = total_with_tax(doc)?;
    restate(doc, &cat)?;
    normalize_document(doc)?;
    if let Some(before) = before {
        let after = total_with_tax(doc)?.unwrap_or(before);
        if !before.equals(&after) {
            let diff = before.sub(after).map_err(|e| err(e.to_string()))?;
            let mut totals = Obj::new();
            set_amount(&mut totals, "rounding", diff);
            doc.insert("totals".into(), Value::Object(totals));
            normalize_document(doc)?;
        }
    }
    Ok(())
}

fn err(message: impl Into<String>) -> CalcError {
    CalcError {
        path: "doc".into(),
        message: message.into(),
    }
}

fn total_with_tax(doc: &Obj) -> Result<Option<Amount>, CalcError> {
    match doc.get("totals").and_then(Value::as_object) {
        Some(t) => amount(t, "total_with_tax", "doc.totals"),
        None => Ok(None),
    }
}

/// Take the tax out of every amount that included it; drop the calculated members.
fn restate(doc: &mut Obj, cat: &str) -> Result<(), CalcError> {
    if let Some(Value::Object(tax)) = doc.get_mut("tax") {
        tax.remove("prices_include");
    }
    doc.remove("totals");
    for line in objects(doc, "lines") {
        let Some(p) = combo_percent(line, cat) else {
            continue;
        };
        line.remove("sum");
        line.remove("total");
        if let Some(Value::Object(item)) = line.get_mut("item") {
            item.remove("alt_prices");
            take_out(item, "price", p)?;
        }
        for key in ["discounts", "charges"] {
            for row in objects(line, key) {
                take_out(row, "amount", p)?;
            }
        }
    }
    for key in ["discounts", "charges"] {
        for row in objects(doc, key) {
            if let Some(p) = combo_percent(row, cat) {
                take_out(row, "amount", p)?;
            }
        }
    }
    Ok(())
}

fn objects<'a>(o: &'a mut Obj, key: &str) -> impl Iterator<Item = &'a mut Obj> {
    o.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// The percentage of the row's combo of category `cat`, if it has one.
fn combo_percent(row: &Obj, cat: &str) -> Option<Percentage> {
    row.get("taxes")?
        .as_array()?
        .iter()
        .find(|t| t.get("cat").and_then(Value::as_str) == Some(cat))?
        .get("percent")?
        .as_str()
        .and_then(|s| Percentage::parse(s).ok())
}

fn take_out(o: &mut Obj, key: &str, p: Percentage) -> Result<(), CalcError> {
    let Some(a) = amount(o, key, key)? else {
        return Ok(());
    };
    let net = a
        .rescale(a.exp() + EXTRA_DECIMALS)
        .and_then(|a| p.remove_from(a))
        .map_err(|e| err(e.to_string()))?;
    set_amount(o, key, net);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Invoice;
    use serde_json::{Value, json};

    fn built(doc: Value) -> Value {
        crate::builder::build(doc).expect("builds")
    }

    #[test]
    fn prices_lose_the_included_vat_and_totals_keep_the_total_with_tax() {
        let env = built(json!({
            "$schema": "https://gobl.org/draft-0/bill/invoice",
            "$regime": "IT",
            "currency": "EUR", "issue_date": "2025-02-06", "code": "1",
            "tax": {"prices_include": "VAT"},
            "supplier": {"name": "S", "tax_id": {"country": "IT", "code": "12345678903"}},
            "customer": {"name": "C", "tax_id": {"country": "IT", "code": "09876543217"}},
            "lines": [
                {"quantity": "2", "item": {"name": "Room", "price": "76.69"},
                 "taxes": [{"cat": "VAT", "rate": "intermediate"}]},
                {"quantity": "1", "item": {"name": "Cleaning", "price": "70.00"},
                 "taxes": [{"cat": "VAT", "rate": "intermediate"}]}
            ]
        }));
        let net = without_included_taxes(&env).unwrap();
        let inv = Invoice::from_value(&net).unwrap();
        assert!(inv.tax.as_ref().unwrap().prices_include.is_none());
        assert_eq!(inv.lines[0].item.price.unwrap().to_string(), "69.7182");
        assert_eq!(inv.lines[0].total.unwrap().to_string(), "139.4364");
        let vat = &inv.totals.category("VAT").unwrap().rates[0];
        assert_eq!(vat.base.to_string(), "203.07");
        assert_eq!(vat.amount.to_string(), "20.31");
        assert_eq!(inv.totals.total_with_tax.to_string(), "223.38");
        assert_eq!(inv.totals.rounding, None);
    }

    #[test]
    fn a_document_without_included_taxes_is_unchanged() {
        let v = json!({"doc": {"$schema": "x", "tax": {"ext": {}}, "totals": {"sum": "1"}}});
        assert_eq!(without_included_taxes(&v).unwrap(), v);
    }
}
