//! Invoice taxes: the combos of lines, discounts and charges, resolved to rates, grouped by
//! category and rate, and summed.

use std::fmt;
use std::ops::Range;
use std::rc::Rc;

use crate::json::Value;

use super::CalcError;
use super::combo::Combo;
use super::invoice_ctx::Ctx;
use super::invoice_lines::LineCalc;
use super::val::{Obj, field, field_mut, get, get_mut, num_err};
use crate::json::map::same_members;
use crate::num::{Amount, Percentage};
use crate::tax::RegimeDef;

/// Where a combo is: `doc.{arr}[{i}].taxes[{j}]`, spelled out only for an error.
#[derive(Debug, Clone, Copy)]
pub(super) struct ComboAt {
    arr: &'static str,
    i: usize,
    j: usize,
}

impl fmt::Display for ComboAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "doc.{}[{}].taxes[{}]", self.arr, self.i, self.j)
    }
}

/// A taxable total with the location of its combos.
pub(super) struct TaxLine {
    total: Amount,
    /// Where its combos are in [`TaxLines::combos`].
    combos: Range<usize>,
    /// (array name, index) of the owner: `lines`, `discounts` or `charges`.
    owner: (&'static str, usize),
}

/// The taxable lines, their combos in one list (not a list allocated per line).
pub(super) struct TaxLines {
    lines: Vec<TaxLine>,
    combos: Vec<(Combo, ComboAt)>,
    /// For each combo, the earlier one whose members are the same, if any: it is resolved
    /// and written as that one was (a combo's resolution reads only its own members and the
    /// document's regime and date), so lines' few distinct combos are worked out once each.
    same_as: Vec<Option<usize>>,
    /// The distinct `ext` maps of the combos, which share them.
    exts: Vec<Rc<Value>>,
}

impl TaxLines {
    pub(super) fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

pub(super) struct RateTotal {
    pub(super) country: Option<String>,
    pub(super) key: Option<String>,
    pub(super) ext: Option<Rc<Value>>,
    pub(super) base: Amount,
    pub(super) percent: Option<Percentage>,
    pub(super) surcharge: Option<(Percentage, Amount)>,
    pub(super) amount: Amount,
}

pub(super) struct CatTotal {
    pub(super) code: String,
    pub(super) retained: bool,
    pub(super) informative: bool,
    pub(super) rates: Vec<RateTotal>,
    pub(super) amount: Amount,
    pub(super) surcharge: Option<Amount>,
}

/// The sums of the tax categories: those added to the total, and those retained.
pub(super) struct TaxSums {
    pub(super) sum: Amount,
    pub(super) retained: Option<Amount>,
}

/// The taxable lines: lines with a total, discounts (negated) and charges (their combos
/// read with the texts of the invoice's `regime`).
pub(super) fn read_tax_lines(
    doc: &Obj,
    regime: Option<&'static RegimeDef>,
    lines: &[Option<LineCalc>],
    discounts: &[Option<Amount>],
    charges: &[Option<Amount>],
) -> Result<TaxLines, CalcError> {
    let mut tls = TaxLines {
        lines: Vec::with_capacity(lines.len() + discounts.len() + charges.len()),
        combos: Vec::with_capacity(lines.len()),
        same_as: Vec::with_capacity(lines.len()),
        exts: Vec::new(),
    };
    let mut read = ReadCombos {
        regime,
        distinct: Vec::new(),
    };
    for (i, lc) in lines.iter().enumerate() {
        if let Some(lc) = lc {
            read_tax_line(&mut tls, &mut read, doc, "lines", i, lc.total)?;
        }
    }
    for (i, d) in discounts.iter().enumerate() {
        if let Some(d) = d {
            let total = d.negate().map_err(num_err("doc.discounts"))?;
            read_tax_line(&mut tls, &mut read, doc, "discounts", i, total)?;
        }
    }
    for (i, c) in charges.iter().enumerate() {
        if let Some(c) = c {
            read_tax_line(&mut tls, &mut read, doc, "charges", i, *c)?;
        }
    }
    Ok(tls)
}

/// What reading the combos needs: the regime, and the distinct combos read so far (their
/// objects and places in [`TaxLines::combos`]).
struct ReadCombos<'d> {
    regime: Option<&'static RegimeDef>,
    distinct: Vec<(&'d Obj, usize)>,
}

/// The distinct combos looked through for a combo's twin; a document with more (each line
/// its own `ext`, say) has the rest read one by one.
const DISTINCT_COMBOS: usize = 16;

fn read_tax_line<'d>(
    tls: &mut TaxLines,
    read: &mut ReadCombos<'d>,
    doc: &'d Obj,
    arr: &'static str,
    i: usize,
    total: Amount,
) -> Result<(), CalcError> {
    let start = tls.combos.len();
    if let Some(taxes) = get(doc, arr)
        .and_then(Value::as_array)
        .and_then(|a| a.get(i))
        .and_then(|l| field(l, "taxes"))
        .and_then(Value::as_array)
    {
        for (j, t) in taxes.iter().enumerate() {
            let Some(o) = t.as_object() else { continue };
            let p = ComboAt { arr, i, j };
            let twin = read.distinct.iter().find(|(d, _)| same_members(d, o));
            let (c, same_as) = match twin {
                Some(&(_, k)) => (tls.combos[k].0.clone(), Some(k)),
                None => {
                    let c = Combo::read_sharing(o, read.regime, p, &mut tls.exts)?;
                    if read.distinct.len() < DISTINCT_COMBOS {
                        read.distinct.push((o, tls.combos.len()));
                    }
                    (c, None)
                }
            };
            tls.combos.push((c, p));
            tls.same_as.push(same_as);
        }
    }
    tls.lines.push(TaxLine {
        total,
        combos: start..tls.combos.len(),
        owner: (arr, i),
    });
    Ok(())
}

/// Resolve every combo (its rate on the tax date), raise the totals to subunits + 2, and
/// write the resolved combos back into the document.
pub(super) fn resolve_combos(
    doc: &mut Obj,
    tls: &mut TaxLines,
    ctx: &Ctx,
) -> Result<(), CalcError> {
    let zero = ctx.zero();
    for tl in tls.lines.iter_mut() {
        for k in tl.combos.clone() {
            // a twin comes after the combo it repeats, which is resolved by now
            match tls.same_as[k] {
                Some(first) => tls.combos[k].0 = tls.combos[first].0.clone(),
                None => {
                    let (c, p) = &mut tls.combos[k];
                    c.calculate(ctx.regime, ctx.date, *p)?;
                }
            }
            let p = tls.combos[k].1;
            tl.total = tl.total.rescale_up(zero.exp() + 2).map_err(num_err(p))?;
        }
    }
    // The written objects of the combos that have twins (a few), copied into the twins'.
    let mut written: Vec<(usize, Obj)> = Vec::new();
    for &first in tls.same_as.iter().flatten() {
        if !written.iter().any(|(k, _)| *k == first) {
            written.push((first, Obj::new()));
        }
    }
    for tl in tls.lines.iter() {
        write_combos(doc, tl, tls, &mut written);
    }
    Ok(())
}

fn write_combos(doc: &mut Obj, tl: &TaxLine, tls: &TaxLines, written: &mut [(usize, Obj)]) {
    let (arr, i) = tl.owner;
    let Some(taxes) = get_mut(doc, arr)
        .and_then(Value::as_array_mut)
        .and_then(|a| a.get_mut(i))
        .and_then(|l| field_mut(l, "taxes"))
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    let mut k = tl.combos.start;
    for t in taxes.iter_mut() {
        if let Some(o) = t.as_object_mut() {
            if !tl.combos.contains(&k) {
                break;
            }
            let first = tls.same_as[k].unwrap_or(k);
            let copy = written.iter_mut().find(|(f, _)| *f == first);
            match (tls.same_as[k], copy) {
                (Some(_), Some((_, w))) => o.clone_from(w),
                (None, Some((_, w))) => {
                    tls.combos[k].0.write(o);
                    w.clone_from(o);
                }
                _ => tls.combos[k].0.write(o),
            }
            k += 1;
        }
    }
}

/// Take the tax of category `pit` (`tax.prices_include`) out of each taxable total.
pub(super) fn remove_included_tax(tls: &mut TaxLines, pit: &str) -> Result<(), CalcError> {
    for tl in tls.lines.iter_mut() {
        let combos = &tls.combos[tl.combos.clone()];
        if let Some((c, p)) = combos.iter().find(|(c, _)| c.cat == pit) {
            if c.retained {
                return Err(CalcError::new(
                    "doc.tax.prices_include",
                    format!("cannot include retained category '{pit}'"),
                ));
            }
            if c.informative {
                return Err(CalcError::new(
                    "doc.tax.prices_include",
                    format!("cannot include informative category '{pit}'"),
                ));
            }
            if let Some(pc) = c.percent {
                tl.total = pc.remove_from(tl.total).map_err(num_err(*p))?;
            }
        }
    }
    Ok(())
}

/// Group the taxable totals by category and rate, summing their bases.
pub(super) fn sum_bases(tls: &TaxLines, ctx: &Ctx) -> Result<Vec<CatTotal>, CalcError> {
    let zero = ctx.zero();
    let mut cats: Vec<CatTotal> = Vec::new();
    for tl in &tls.lines {
        for (c, p) in &tls.combos[tl.combos.clone()] {
            let rt = rate_total_for(&mut cats, c, zero);
            rt.base = ctx
                .match_rounding(rt.base, tl.total)
                .and_then(|b| b.add(tl.total))
                .map_err(num_err(*p))?;
        }
    }
    Ok(cats)
}

fn rate_total_for<'a>(cats: &'a mut Vec<CatTotal>, c: &Combo, zero: Amount) -> &'a mut RateTotal {
    let ci = match cats.iter().position(|ct| ct.code == c.cat) {
        Some(i) => i,
        None => {
            cats.push(CatTotal {
                code: c.cat.to_string(),
                retained: c.retained,
                informative: c.informative,
                rates: Vec::new(),
                amount: zero,
                surcharge: None,
            });
            cats.len() - 1
        }
    };
    let ct = &mut cats[ci];
    let matches = |rt: &RateTotal| -> bool {
        if rt.ext != c.ext || rt.country != c.country {
            return false;
        }
        match (rt.percent, c.percent) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                match (&rt.surcharge, &c.surcharge) {
                    (None, None) => {}
                    (Some((sa, _)), Some(sb)) => {
                        if !sa.equals(sb) {
                            return false;
                        }
                    }
                    _ => return false,
                }
                a.equals(&b)
            }
            _ => false,
        }
    };
    let ri = match ct.rates.iter().position(matches) {
        Some(i) => i,
        None => {
            ct.rates.push(RateTotal {
                country: c.country.clone(),
                key: c.key.as_deref().map(str::to_string),
                ext: c.ext.clone(),
                base: zero,
                percent: c.percent,
                surcharge: c.surcharge.map(|s| (s, zero)),
                amount: zero,
            });
            ct.rates.len() - 1
        }
    };
    &mut ct.rates[ri]
}

