//! The tax breakdown and the totals block.

use serde_json::{Value, json};

use super::{Cx, list};

/// One row per tax category and rate: category, rate, base and amount.
pub(super) fn breakdown(cx: &Cx) -> Value {
    let taxes = cx.doc.get("totals").and_then(|t| t.get("taxes"));
    let Some(taxes) = taxes else {
        return json!([]);
    };
    list(taxes, "categories")
        .iter()
        .flat_map(|c| {
            list(c, "rates").iter().map(move |r| {
                let rate = match Cx::text(r, "percent") {
                    "" => Cx::text(r, "key").to_string(),
                    p => cx.style.percent(p),
                };
                json!({
                    "category": Cx::text(c, "code"),
                    "rate": rate,
                    "base": cx.amount(Cx::text(r, "base")),
                    "amount": cx.amount(Cx::text(r, "amount")),
                })
            })
        })
        .collect()
}

/// The totals, each `[label, amount, strong]`, the ones the document states.
pub(super) fn totals(cx: &Cx) -> Value {
    let Some(t) = cx.doc.get("totals") else {
        return json!([]);
    };
    let rows = [
        ("sum", "sum", false),
        ("discount", "discounts", false),
        ("charge", "charges", false),
        ("total", "total", false),
        ("tax", "tax", false),
        ("total_with_tax", "total-with-tax", true),
        ("advance", "advances", false),
        ("payable", "payable", true),
    ];
    let mut out = Vec::new();
    for (field, label, strong) in rows {
        let value = Cx::text(t, field);
        // the sum equals the total when there are no discounts or charges: print it once
        if value.is_empty() || (field == "sum" && value == Cx::text(t, "total")) {
            continue;
        }
        out.push(json!([cx.label(label), cx.amount(value), strong]));
    }
    Value::Array(out)
}
