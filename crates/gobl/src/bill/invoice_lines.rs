//! Invoice lines and document-level discounts and charges: their amounts, computed at full
//! precision, then written back after the final rounding.

use crate::json::Value;

use super::CalcError;
use super::invoice_ctx::{Ctx, Rounding};
use super::line_amounts::{LINE_PRECISION_EXTRA, calculate_item_price, line_adjustment};
use super::val::{
    Obj, amount, amount_of, get, get_mut, has, insert_after, num_err, percent, set_amount,
    set_index,
};
use crate::fault::Path;
use crate::num::Amount;

/// The computed values of one line, written back after the final rounding.
pub(super) struct LineCalc {
    /// Decimals of the item's price, which the line's amounts are rounded to.
    price_exp: u32,
    pub(super) sum: Amount,
    pub(super) total: Amount,
    pub(super) discounts: Vec<Amount>,
    pub(super) charges: Vec<Amount>,
}

/// Number and calculate every line; `None` for a line that is not an object or has no price.
pub(super) fn calculate_lines(
    doc: &mut Obj,
    ctx: &Ctx,
) -> Result<Vec<Option<LineCalc>>, CalcError> {
    let mut line_calcs: Vec<Option<LineCalc>> = Vec::new();
    if let Some(lines) = get_mut(doc, "lines").and_then(Value::as_array_mut) {
        line_calcs.reserve(lines.len());
        let base = Path::Root("doc.lines");
        for (i, l) in lines.iter_mut().enumerate() {
            let Some(lo) = l.as_object_mut() else {
                line_calcs.push(None);
                continue;
            };
            let mut places = LinePlaces::of(lo);
            places.set_index(lo, i + 1);
            line_calcs.push(calculate_line(lo, &places, ctx, base.item(i))?);
        }
    }
    Ok(line_calcs)
}

/// The sum of the line totals, unrounded.
pub(super) fn sum_lines(lines: &[Option<LineCalc>], ctx: &Ctx) -> Result<Amount, CalcError> {
    let mut sum = ctx.zero();
    for lc in lines.iter().flatten() {
        sum = sum
            .match_precision(lc.total)
            .and_then(|s| s.add(lc.total))
            .map_err(num_err("doc.totals.sum"))?;
    }
    Ok(sum)
}

/// A line's sum (price × quantity), its discounts and charges, and its total; its members
/// are at `places`.
fn calculate_line(
    l: &mut Obj,
    places: &LinePlaces,
    ctx: &Ctx,
    path: Path,
) -> Result<Option<LineCalc>, CalcError> {
    let quantity = places.quantity.and_then(|at| l.value_at(at));
    let quantity = amount_of(quantity, "quantity", path)?.unwrap_or(Amount::ZERO);
    if places.item.is_none() {
        return Ok(None);
    }
    if places.sublines {
        super::sublines::calculate(l, ctx, path)?;
    }
    let item = places.item.and_then(|at| l.value_at_mut(at));
    let Some(item) = item.and_then(Value::as_object_mut) else {
        return Ok(None);
    };
    if get(item, "price").is_none_or(|v| v.is_null()) {
        item.remove("alt_prices");
        l.remove("sum");
        l.remove("total");
        return Ok(None);
    }
    let price = calculate_item_price(item, ctx, path)?;
    let price_exp = price.exp();
    let e = num_err(path);
    let mut exp = ctx.sub;
    if ctx.rr == Rounding::Precise {
        exp += LINE_PRECISION_EXTRA;
    }
    let price = price.rescale_up(exp).map_err(&e)?;
    let sum = ctx.apply(price.mul(quantity).map_err(&e)?).map_err(&e)?;
    let mut total = sum;
    let mut discounts = Vec::new();
    let ds = places.discounts.and_then(|at| l.value_at_mut(at));
    if let Some(ds) = ds.and_then(Value::as_array_mut) {
        let base = path.member("discounts");
        for (i, d) in ds.iter_mut().enumerate() {
            let Some(dobj) = d.as_object_mut() else {
                continue;
            };
            let a = line_adjustment(dobj, ctx, sum, None, base.item(i))?;
            total = total.sub(a).map_err(&e)?;
            discounts.push(a);
        }
    }
    let mut charges = Vec::new();
    let cs = places.charges.and_then(|at| l.value_at_mut(at));
    if let Some(cs) = cs.and_then(Value::as_array_mut) {
        let base = path.member("charges");
        for (i, c) in cs.iter_mut().enumerate() {
            let Some(cobj) = c.as_object_mut() else {
                continue;
            };
            let a = line_adjustment(cobj, ctx, sum, Some(quantity), base.item(i))?;
            total = total.add(a).map_err(&e)?;
            charges.push(a);
        }
    }
    Ok(Some(LineCalc {
        price_exp,
        sum,
        total,
        discounts,
        charges,
    }))
}

