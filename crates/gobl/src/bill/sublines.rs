//! A line's sub-lines: its `breakdown`, whose totals add up to the line's item price, and
//! the items it `substituted`, calculated for reference only. Sub-lines are calculated at
//! full precision and rounded with their line, to its item price's decimals.

use crate::json::Value;

use super::CalcError;
use super::invoice_ctx::{Ctx, Rounding};
use super::line_amounts::{LINE_PRECISION_EXTRA, calculate_item_price, line_adjustment};
use super::val::{Obj, amount, get, get_mut, insert_after, num_err, set_amount, set_index};
use crate::fault::Path;
use crate::num::Amount;

/// The members of a line that hold sub-lines.
const SUBLINES: &[&str] = &["breakdown", "substituted"];

/// Calculate a line's sub-lines; with a breakdown that has prices, the line's item takes
/// their sum as its price, in the document's currency.
pub(super) fn calculate(l: &mut Obj, ctx: &Ctx, path: Path) -> Result<(), CalcError> {
    for key in SUBLINES {
        let Some(Value::Array(subs)) = get_mut(l, key) else {
            continue;
        };
        let base = path.member(key);
        let mut price: Option<Amount> = None;
        let mut exp = 0;
        for (i, s) in subs.iter_mut().enumerate() {
            let Some(so) = s.as_object_mut() else {
                continue;
            };
            set_index(so, i + 1);
            let p = base.item(i);
            let Some((total, price_exp)) = calculate_one(so, ctx, p)? else {
                continue;
            };
            exp = exp.max(price_exp);
            let sum = price.unwrap_or_else(|| ctx.zero());
            let sum = sum.match_precision(total).and_then(|s| s.add(total));
            price = Some(sum.map_err(num_err(p))?);
        }
        if *key == "breakdown"
            && let Some(np) = price
        {
            set_breakdown_price(l, ctx, np.rescale(exp).map_err(num_err(base))?);
        }
    }
    Ok(())
}

fn set_breakdown_price(l: &mut Obj, ctx: &Ctx, price: Amount) {
    if let Some(item) = get_mut(l, "item").and_then(Value::as_object_mut) {
        item.insert("currency".into(), Value::String(ctx.cur.clone().into()));
        set_amount(item, "price", price);
        item.remove("alt_prices");
    }
}

/// A sub-line's sum and total, unrounded: its total and its price's decimals, `None` when
/// it has no priced item.
fn calculate_one(s: &mut Obj, ctx: &Ctx, path: Path) -> Result<Option<(Amount, u32)>, CalcError> {
    let quantity = amount(s, "quantity", path)?.unwrap_or(Amount::ZERO);
    let Some(item) = get_mut(s, "item").and_then(Value::as_object_mut) else {
        return Ok(None);
    };
    if get(item, "price").is_none_or(Value::is_null) {
        s.remove("sum");
        s.remove("total");
        return Ok(None);
    }
    let price = calculate_item_price(item, ctx, path)?;
    let price_exp = price.exp();
    let e = num_err(path);
    let price = match ctx.rr {
        Rounding::Precise => price
            .rescale_up(ctx.sub + LINE_PRECISION_EXTRA)
            .map_err(&e)?,
        Rounding::Currency => price,
    };
    let sum = ctx.apply(price.mul(quantity).map_err(&e)?).map_err(&e)?;
    let mut total = sum;
    for (key, sign) in [("discounts", -1), ("charges", 1)] {
        let Some(Value::Array(list)) = get_mut(s, key) else {
            continue;
        };
        let base = path.member(key);
        for (i, d) in list.iter_mut().enumerate() {
            let Some(o) = d.as_object_mut() else { continue };
            let q = (sign > 0).then_some(quantity);
            let a = line_adjustment(o, ctx, sum, q, base.item(i))?;
            set_amount(o, "amount", a);
            total = if sign > 0 { total.add(a) } else { total.sub(a) }.map_err(&e)?;
        }
    }
    s.remove("sum");
    s.remove("total");
    let after = if s.contains_key("item") {
        "item"
    } else {
        "quantity"
    };
    insert_after(s, after, "sum", Value::String(sum.to_text()));
    s.insert("total".into(), Value::String(total.to_text()));
    Ok(Some((total, price_exp)))
}

/// Round the sub-lines' sums and totals to `exp`, their line's item price's decimals.
pub(super) fn round(l: &mut Obj, exp: u32, path: Path) -> Result<(), CalcError> {
    for key in SUBLINES {
        let Some(Value::Array(subs)) = get_mut(l, key) else {
            continue;
        };
        for s in subs.iter_mut().filter_map(Value::as_object_mut) {
            for k in ["sum", "total"] {
                if let Some(a) = amount(s, k, path)? {
                    set_amount(s, k, a.rescale_down(exp).map_err(num_err(path))?);
                }
            }
        }
    }
    Ok(())
}

/// Normalise a line's sub-lines: amounts as strings, a negative price made positive with
/// the quantity negated, empty sub-lines, discounts and charges dropped.
pub(super) fn normalize(l: &mut Obj) {
    for key in SUBLINES {
        let Some(Value::Array(subs)) = get_mut(l, key) else {
            continue;
        };
        subs.retain(|s| s.as_object().is_some_and(|o| !o.is_empty()));
        for s in subs.iter_mut().filter_map(Value::as_object_mut) {
            normalize_one(s);
        }
        if subs.is_empty() {
            l.remove(key);
        }
    }
}

fn normalize_one(s: &mut Obj) {
    stringify(s, "quantity");
    if let Some(item) = get_mut(s, "item").and_then(Value::as_object_mut) {
        stringify(item, "price");
        let neg = amount(item, "price", "")
            .ok()
            .flatten()
            .filter(Amount::is_negative);
        if let Some(p) = neg.and_then(|p| p.negate().ok()) {
            set_amount(item, "price", p);
            if let Some(q) = amount(s, "quantity", "").ok().flatten()
                && let Ok(nq) = q.negate()
            {
                set_amount(s, "quantity", nq);
            }
        }
    }
    for key in ["discounts", "charges"] {
        let Some(Value::Array(list)) = get_mut(s, key) else {
            continue;
        };
        list.retain(|d| d.as_object().is_some_and(|o| !o.is_empty()));
        for d in list.iter_mut().filter_map(Value::as_object_mut) {
            for f in ["amount", "base", "rate", "quantity"] {
                stringify(d, f);
            }
        }
        if list.is_empty() {
            s.remove(key);
        }
    }
}

/// A numeric amount as its string form (`20` → `"20"`).
fn stringify(o: &mut Obj, k: &str) {
    if let Some(v @ Value::Number(_)) = get_mut(o, k) {
        *v = Value::String(v.to_string().into());
    }
}
