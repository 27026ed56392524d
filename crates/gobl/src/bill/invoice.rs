//! Invoice calculation (GOBL.md §5): lines, discounts and charges, taxes, totals, payment.
//!
//! [`calculate_invoice`] reads the invoice's settings once into a [`Ctx`], then runs the
//! steps in order; the steps live in `invoice_lines` (lines, document discounts and
//! charges), `invoice_taxes` (combos and tax sums) and `invoice_totals` (totals, payment).

use crate::json::Value;

use super::CalcError;
use super::invoice_ctx::{Ctx, Rounding};
use super::invoice_lines::{
    calculate_doc_adjustments, calculate_lines, sum_adjustments, sum_lines, write_doc_adjustments,
    write_lines,
};
use super::invoice_taxes::{
    included_tax, read_tax_lines, remove_included_tax, resolve_combos, sum_bases, sum_taxes,
};
use super::invoice_totals::{Subtotals, Totals, calculate_invoice_payment, existing_rounding};
use super::val::{Obj, insert_after, string};
use crate::currency::{self};
use crate::regimes;
use crate::tax::RegimeDef;

/// The invoice tags every regime accepts.
pub const DEFAULT_INVOICE_TAGS: &[&str] = &[
    "simplified",
    "reverse-charge",
    "self-billed",
    "customer-rates",
    "partial",
    "bypass",
    "prepayment",
    "factoring",
];

/// Calculate an invoice (already normalised) in place. `regime` is the invoice's regime.
pub fn calculate_invoice(
    doc: &mut Obj,
    regime: Option<&'static RegimeDef>,
) -> Result<(), CalcError> {
    let cur = resolve_currency(doc, regime)?;
    let tags = checked_tags(doc, regime)?;
    if tags.iter().any(|t| t == "bypass") {
        // Only the calculation is bypassed: scenarios still apply.
        super::scenarios::apply(doc, regime, &tags);
        return Ok(());
    }
    let ctx = Ctx::read(doc, regime, cur)?;
    super::total::calculate_refs(doc, "preceding", &ctx.cur, ctx.rr == Rounding::Precise)?;
    if tags.iter().any(|t| t == "customer-rates") {
        apply_customer_rates(doc);
    }

    let lines = calculate_lines(doc, &ctx)?;
    let mut subtotals = Subtotals::new(sum_lines(&lines, &ctx)?);
    let discounts = calculate_doc_adjustments(doc, "discounts", &ctx, subtotals.sum)?;
    subtotals.subtract_discounts(sum_adjustments(&discounts, &ctx)?)?;
    let charges = calculate_doc_adjustments(doc, "charges", &ctx, subtotals.sum)?;
    subtotals.add_charges(sum_adjustments(&charges, &ctx)?)?;

    let mut tax_lines = read_tax_lines(doc, ctx.regime, &lines, &discounts, &charges)?;
    let rounding = existing_rounding(doc)?;
    if tax_lines.is_empty() {
        doc.remove("totals");
        write_lines(doc, &lines)?;
        super::scenarios::apply(doc, regime, &tags);
        return Ok(());
    }
    resolve_combos(doc, &mut tax_lines, &ctx)?;
    if let Some(pit) = &ctx.prices_include {
        remove_included_tax(&mut tax_lines, pit)?;
    }
    let mut cats = sum_bases(&tax_lines, &ctx)?;
    let taxes = sum_taxes(&mut cats, &ctx)?;
    let included = included_tax(&cats, &ctx);
    let totals = Totals::new(subtotals, included, taxes, rounding)?;

    // Final rounding.
    write_lines(doc, &lines)?;
    write_doc_adjustments(doc, "discounts", &discounts, &ctx)?;
    write_doc_adjustments(doc, "charges", &charges, &ctx)?;
    let payable = totals.rounded_payable(&ctx)?;
    let mut t = totals.to_json(&cats, payable, &ctx)?;
    calculate_invoice_payment(doc, &mut t, payable, &ctx)?;
    doc.insert("totals".into(), Value::Object(t));

    super::scenarios::apply(doc, regime, &tags);
    Ok(())
}

/// The document currency: `currency` when known, else the regime's (written after
/// `issue_date`).
fn resolve_currency(
    doc: &mut Obj,
    regime: Option<&'static RegimeDef>,
) -> Result<String, CalcError> {
    match string(doc, "currency") {
        Some(c) if currency::is_known(c) => Ok(c.to_string()),
        _ => match regime {
            Some(r) => {
                insert_after(
                    doc,
                    "issue_date",
                    "currency",
                    Value::String(r.currency.into()),
                );
                Ok(r.currency.to_string())
            }
            None => Err(CalcError::new("doc.currency", "missing or invalid")),
        },
    }
}

/// The invoice's `$tags`; each must be a default tag or one of its regime's or add-ons'.
fn checked_tags(doc: &Obj, regime: Option<&'static RegimeDef>) -> Result<Vec<String>, CalcError> {
    let tags: Vec<String> = doc
        .get("$tags")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let addons = crate::addons::active(doc);
    for t in &tags {
        let t = t.as_str();
        let known = DEFAULT_INVOICE_TAGS.contains(&t)
            || regime.is_some_and(|r| r.invoice_tags.contains(&t))
            || addons.iter().any(|a| a.invoice_tags.contains(&t));
        if !known {
            return Err(CalcError::new("doc.$tags", format!("'{t}' undefined")));
        }
    }
    Ok(tags)
}

/// The `customer-rates` tag: every tax combo takes the customer's tax-id country.
fn apply_customer_rates(doc: &mut Obj) {
    let Some(country) = doc
        .get("customer")
        .and_then(|c| c.get("tax_id"))
        .and_then(|t| t.get("country"))
        .and_then(Value::as_str)
        .map(str::to_string)
    else {
        return;
    };
    for arr in ["lines", "discounts", "charges"] {
        let Some(list) = doc.get_mut(arr).and_then(Value::as_array_mut) else {
            continue;
        };
        for l in list {
            if let Some(taxes) = l.get_mut("taxes").and_then(Value::as_array_mut) {
                for t in taxes {
                    if let Some(o) = t.as_object_mut() {
                        o.insert("country".into(), Value::String(country.clone().into()));
                    }
                }
            }
        }
    }
}

/// The regime for an invoice: `$regime`, else the supplier's tax-id country.
pub(crate) fn regime_for(doc: &Obj) -> Option<&'static RegimeDef> {
    string(doc, "$regime").and_then(regimes::get)
}
