//! Invoice totals: the sums before and after taxes, their rounded JSON form, and the payment
//! amounts (advances, due, due dates) that follow from the payable total.

use crate::json;
use crate::json::Value;

use super::CalcError;
use super::invoice_ctx::{Ctx, path_idx};
use super::invoice_taxes::{CatTotal, RateTotal, TaxSums};
use super::val::{Obj, amount, insert_after, num_err, percent, set_amount};
use crate::num::Amount;

/// The invoice's sums before taxes: the lines' sum, then document discounts and charges.
pub(super) struct Subtotals {
    pub(super) sum: Amount,
    discount: Option<Amount>,
    charge: Option<Amount>,
    total: Amount,
}

impl Subtotals {
    pub(super) fn new(sum: Amount) -> Subtotals {
        Subtotals {
            sum,
            discount: None,
            charge: None,
            total: sum,
        }
    }

    /// Record the sum of the document discounts and take it off the total.
    pub(super) fn subtract_discounts(&mut self, d: Option<Amount>) -> Result<(), CalcError> {
        self.discount = d;
        if let Some(d) = d {
            self.total = self.total.sub(d).map_err(num_err("doc.totals.total"))?;
        }
        Ok(())
    }

    /// Record the sum of the document charges and add it to the total.
    pub(super) fn add_charges(&mut self, c: Option<Amount>) -> Result<(), CalcError> {
        self.charge = c;
        if let Some(c) = c {
            self.total = self.total.add(c).map_err(num_err("doc.totals.total"))?;
        }
        Ok(())
    }
}

/// The invoice's totals before the final rounding.
pub(super) struct Totals {
    sum: Amount,
    discount: Option<Amount>,
    charge: Option<Amount>,
    tax_included: Option<Amount>,
    /// Without the taxes (and without the tax included in the prices).
    total: Amount,
    tax: TaxSums,
    total_with_tax: Amount,
    /// `totals.rounding` as given, added to the rounded payable.
    rounding: Option<Amount>,
    payable: Amount,
}

/// `totals.rounding` of the input, kept through the calculation.
pub(super) fn existing_rounding(doc: &Obj) -> Result<Option<Amount>, CalcError> {
    Ok(doc
        .get("totals")
        .and_then(Value::as_object)
        .map(|t| amount(t, "rounding", "doc.totals"))
        .transpose()?
        .flatten())
}

/// Round an amount of the totals to the currency's subunits.
fn round(a: Amount, ctx: &Ctx) -> Result<Amount, CalcError> {
    a.rescale(ctx.sub).map_err(num_err("doc.totals"))
}

impl Totals {
    /// Add the taxes to the subtotals: take out the tax included in the prices, add the
    /// taxes, subtract the retained ones.
    pub(super) fn new(
        sub: Subtotals,
        tax_included: Option<Amount>,
        tax: TaxSums,
        rounding: Option<Amount>,
    ) -> Result<Totals, CalcError> {
        let mut total = sub.total;
        if let Some(ti) = tax_included {
            total = total.sub(ti).map_err(num_err("doc.totals.total"))?;
        }
        let et = num_err("doc.totals");
        let total_with_tax = total.add(tax.sum).map_err(&et)?;
        let mut payable = total_with_tax;
        if let Some(r) = tax.retained {
            payable = payable.sub(r).map_err(&et)?;
        }
        Ok(Totals {
            sum: sub.sum,
            discount: sub.discount,
            charge: sub.charge,
            tax_included,
            total,
            tax,
            total_with_tax,
            rounding,
            payable,
        })
    }

    /// The payable total rounded, plus the input's `rounding`.
    pub(super) fn rounded_payable(&self, ctx: &Ctx) -> Result<Amount, CalcError> {
        let payable = round(self.payable, ctx)?;
        match self.rounding {
            Some(rd) => payable.add(rd).map_err(num_err("doc.totals")),
            None => Ok(payable),
        }
    }

    /// The `totals` object, rounded, with `payable` as computed by [`Totals::rounded_payable`].
    pub(super) fn to_json(
        &self,
        cats: &[CatTotal],
        payable: Amount,
        ctx: &Ctx,
    ) -> Result<Obj, CalcError> {
        // Sized up front: a map that grows re-places its members each time.
        let mut t = Obj::with_capacity(16);
        put_amount(&mut t, "sum", round(self.sum, ctx)?);
        if let Some(d) = self.discount {
            put_amount(&mut t, "discount", round(d, ctx)?);
        }
        if let Some(c) = self.charge {
            put_amount(&mut t, "charge", round(c, ctx)?);
        }
        if let Some(ti) = self.tax_included {
            put_amount(&mut t, "tax_included", round(ti, ctx)?);
        }
        put_amount(&mut t, "total", round(self.total, ctx)?);
        if !cats.is_empty() {
            put(&mut t, "taxes", Value::Object(self.taxes_json(cats, ctx)?));
        }
        put_amount(&mut t, "tax", round(self.tax.sum, ctx)?);
        put_amount(&mut t, "total_with_tax", round(self.total_with_tax, ctx)?);
        if let Some(rt) = self.tax.retained {
            put_amount(&mut t, "retained_tax", round(rt, ctx)?);
        }
        if let Some(rd) = self.rounding {
            put_amount(&mut t, "rounding", rd);
        }
        put_amount(&mut t, "payable", payable);
        Ok(t)
    }