/// Document-level discounts or charges: index, amount. Returns the unrounded amounts.
pub(super) fn calculate_doc_adjustments(
    doc: &mut Obj,
    key: &str,
    ctx: &Ctx,
    sum: Amount,
) -> Result<Vec<Option<Amount>>, CalcError> {
    let mut out = Vec::new();
    let Some(list) = doc.get_mut(key).and_then(Value::as_array_mut) else {
        return Ok(out);
    };
    for (i, d) in list.iter_mut().enumerate() {
        let Some(o) = d.as_object_mut() else {
            out.push(None);
            continue;
        };
        let p = format!("doc.{key}[{i}]");
        let e = num_err(&p);
        set_index(o, i + 1);
        let mut amt = amount(o, "amount", &p)?.unwrap_or(Amount::ZERO);
        if let Some(pc) = percent(o, "percent", &p)? {
            let mut base = sum;
            if let Some(b) = amount(o, "base", &p)? {
                base = ctx
                    .apply(b.rescale_up(ctx.sub + LINE_PRECISION_EXTRA).map_err(&e)?)
                    .map_err(&e)?;
            }
            amt = pc.of(base).map_err(&e)?;
        }
        out.push(Some(ctx.apply(amt).map_err(&e)?));
    }
    Ok(out)
}

/// The sum of document discounts or charges, unrounded; `None` when there are none.
pub(super) fn sum_adjustments(
    list: &[Option<Amount>],
    ctx: &Ctx,
) -> Result<Option<Amount>, CalcError> {
    if list.is_empty() {
        return Ok(None);
    }
    let mut t = ctx.zero();
    for a in list.iter().flatten() {
        t = t
            .match_precision(*a)
            .and_then(|t| t.add(*a))
            .map_err(num_err("doc.totals"))?;
    }
    Ok(Some(t))
}

/// Write the rounded amounts of document discounts or charges (to their base's precision).
pub(super) fn write_doc_adjustments(
    doc: &mut Obj,
    key: &str,
    list: &[Option<Amount>],
    ctx: &Ctx,
) -> Result<(), CalcError> {
    let Some(arr) = doc.get_mut(key).and_then(Value::as_array_mut) else {
        return Ok(());
    };
    for (i, (v, a)) in arr.iter_mut().zip(list).enumerate() {
        let (Some(o), Some(a)) = (v.as_object_mut(), a) else {
            continue;
        };
        let p = format!("doc.{key}[{i}]");
        let mut e = ctx.sub;
        if let Some(b) = amount(o, "base", &p)? {
            e = b.exp();
        }
        let a = a.rescale_down(e).map_err(num_err(&p))?;
        set_adjustment_amount(o, a);
    }
    Ok(())
}

/// Write a discount's or charge's rounded amount: in place, else after its percent (or
/// reason).
fn set_adjustment_amount(o: &mut Obj, a: Amount) {
    if has(o, "amount") {
        set_amount(o, "amount", a);
    } else {
        let after = if has(o, "percent") {
            "percent"
        } else {
            "reason"
        };
        insert_after(o, after, "amount", Value::String(a.to_text()));
    }
}