/// Compute each rate's and category's amount, and sum the categories (informative ones
/// apart).
pub(super) fn sum_taxes(cats: &mut [CatTotal], ctx: &Ctx) -> Result<TaxSums, CalcError> {
    let zero = ctx.zero();
    let mut sums = TaxSums {
        sum: zero,
        retained: None,
    };
    let e = num_err("doc.totals.taxes");
    for ct in cats.iter_mut() {
        category_amounts(ct, ctx)?;
        if ct.informative {
            continue;
        }
        let s = if ct.retained {
            sums.retained.get_or_insert(zero)
        } else {
            &mut sums.sum
        };
        *s = ctx
            .match_rounding(*s, ct.amount)
            .and_then(|t| t.add(ct.amount))
            .map_err(&e)?;
        if let Some(surcharge) = ct.surcharge {
            *s = s.add(surcharge).map_err(&e)?;
        }
    }
    Ok(sums)
}

/// The tax (and surcharge) of each rate of a category, and the category's sums of them.
fn category_amounts(ct: &mut CatTotal, ctx: &Ctx) -> Result<(), CalcError> {
    let zero = ctx.zero();
    let e = num_err("doc.totals.taxes");
    ct.amount = zero;
    for rt in ct.rates.iter_mut() {
        let Some(pc) = rt.percent else {
            rt.amount = zero;
            continue;
        };
        rt.amount = pc.of(rt.base).map_err(&e)?;
        ct.amount = ctx
            .match_rounding(ct.amount, rt.amount)
            .and_then(|a| a.add(rt.amount))
            .map_err(&e)?;
        if let Some((sp, sa)) = rt.surcharge.as_mut() {
            *sa = sp.of(rt.base).map_err(&e)?;
            let x = ct.surcharge.unwrap_or(zero);
            ct.surcharge = Some(
                ctx.match_rounding(x, *sa)
                    .and_then(|x| x.add(*sa))
                    .map_err(&e)?,
            );
        }
    }
    Ok(())
}

/// The tax of category `tax.prices_include`, already included in the prices.
pub(super) fn included_tax(cats: &[CatTotal], ctx: &Ctx) -> Option<Amount> {
    let pit = ctx.prices_include.as_ref()?;
    cats.iter().find(|c| &c.code == pit).map(|ct| ct.amount)
}
