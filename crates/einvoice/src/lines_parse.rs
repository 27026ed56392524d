//! GOBL lines from BG-25 invoice lines (the reading twin of `lines.rs`).

use en16931::InvoiceLine;
use en16931::invoice::{LineAllowanceCharge, LineVat};
use gobl::json;
use gobl::json::{Map, Value};
use rust_decimal::Decimal;

use crate::party_parse::{put, put_list};
use crate::{Finding, Severity};

/// Every line, with a note for each price folio had to restate; a line whose figures no
/// decimal holds (quantity × price beyond 28 digits) is refused, never rounded away.
pub(crate) fn read(lines: &[InvoiceLine], notes: &mut Vec<Finding>) -> Result<Vec<Value>, Finding> {
    let mut combos = VatCombos::default();
    lines
        .iter()
        .enumerate()
        .map(|(n, l)| line(n, l, notes, &mut combos))
        .collect()
}

/// The VAT combos of the lines read so far: lines share a few rates, and a copy of a combo
/// costs a third of making it (a map, its extension map, the rate written out).
#[derive(Default)]
struct VatCombos(Vec<(LineVat, Value)>);

impl VatCombos {
    /// The combo of `vat`: [`vat_combo`] of it, made once per distinct category and rate (the
    /// rate compares by value, and equal rates are written alike, normalised).
    fn get(&mut self, vat: &LineVat) -> Value {
        if let Some((_, combo)) = self.0.iter().find(|(v, _)| v == vat) {
            return combo.clone();
        }
        let combo = vat_combo(vat);
        self.0.push((vat.clone(), combo.clone()));
        combo
    }
}

/// The refusal of a line whose arithmetic overflows.
fn overflow(n: usize, what: &str) -> Finding {
    Finding {
        rule: "folio-overflow".into(),
        severity: Severity::Fatal,
        path: format!("BG-25[{}]", n + 1),
        message: format!(
            "{what} is too large to calculate exactly (at most 28 significant digits)"
        ),
    }
}