/// Write each line's rounded sum, discounts, charges and total, to its price's precision.
pub(super) fn write_lines(doc: &mut Obj, calcs: &[Option<LineCalc>]) -> Result<(), CalcError> {
    let Some(lines) = get_mut(doc, "lines").and_then(Value::as_array_mut) else {
        return Ok(());
    };
    let base = Path::Root("doc.lines");
    for (i, (l, lc)) in lines.iter_mut().zip(calcs).enumerate() {
        let (Some(lo), Some(lc)) = (l.as_object_mut(), lc) else {
            continue;
        };
        let e = num_err(base.item(i));
        let pe = lc.price_exp;
        let places = LinePlaces::of(lo);
        if places.sublines {
            super::sublines::round(lo, pe, base.item(i))?;
        }
        let sum = lc.sum.rescale_down(pe).map_err(&e)?;
        let total = lc.total.rescale_down(pe).map_err(&e)?;
        for (at, vals) in [
            (places.discounts, &lc.discounts),
            (places.charges, &lc.charges),
        ] {
            let list = at.and_then(|at| lo.value_at_mut(at));
            for (d, a) in list
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
                .zip(vals)
            {
                if let Some(dobj) = d.as_object_mut() {
                    set_adjustment_amount(dobj, a.rescale_down(pe).map_err(&e)?);
                }
            }
        }
        // Keep GOBL's order: i, quantity, item, sum, discounts, charges, taxes, total. An
        // input's own `sum` and `total` go (the map fills a removed member's place with its
        // last one); the sum follows the item, the total comes last.
        let (sum, total) = (Value::String(sum.to_text()), Value::String(total.to_text()));
        if places.sum_or_total {
            for k in ["sum", "total"] {
                lo.remove(k);
            }
            let after = if places.item.is_some() {
                "item"
            } else {
                "quantity"
            };
            insert_after(lo, after, "sum", sum);
        } else {
            let at = places.item.or(places.quantity).map_or(lo.len(), |i| i + 1);
            lo.insert_absent(at, "sum".into(), sum);
        }
        lo.insert_absent(lo.len(), "total".into(), total);
    }
    Ok(())
}

/// Where the members of a line that its normalisation, calculation and write use are, found
/// in one pass over its members (rather than one look-up of each, several of which find
/// nothing).
#[derive(Default)]
pub(super) struct LinePlaces {
    i: Option<usize>,
    item: Option<usize>,
    quantity: Option<usize>,
    pub(super) taxes: Option<usize>,
    pub(super) discounts: Option<usize>,
    pub(super) charges: Option<usize>,
    /// An input `sum` or `total`, which the write replaces.
    sum_or_total: bool,
    /// A `breakdown` or `substituted`, whose sub-lines are rounded too.
    pub(super) sublines: bool,
}

impl LinePlaces {
    pub(super) fn of(line: &Obj) -> LinePlaces {
        let mut p = LinePlaces::default();
        for (i, k) in line.keys().enumerate() {
            match k.as_str() {
                "i" => p.i = Some(i),
                "item" => p.item = Some(i),
                "quantity" => p.quantity = Some(i),
                "taxes" => p.taxes = Some(i),
                "discounts" => p.discounts = Some(i),
                "charges" => p.charges = Some(i),
                "sum" | "total" => p.sum_or_total = true,
                "breakdown" | "substituted" => p.sublines = true,
                _ => {}
            }
        }
        p
    }

    /// Number the line: its `i` set in place, or inserted first (the others move one on).
    fn set_index(&mut self, line: &mut Obj, index: usize) {
        if let Some(v) = self.i.and_then(|at| line.value_at_mut(at)) {
            *v = Value::from(index);
            return;
        }
        line.insert_absent(0, "i".into(), Value::from(index));
        let places = [
            &mut self.item,
            &mut self.quantity,
            &mut self.taxes,
            &mut self.discounts,
            &mut self.charges,
        ];
        for at in places.into_iter().flatten() {
            *at += 1;
        }
        self.i = Some(0);
    }
}
