//! The document's BG-22 totals beside the ones GOBL calculated from what was read.

use std::str::FromStr;

use gobl::json::Value;
use rust_decimal::Decimal;

/// `(business term, GOBL's figure, the document's figure)` for BT-106 … BT-115, as decimals
/// normalised for comparison; a missing optional total is zero on both sides.
pub fn pairs(inv: &en16931::Invoice, envelope: &Value) -> Vec<(&'static str, Decimal, Decimal)> {
    let t = &inv.totals;
    // looked up once: each figure is then a member of it
    let totals = &envelope["doc"]["totals"];
    let gobl = |name: &str| decimal(totals, name).unwrap_or_default().normalize();
    let doc = |a: Option<en16931::InvoiceAmount>| {
        a.map(|a| a.into_decimal()).unwrap_or_default().normalize()
    };
    let vat = totals["taxes"]["categories"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["code"] == "VAT"))
        .and_then(|c| decimal(c, "amount"))
        .unwrap_or_default()
        .normalize();
    let advance = gobl("advance");
    let due = decimal(totals, "due")
        .map(|d| d.normalize())
        .unwrap_or_else(|| gobl("payable") - advance);
    vec![
        ("BT-106", gobl("sum"), doc(Some(t.line_total))),
        ("BT-107", gobl("discount"), doc(t.allowance_total)),
        ("BT-108", gobl("charge"), doc(t.charge_total)),
        ("BT-109", gobl("total"), doc(Some(t.taxable_total))),
        ("BT-110", vat, doc(t.vat_total)),
        ("BT-112", gobl("total_with_tax"), doc(Some(t.gross_total))),
        ("BT-113", advance, doc(t.paid)),
        ("BT-114", gobl("rounding"), doc(t.rounding)),
        ("BT-115", due, doc(Some(t.due))),
    ]
}

/// A decimal from a GOBL amount string or JSON number, member `name` of `v`.
fn decimal(v: &Value, name: &str) -> Option<Decimal> {
    match v.get(name)? {
        Value::String(s) => Decimal::from_str(s.trim()).ok(),
        Value::Number(n) => Decimal::from_str(n).ok(),
        _ => None,
    }
}
