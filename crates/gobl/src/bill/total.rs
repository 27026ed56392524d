//! Recalculating a tax total given as JSON (`categories[].rates[]` with bases and percents),
//! as embedded in payment lines and document references.

use crate::json::Value;

use super::CalcError;
use super::val::{Obj, amount, num_err, percent, set_amount};
use crate::currency::{self, ExchangeRate};
use crate::num::{Amount, NumError};

/// Raise `a` to `b`'s precision under `precise` rounding; keep it under `currency`.
fn keep(precise: bool, a: Amount, b: Amount) -> Result<Amount, NumError> {
    if precise { a.match_precision(b) } else { Ok(a) }
}

/// Apply `f` to every rate's base.
pub(crate) fn map_bases(
    t: &mut Obj,
    path: &str,
    f: impl Fn(Amount) -> Result<Amount, NumError>,
) -> Result<(), CalcError> {
    for (ci, c) in cats(t).enumerate() {
        for (ri, r) in rates(c).enumerate() {
            let p = format!("{path}.categories[{ci}].rates[{ri}]");
            let b = amount(r, "base", &p)?.unwrap_or(Amount::ZERO);
            set_amount(r, "base", f(b).map_err(num_err(&p))?);
        }
    }
    Ok(())
}

fn cats(t: &mut Obj) -> impl Iterator<Item = &mut Obj> {
    t.get_mut("categories")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

fn rates(c: &mut Obj) -> impl Iterator<Item = &mut Obj> {
    c.get_mut("rates")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// Recalculate a tax total in a currency of `sub` decimals: each rate's amount (and
/// surcharge) from its percent and base, each category's amount, then the total's `sum` and
/// `retained` (from categories flagged `retained`; `informative` ones count in neither).
pub(crate) fn calculate(t: &mut Obj, sub: u32, precise: bool, path: &str) -> Result<(), CalcError> {
    let zero = Amount::zero(sub);
    let mut sum = zero;
    let mut retained: Option<Amount> = None;
    for (ci, c) in cats(t).enumerate() {
        let cp = format!("{path}.categories[{ci}]");
        let mut ca = zero;
        let mut cs: Option<Amount> = None;
        for (ri, r) in rates(c).enumerate() {
            let p = format!("{cp}.rates[{ri}]");
            let e = num_err(&p);
            let Some(pc) = percent(r, "percent", &p)? else {
                set_amount(r, "amount", zero);
                continue;
            };
            let base = amount(r, "base", &p)?.unwrap_or(zero);
            let ra = pc.of(base).map_err(&e)?;
            set_amount(r, "amount", ra);
            ca = keep(precise, ca, ra).and_then(|x| x.add(ra)).map_err(&e)?;
            if let Some(s) = r.get_mut("surcharge").and_then(Value::as_object_mut)
                && let Some(sp) = percent(s, "percent", &p)?
            {
                let sa = sp.of(base).map_err(&e)?;
                set_amount(s, "amount", sa);
                let x = cs.unwrap_or(zero);
                cs = Some(keep(precise, x, sa).and_then(|x| x.add(sa)).map_err(&e)?);
            }
        }
        let e = num_err(&cp);
        set_amount(c, "amount", ca);
        if let Some(s) = cs {
            set_amount(c, "surcharge", s);
        }
        let flag = |k: &str| c.get(k).and_then(Value::as_bool) == Some(true);
        if flag("informative") {
            continue;
        }
        let add = |acc: Amount| -> Result<Amount, NumError> {
            let x = keep(precise, acc, ca)?.add(ca)?;
            match cs {
                Some(s) => x.add(s),
                None => Ok(x),
            }
        };
        if flag("retained") {
            retained = Some(add(retained.unwrap_or(zero)).map_err(&e)?);
        } else {
            sum = add(sum).map_err(&e)?;
        }
    }
    set_amount(t, "sum", sum);
    if let Some(r) = retained {
        set_amount(t, "retained", r);
    }
    Ok(())
}

/// Round every base, amount and surcharge of a calculated tax total to `sub` decimals.
pub(crate) fn round(t: &mut Obj, sub: u32, path: &str) -> Result<(), CalcError> {
    let e = num_err(path);
    let r = |o: &mut Obj, k: &str| -> Result<(), CalcError> {
        if let Some(a) = amount(o, k, path)? {
            set_amount(o, k, a.rescale(sub).map_err(&e)?);
        }
        Ok(())
    };
    for c in cats(t) {
        for rt in rates(c) {
            r(rt, "amount")?;
            r(rt, "base")?;
            if let Some(s) = rt.get_mut("surcharge").and_then(Value::as_object_mut) {
                r(s, "amount")?;
            }
        }
        r(c, "amount")?;
        r(c, "surcharge")?;
    }
    r(t, "sum")?;
    r(t, "retained")
}

/// Recalculate and round the tax totals of the document references in `doc[list]` (e.g.
/// `preceding`), each in its own currency when it gives one, else in `cur`.
pub(crate) fn calculate_refs(
    doc: &mut Obj,
    list: &str,
    cur: &str,
    precise: bool,
) -> Result<(), CalcError> {
    let refs = doc.get_mut(list).and_then(Value::as_array_mut);
    for (i, r) in refs.into_iter().flatten().enumerate() {
        let Some(r) = r.as_object_mut() else { continue };
        let c = r.get("currency").and_then(Value::as_str).unwrap_or(cur);
        let sub = currency::subunits(c).unwrap_or(2);
        if let Some(t) = r.get_mut("tax").and_then(Value::as_object_mut) {
            let path = format!("doc.{list}[{i}].tax");
            calculate(t, sub, precise, &path)?;
            round(t, sub, &path)?;
        }
    }
    Ok(())
}

/// Convert every base with an exchange rate (rounded to the target currency).
pub(crate) fn exchange(t: &mut Obj, rate: &ExchangeRate, path: &str) -> Result<(), CalcError> {
    let rates = std::slice::from_ref(rate);
    map_bases(t, path, |b| {
        currency::convert(rates, &rate.from, &rate.to, b).unwrap_or(Ok(b))
    })
}
