//! Invoice calculation (GOBL.md §5): lines, discounts and charges, taxes, totals, payment.
//!
//! [`calculate_invoice`] reads the invoice's settings once into a [`Ctx`], then runs the
//! steps in order; the steps live in `invoice_lines` (lines, document discounts and
//! charges), `invoice_taxes` (combos and tax sums) and `invoice_totals` (totals, payment).

use serde_json::Value;

use super::CalcError;
use super::invoice_lines::{
    calculate_doc_adjustments, calculate_lines, sum_adjustments, sum_lines, write_doc_adjustments,
    write_lines,
};
use super::invoice_taxes::{
    included_tax, read_tax_lines, remove_included_tax, resolve_combos, sum_bases, sum_taxes,
};
use super::invoice_totals::{Subtotals, Totals, calculate_invoice_payment, existing_rounding};
use super::val::{Obj, amount, insert_after, string};
use crate::currency::{self, ExchangeRate};
use crate::num::{Amount, NumError};
use crate::regimes;
use crate::tax::RegimeDef;
use crate::tax::defs::date_num;

/// How totals are rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// Keep full precision through the sums, round at the end (GOBL's default).
    Precise,
    /// Round each amount to the currency's subunits before summing.
    Currency,
}

impl Rounding {
    fn parse(s: &str) -> Rounding {
        if s == "currency" {
            Rounding::Currency
        } else {
            Rounding::Precise
        }
    }
}

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

/// The invoice's settings, read once before the steps and shared by all of them.
pub(super) struct Ctx {
    pub(super) regime: Option<&'static RegimeDef>,
    /// The document currency.
    pub(super) cur: String,
    /// The currency's subunits (decimals).
    pub(super) sub: u32,
    pub(super) rr: Rounding,
    pub(super) rates: Vec<ExchangeRate>,
    /// The tax date (`value_date`, else `issue_date`), which picks the tax rates.
    pub(super) date: u32,
    /// `tax.prices_include`: the tax category already included in the prices.
    pub(super) prices_include: Option<String>,
}

impl Ctx {
    /// Read the settings of an invoice in the currency `cur`; fills in `issue_date` (today)
    /// when absent.
    fn read(
        doc: &mut Obj,
        regime: Option<&'static RegimeDef>,
        cur: String,
    ) -> Result<Ctx, CalcError> {
        let sub = currency::subunits(&cur).unwrap_or(2);
        let date = tax_date(doc)?;
        let tax = doc.get("tax").and_then(Value::as_object);
        let prices_include = tax
            .and_then(|t| string(t, "prices_include"))
            .map(str::to_string);
        let rr = tax
            .and_then(|t| string(t, "rounding"))
            .map(Rounding::parse)
            .unwrap_or_else(|| {
                Rounding::parse(regime.map(|r| r.rounding_rule()).unwrap_or("precise"))
            });
        let rates = read_exchange_rates(doc)?;
        Ok(Ctx {
            regime,
            cur,
            sub,
            rr,
            rates,
            date,
            prices_include,
        })
    }

    pub(super) fn zero(&self) -> Amount {
        Amount::zero(self.sub)
    }

    pub(super) fn apply(&self, a: Amount) -> Result<Amount, NumError> {
        match self.rr {
            Rounding::Currency => a.rescale(self.sub),
            Rounding::Precise => a.rescale_up(self.sub),
        }
    }

    pub(super) fn match_rounding(&self, a: Amount, b: Amount) -> Result<Amount, NumError> {
        match self.rr {
            Rounding::Currency => Ok(a),
            Rounding::Precise => a.match_precision(b),
        }
    }
}

pub(super) fn path_idx(base: &str, i: usize) -> String {
    format!("{base}[{i}]")
}

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

/// The tax date: `value_date`, else `issue_date` (set to today when absent).
fn tax_date(doc: &mut Obj) -> Result<u32, CalcError> {
    if string(doc, "issue_date").is_none() {
        let today = chrono::Utc::now()
            .date_naive()
            .format("%Y-%m-%d")
            .to_string();
        doc.insert("issue_date".into(), Value::String(today));
    }
    let date_s = string(doc, "value_date")
        .or_else(|| string(doc, "issue_date"))
        .unwrap_or_default();
    date_num(date_s).ok_or_else(|| CalcError::new("doc.issue_date", "invalid date"))
}

/// The invoice's `exchange_rates`, each with a required amount.
fn read_exchange_rates(doc: &Obj) -> Result<Vec<ExchangeRate>, CalcError> {
    let mut rates = Vec::new();
    if let Some(list) = doc.get("exchange_rates").and_then(Value::as_array) {
        for (i, r) in list.iter().enumerate() {
            let Some(o) = r.as_object() else { continue };
            let p = path_idx("doc.exchange_rates", i);
            let a =
                amount(o, "amount", &p)?.ok_or_else(|| CalcError::new(&p, "amount required"))?;
            rates.push(ExchangeRate {
                from: string(o, "from").unwrap_or_default().into(),
                to: string(o, "to").unwrap_or_default().into(),
                amount: a,
            });
        }
    }
    Ok(rates)
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
                        o.insert("country".into(), Value::String(country.clone()));
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
