//! The invoice calculation's settings, read once into a [`Ctx`] before its steps
//! (`invoice_lines`, `invoice_taxes`, `invoice_totals`) and shared by all of them, with how
//! they round.

use crate::json::Value;

use super::CalcError;
use super::val::{Obj, amount, string};
use crate::currency::{self, ExchangeRate};
use crate::num::{Amount, NumError};
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
    pub(super) fn read(
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

/// The tax date: `value_date`, else `issue_date` (set to today when absent).
fn tax_date(doc: &mut Obj) -> Result<u32, CalcError> {
    if string(doc, "issue_date").is_none() {
        let today = chrono::Utc::now()
            .date_naive()
            .format("%Y-%m-%d")
            .to_string();
        doc.insert("issue_date".into(), Value::String(today.into()));
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