    /// `totals.taxes`: the categories with their rates, the sum and the retained sum.
    fn taxes_json(&self, cats: &[CatTotal], ctx: &Ctx) -> Result<Obj, CalcError> {
        let mut list = Vec::with_capacity(cats.len());
        for ct in cats {
            list.push(category_json(ct, ctx)?);
        }
        let mut taxes = Obj::with_capacity(3);
        put(&mut taxes, "categories", Value::Array(list));
        put_amount(&mut taxes, "sum", round(self.tax.sum, ctx)?);
        if let Some(rt) = self.tax.retained {
            put_amount(&mut taxes, "retained", round(rt, ctx)?);
        }
        Ok(taxes)
    }
}

/// One category of `totals.taxes`, rounded.
fn category_json(ct: &CatTotal, ctx: &Ctx) -> Result<Value, CalcError> {
    let mut co = Obj::with_capacity(6);
    put(&mut co, "code", Value::String(ct.code.clone().into()));
    if ct.retained {
        put(&mut co, "retained", Value::Bool(true));
    }
    if ct.informative {
        put(&mut co, "informative", Value::Bool(true));
    }
    let mut rl = Vec::with_capacity(ct.rates.len());
    for rt in &ct.rates {
        rl.push(rate_json(rt, ctx)?);
    }
    put(&mut co, "rates", Value::Array(rl));
    put_amount(&mut co, "amount", round(ct.amount, ctx)?);
    if let Some(s) = ct.surcharge {
        put_amount(&mut co, "surcharge", round(s, ctx)?);
    }
    Ok(Value::Object(co))
}

/// One rate of a category of `totals.taxes`, rounded.
fn rate_json(rt: &RateTotal, ctx: &Ctx) -> Result<Value, CalcError> {
    let mut ro = Obj::with_capacity(7);
    if let Some(c) = &rt.country {
        put(&mut ro, "country", Value::String(c.clone().into()));
    }
    if let Some(k) = &rt.key {
        put(&mut ro, "key", Value::String(k.clone().into()));
    }
    if let Some(x) = &rt.ext {
        put(&mut ro, "ext", Value::clone(x));
    }
    put_amount(&mut ro, "base", round(rt.base, ctx)?);
    if let Some(p) = rt.percent {
        put(&mut ro, "percent", Value::String(p.to_text()));
    }
    if let Some((sp, sa)) = rt.surcharge {
        put(
            &mut ro,
            "surcharge",
            json!({"percent": sp.to_string(), "amount": round(sa, ctx)?.to_string()}),
        );
    }
    put_amount(&mut ro, "amount", round(rt.amount, ctx)?);
    Ok(Value::Object(ro))
}

/// Appends member `k` to a map being built, which does not have it (no look-up).
fn put(o: &mut Obj, k: &str, v: Value) {
    o.insert_absent(o.len(), k.into(), v);
}

/// [`put`] of an amount's text.
fn put_amount(o: &mut Obj, k: &str, a: Amount) {
    put(o, k, Value::String(a.to_text()));
}

/// Payment: the advances (and so `totals.advance` and `totals.due`) and the due dates'
/// amounts, from the rounded payable.
pub(super) fn calculate_invoice_payment(
    doc: &mut Obj,
    t: &mut Obj,
    payable: Amount,
    ctx: &Ctx,
) -> Result<(), CalcError> {
    let Some(pay) = doc.get_mut("payment").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    if let Some(a) = calculate_advances(pay, payable, ctx)? {
        let et = num_err("doc.totals");
        set_amount(t, "advance", a.rescale(ctx.sub).map_err(&et)?);
        set_amount(
            t,
            "due",
            payable.sub(a).map_err(&et)?.rescale(ctx.sub).map_err(&et)?,
        );
    }
    calculate_due_dates(pay, payable, ctx)
}

/// Each advance's amount (its percent of the payable, if any), rounded; their sum, `None`
/// without advances.
fn calculate_advances(
    pay: &mut Obj,
    payable: Amount,
    ctx: &Ctx,
) -> Result<Option<Amount>, CalcError> {
    let Some(advs) = pay.get_mut("advances").and_then(Value::as_array_mut) else {
        return Ok(None);
    };
    if advs.is_empty() {
        return Ok(None);
    }
    let mut s = ctx.zero();
    for (i, a) in advs.iter_mut().enumerate() {
        let Some(ao) = a.as_object_mut() else {
            continue;
        };
        let p = path_idx("doc.payment.advances", i);
        let mut amt = amount(ao, "amount", &p)?.unwrap_or(Amount::ZERO);
        if let Some(pc) = percent(ao, "percent", &p)? {
            amt = pc.of(payable).map_err(num_err(&p))?;
        }
        let amt = amt.rescale(ctx.sub).map_err(num_err(&p))?;
        set_amount(ao, "amount", amt);
        s = s.add(amt).map_err(num_err(&p))?;
    }
    Ok(Some(s))
}

/// Each due date's amount: its (non-zero) percent of the payable, else its amount, rounded.
fn calculate_due_dates(pay: &mut Obj, payable: Amount, ctx: &Ctx) -> Result<(), CalcError> {
    let Some(dds) = pay
        .get_mut("terms")
        .and_then(Value::as_object_mut)
        .and_then(|t| t.get_mut("due_dates"))
        .and_then(Value::as_array_mut)
    else {
        return Ok(());
    };
    for (i, d) in dds.iter_mut().enumerate() {
        let Some(dobj) = d.as_object_mut() else {
            continue;
        };
        let p = path_idx("doc.payment.terms.due_dates", i);
        let mut amt = amount(dobj, "amount", &p)?.unwrap_or(Amount::ZERO);
        if let Some(pc) = percent(dobj, "percent", &p)?
            && !pc.is_zero()
        {
            amt = pc.of(payable).map_err(num_err(&p))?;
        }
        let amt = amt.rescale(ctx.sub).map_err(num_err(&p))?;
        insert_after(dobj, "date", "amount", Value::String(amt.to_text()));
    }
    Ok(())
}
