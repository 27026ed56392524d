//! The lines table.

use serde_json::{Value, json};

use super::{Cx, list};

/// Each line: position, name, quantity and unit, price, discounts, taxes and total.
pub(super) fn lines(cx: &Cx) -> Value {
    list(cx.doc, "lines")
        .iter()
        .enumerate()
        .map(|(n, l)| line(cx, n, l))
        .collect()
}

fn line(cx: &Cx, n: usize, l: &Value) -> Value {
    let item = l.get("item").cloned().unwrap_or(Value::Null);
    let unit = Cx::text(&item, "unit");
    let quantity = cx.style.number(Cx::text(l, "quantity"));
    let quantity = if unit.is_empty() || unit == "one" {
        quantity
    } else {
        format!("{quantity} {unit}")
    };
    let discount: Vec<String> = list(l, "discounts")
        .iter()
        .map(|d| match Cx::text(d, "percent") {
            "" => cx.amount(Cx::text(d, "amount")),
            p => cx.style.percent(p),
        })
        .collect();
    let taxes: Vec<String> = list(l, "taxes")
        .iter()
        .map(|t| match Cx::text(t, "percent") {
            "" => Cx::text(t, "cat").to_string(),
            p => format!("{} {}", Cx::text(t, "cat"), cx.style.percent(p)),
        })
        .collect();
    let i = l.get("i").and_then(Value::as_u64).unwrap_or(n as u64 + 1);
    json!({
        "i": i.to_string(),
        "name": Cx::text(&item, "name"),
        "description": item.get("description"),
        "quantity": quantity,
        "price": cx.amount(Cx::text(&item, "price")),
        "discount": discount.join(", "),
        "taxes": taxes.join(", "),
        "total": cx.amount(Cx::text(l, "total")),
    })
}
