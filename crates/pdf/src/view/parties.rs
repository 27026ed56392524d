//! Supplier and customer blocks.

use serde_json::{Value, json};

use super::{Cx, list};

/// A party's name, tax id, address lines and contacts.
pub(super) fn party(_cx: &Cx, party: Option<&Value>) -> Value {
    let Some(p) = party else {
        return Value::Null;
    };
    let tax_id = p
        .get("tax_id")
        .map(|t| format!("{}{}", Cx::text(t, "country"), Cx::text(t, "code")))
        .filter(|t| !t.is_empty());
    let contacts: Vec<String> = list(p, "emails")
        .iter()
        .map(|e| Cx::text(e, "addr").to_string())
        .chain(
            list(p, "telephones")
                .iter()
                .map(|t| Cx::text(t, "num").to_string()),
        )
        .filter(|c| !c.is_empty())
        .collect();
    json!({
        "name": Cx::text(p, "name"),
        "alias": p.get("alias"),
        "tax_id": tax_id,
        "address": list(p, "addresses").first().map(address).unwrap_or_default(),
        "contacts": contacts,
    })
}

/// An address as the lines of an envelope window.
fn address(a: &Value) -> Vec<String> {
    let street = [Cx::text(a, "street"), Cx::text(a, "num")]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let town = [Cx::text(a, "code"), Cx::text(a, "locality")]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    [
        Cx::text(a, "po_box").to_string(),
        street,
        Cx::text(a, "street_extra").to_string(),
        town,
        Cx::text(a, "region").to_string(),
        Cx::text(a, "country").to_string(),
    ]
    .into_iter()
    .filter(|l| !l.is_empty())
    .collect()
}