/// Rounded half away from zero, as GOBL rounds.
fn round(d: Decimal, dp: u32) -> Decimal {
    d.round_dp_with_strategy(dp, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
}

/// The line sum GOBL calculates (under the `currency` rounding the reader asks for): the
/// product at the price's decimals (at least the cent's), then to the cent.
fn gobl_sum(qty: Decimal, price: Decimal) -> Option<Decimal> {
    let product = qty.checked_mul(price)?;
    Some(round(round(product, price.scale().max(2)), 2))
}

fn line(
    n: usize,
    l: &InvoiceLine,
    notes: &mut Vec<Finding>,
    combos: &mut VatCombos,
) -> Result<Value, Finding> {
    let qty = l.quantity.into_decimal();
    let mut price = unit_price(l).ok_or_else(|| overflow(n, "the unit price (BT-146 / BT-149)"))?;
    let sum = |amounts: &[LineAllowanceCharge]| {
        amounts
            .iter()
            .try_fold(Decimal::ZERO, |a, b| a.checked_add(b.amount.into_decimal()))
    };
    let allowances =
        sum(&l.allowances).ok_or_else(|| overflow(n, "the sum of the line allowances"))?;
    let charges = sum(&l.charges).ok_or_else(|| overflow(n, "the sum of the line charges"))?;
    let net = l.net_amount.into_decimal();
    let total = |price: Decimal| {
        gobl_sum(qty, price)
            .and_then(|s| s.checked_sub(allowances))
            .and_then(|s| s.checked_add(charges))
            .ok_or_else(|| overflow(n, "quantity × price (BT-129 × BT-146)"))
    };
    // GOBL calculates the line total from quantity and price, rounding the product to the
    // price's decimals before the cent: a price written with as many decimals as the product
    // has keeps that exact, and a price whose figures do not multiply out to the document's
    // net amount is restated (and noted) so that the net amount is kept.
    let mut computed = total(price)?;
    if computed != net {
        let mut padded = price;
        let exact = (qty.scale() + price.scale()).min(20);
        if exact > padded.scale() {
            padded.rescale(exact);
        }
        // `rescale` rounds when the mantissa cannot take the decimals: then it is not exact
        if padded == price && total(padded)? == net {
            price = padded;
            computed = net;
        }
    }
    if computed != net && !qty.is_zero() {
        price = net
            .checked_add(allowances)
            .and_then(|v| v.checked_sub(charges))
            .and_then(|v| v.checked_div(qty))
            .ok_or_else(|| overflow(n, "the restated unit price"))?
            .round_dp(8)
            .normalize();
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
    // values are made as they are (`json!` of an expression goes through a serialiser)
    item.insert("price".into(), Value::String(price.to_string().into()));
    item.insert(
        "unit".into(),
        Value::String(crate::lines::gobl_unit(l.unit_code.as_str()).into()),
    );
    if let Some(id) = &l.item.standard_identifier {
        let mut identity = json!({"code": id.content()});
        if let Some(s) = id.scheme() {
            identity["ext"] = json!({"iso-scheme-id": s});
        }
        item.insert("identities".into(), Value::Array(vec![identity]));
    }
    put(
        &mut item,
        "origin",
        l.item.origin_country.as_ref().map(|c| c.as_str()),
    );
    // Sized for what the build adds (`i`, `sum`, `total`), with the index GOBL gives the line
    // already first: the build then writes its members without growing or moving the map.
    let mut out = Map::with_capacity(10);
    out.insert("i".into(), Value::from(n + 1));
    out.insert(
        "quantity".into(),
        Value::String(qty.normalize().to_string().into()),
    );
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
    out.insert("taxes".into(), Value::Array(vec![combos.get(&l.vat)]));
    if let Some(note) = l.note.as_deref() {
        out.insert("notes".into(), json!([{"text": note}]));
    }
    Ok(Value::Object(out))
}

/// BT-146 per unit: net price over the base quantity (BT-149); `None` when no decimal holds
/// the quotient.
fn unit_price(l: &InvoiceLine) -> Option<Decimal> {
    let price = l.price.net_price.into_decimal();
    match l.price.base_quantity.map(|q| q.into_decimal()) {
        Some(base) if !base.is_zero() => price.checked_div(base),
        _ => Some(price),
    }
}

fn allowance_charge(a: &LineAllowanceCharge, reason_ext: &str) -> Value {
    let mut out = Map::new();
    put(&mut out, "reason", a.reason.as_deref());
    out.insert("amount".into(), Value::String(a.amount.to_string().into()));
    if let Some(code) = &a.reason_code {
        out.insert("ext".into(), json!({reason_ext: code.as_str()}));
    }
    Value::Object(out)
}

/// A GOBL VAT combo: the category as the add-on's `untdid-tax-category` and as GOBL's tax key
/// (what the regimes check the rate against), and the rate as a percentage when the category
/// has one. The keys GOBL defines without a percentage (exempt, reverse charge,
/// intra-community, export, outside the scope) take none, whatever the document states.
pub(crate) fn vat_combo(vat: &LineVat) -> Value {
    let category = vat.category.as_str();
    let mut combo = Map::with_capacity(4);
    combo.insert("cat".into(), Value::from("VAT"));
    let key = match category {
        "S" => Some("standard"),
        "Z" => Some("zero"),
        "E" => Some("exempt"),
        "AE" => Some("reverse-charge"),
        "K" => Some("intra-community"),
        "G" => Some("export"),
        "O" => Some("outside-scope"),
        _ => None,
    };
    if let Some(key) = key {
        combo.insert("key".into(), Value::from(key));
    }
    let has_percent = !matches!(category, "E" | "AE" | "K" | "G" | "O");
    if let Some(rate) = vat.rate.filter(|_| has_percent) {
        combo.insert(
            "percent".into(),
            Value::String(format!("{}%", rate.normalized()).into()),
        );
    } else if category == "Z" {
        combo.insert("percent".into(), Value::from("0%"));
    }
    // In the order the build writes a combo's members (the percent before the ext), so that
    // it has none to move.
    let mut ext = Map::with_capacity(1);
    ext.insert("untdid-tax-category".into(), Value::from(category));
    combo.insert("ext".into(), Value::Object(ext));
    Value::Object(combo)
}
