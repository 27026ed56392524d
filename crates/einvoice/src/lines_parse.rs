//! GOBL lines from BG-25 invoice lines (the reading twin of `lines.rs`).

use en16931::InvoiceLine;
use en16931::invoice::{LineAllowanceCharge, LineVat};
use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

use crate::party_parse::{put, put_list};
use crate::{Finding, Severity};

/// Every line, with a note for each price folio had to restate.
pub(crate) fn read(lines: &[InvoiceLine], notes: &mut Vec<Finding>) -> Vec<Value> {
    lines
        .iter()
        .enumerate()
        .map(|(n, l)| line(n, l, notes))
        .collect()
}

fn line(n: usize, l: &InvoiceLine, notes: &mut Vec<Finding>) -> Value {
    let qty = l.quantity.into_decimal();
    let mut price = unit_price(l);
    let allowances: Decimal = l.allowances.iter().map(|a| a.amount.into_decimal()).sum();
    let charges: Decimal = l.charges.iter().map(|c| c.amount.into_decimal()).sum();
    let net = l.net_amount.into_decimal();
    // GOBL calculates the line total from quantity and price: keep the document's net amount
    // by restating the price when the document's own figures do not multiply out.
    let computed = (qty * price).round_dp(2) - allowances + charges;
    if computed != net && !qty.is_zero() {
        price = ((net + allowances - charges) / qty).round_dp(8).normalize();
        notes.push(Finding {
            rule: "folio-restated".into(),
            severity: Severity::Information,
            path: format!("BG-25[{}]/BT-146", n + 1),
            message: format!(
                "quantity × price does not give the line net amount {net}; price restated as {price}"
            ),
        });
    }
    let mut item = Map::new();
    put(&mut item, "ref", l.item.seller_identifier.as_deref());
    put(&mut item, "name", l.item.name.as_deref());
    put(&mut item, "description", l.item.description.as_deref());
    item.insert("price".into(), json!(price.normalize().to_string()));
    item.insert(
        "unit".into(),
        json!(crate::lines::gobl_unit(l.unit_code.as_str())),
    );
    if let Some(id) = &l.item.standard_identifier {
        let mut identity = json!({"code": id.content()});
        if let Some(s) = id.scheme() {
            identity["ext"] = json!({"iso-scheme-id": s});
        }
        item.insert("identities".into(), json!([identity]));
    }
    put(
        &mut item,
        "origin",
        l.item.origin_country.as_ref().map(|c| c.as_str()),
    );
    let mut out = Map::new();
    out.insert("quantity".into(), json!(qty.normalize().to_string()));
    out.insert("item".into(), Value::Object(item));
    let discounts = l.allowances.iter();
    put_list(
        &mut out,
        "discounts",
        discounts
            .map(|a| allowance_charge(a, "untdid-allowance"))
            .collect(),
    );
    let charges = l.charges.iter();
    put_list(
        &mut out,
        "charges",
        charges
            .map(|c| allowance_charge(c, "untdid-charge"))
            .collect(),
    );
    out.insert("taxes".into(), json!([vat_combo(&l.vat)]));
    if let Some(note) = l.note.as_deref() {
        out.insert("notes".into(), json!([{"text": note}]));
    }
    Value::Object(out)
}

/// BT-146 per unit: net price over the base quantity (BT-149).
fn unit_price(l: &InvoiceLine) -> Decimal {
    let price = l.price.net_price.into_decimal();
    match l.price.base_quantity.map(|q| q.into_decimal()) {
        Some(base) if !base.is_zero() => price / base,
        _ => price,
    }
}

fn allowance_charge(a: &LineAllowanceCharge, reason_ext: &str) -> Value {
    let mut out = Map::new();
    put(&mut out, "reason", a.reason.as_deref());
    out.insert("amount".into(), json!(a.amount.to_string()));
    if let Some(code) = &a.reason_code {
        out.insert("ext".into(), json!({reason_ext: code.as_str()}));
    }
    Value::Object(out)
}

/// A GOBL VAT combo: the category as the add-on's `untdid-tax-category`, and the rate as a
/// percentage when the document states one.
pub(crate) fn vat_combo(vat: &LineVat) -> Value {
    let mut combo = json!({"cat": "VAT", "ext": {"untdid-tax-category": vat.category.as_str()}});
    // "not subject to VAT" states no rate (BR-O-05); a 0 % here would split its breakdown
    if let Some(rate) = vat.rate.filter(|_| vat.category.as_str() != "O") {
        combo["percent"] = json!(format!("{}%", rate.normalized()));
    }
    combo
}
