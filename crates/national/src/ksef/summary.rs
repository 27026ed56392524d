//! The VAT summary: the taxable base (`P_13_x`) and tax (`P_14_x`) of each FA(3) tax
//! category, from the VAT rates of the totals. A settlement invoice that deducts advances
//! shows only what remains, each rate prorated by what is due over what is payable. An
//! invoice in another currency also gives each tax in złoty (`P_14_xW`) at its rate to PLN.

use std::collections::BTreeMap;

use gobl::model::RateTotal;
use gobl::num::Amount;

use super::Error;
use super::codes::{CATEGORIES, rate_category};
use super::ctx::Ctx;
use super::format::amount;
use crate::xml::Xml;

/// Base and tax of one category.
#[derive(Default, Clone, Copy)]
struct Sums {
    base: Option<Amount>,
    tax: Option<Amount>,
}

pub(super) fn write(x: &mut Xml, ctx: &Ctx) -> Result<(), Error> {
    let sums = by_category(ctx)?;
    let to_pln = ctx
        .inv
        .exchange_rate_to("PLN")
        .filter(|_| ctx.inv.currency != "PLN")
        .map(|r| r.amount);
    for cat in CATEGORIES {
        let Some(s) = sums.get(*cat) else { continue };
        let field = cat.replace('.', "_");
        let base = s.base.unwrap_or_default();
        x.text(&format!("P_13_{field}"), &amount(ctx.sign.of(base)));
        if with_tax(cat) {
            let tax = s.tax.unwrap_or_else(|| Amount::new(0, 2));
            x.text(&format!("P_14_{field}"), &amount(ctx.sign.of(tax)));
            if let Some(rate) = to_pln.filter(|_| *cat != "5") {
                // The tax in złoty (`P_14_xW`) of an invoice in another currency.
                let pln = tax.mul(rate).map_err(|e| Error::Invalid(e.to_string()))?;
                x.text(&format!("P_14_{field}W"), &amount(ctx.sign.of(pln)));
            }
        }
    }
    Ok(())
}

/// Categories 1 to 5 carry a tax amount; the others only a base.
fn with_tax(cat: &str) -> bool {
    matches!(cat, "1" | "2" | "3" | "4" | "5")
}

fn by_category(ctx: &Ctx) -> Result<BTreeMap<String, Sums>, Error> {
    let mut out: BTreeMap<String, Sums> = BTreeMap::new();
    let Some(vat) = ctx.inv.totals.category("VAT") else {
        return Ok(out);
    };
    for rate in &vat.rates {
        let cat = rate_category(rate).ok_or_else(|| {
            Error::Unsupported(format!("VAT rate {:?} without a category", rate.key))
        })?;
        if !CATEGORIES.contains(&cat.as_str()) {
            return Err(Error::Invalid(format!("tax category '{cat}'")));
        }
        let (base, tax) = remaining(ctx, rate)?;
        let s = out.entry(cat).or_default();
        s.base = Some(add(s.base, base)?);
        s.tax = Some(add(s.tax, tax)?);
    }
    Ok(out)
}

fn add(a: Option<Amount>, b: Amount) -> Result<Amount, Error> {
    match a {
        Some(a) => a.add(b).map_err(|e| Error::Invalid(e.to_string())),
        None => Ok(b),
    }
}

/// The rate's base and tax, prorated by due ÷ payable on a settlement invoice with
/// advances.
fn remaining(ctx: &Ctx, rate: &RateTotal) -> Result<(Amount, Amount), Error> {
    let t = &ctx.inv.totals;
    let settles = ctx.kind == "ROZ" || ctx.kind == "KOR_ROZ";
    let (Some(due), true) = (t.due, settles) else {
        return Ok((rate.base, rate.amount));
    };
    if t.payable.is_zero() || due.equals(&t.payable) {
        return Ok((rate.base, rate.amount));
    }
    let prorate = |a: Amount| {
        a.mul(due)
            .and_then(|v| v.div(t.payable))
            .map_err(|e| Error::Invalid(e.to_string()))
    };
    Ok((prorate(rate.base)?, prorate(rate.amount)?))
}
