//! One typed model of a built bill invoice (standard, credit note, corrective …), read once
//! from the envelope with exact decimals, for every writer that consumes a calculated
//! invoice (national formats, PDF, console). Read-only: the calculation keeps its JSON tree.
//!
//! Members the model does not name are ignored, so a newer document still reads.

mod included;
mod line;
mod num_serde;
mod party;
mod payment;
mod refs;
mod totals;

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::Value;

use crate::num::Amount;

pub use included::without_included_taxes;
pub use line::{Item, Line, LineCharge, LineDiscount, TaxCombo};
pub use party::{
    Address, Email, Identity, Inbox, Name, Party, Person, Registration, TaxId, Telephone,
};
pub use payment::{
    Advance, Card, CreditTransfer, DirectDebit, DueDate, Instructions, Online, Payment, Terms,
};
pub use refs::{Delivery, DocumentRef, Ordering, Stamp};
pub use totals::{
    Adjustment, CategoryTotal, Charge, Discount, RateSurcharge, RateTotal, TaxTotal, Totals,
};

/// Extension codes: key → code (`it-sdi-exempt` → `N2.2`).
pub type Ext = BTreeMap<String, String>;

/// The invoice schema.
pub const INVOICE_SCHEMA: &str = "https://gobl.org/draft-0/bill/invoice";

/// A built invoice (`bill.Invoice`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Invoice {
    /// Tax regime (`IT`).
    #[serde(rename = "$regime")]
    pub regime: Option<String>,
    /// Add-ons (`it-sdi-v1`).
    #[serde(rename = "$addons")]
    pub addons: Vec<String>,
    /// Tags (`freelance`, `reverse-charge`, `b2g`).
    #[serde(rename = "$tags")]
    pub tags: Vec<String>,
    /// Document uuid.
    pub uuid: Option<String>,
    /// `standard`, `credit-note`, `corrective`, `debit-note`, `proforma`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Series.
    pub series: Option<String>,
    /// Code within the series.
    pub code: String,
    /// Issue date.
    pub issue_date: Option<NaiveDate>,
    /// Date of the operation, when it differs.
    pub op_date: Option<NaiveDate>,
    /// Date the tax is due, when it differs.
    pub value_date: Option<NaiveDate>,
    /// Currency (`EUR`).
    pub currency: String,
    /// Rates to convert the document's currency into others (`EUR` → `PLN`).
    pub exchange_rates: Vec<ExchangeRate>,
    /// Invoices this one corrects.
    pub preceding: Vec<DocumentRef>,
    /// Tax options and extensions of the document.
    pub tax: Option<TaxInfo>,
    /// The seller.
    pub supplier: Party,
    /// The buyer.
    pub customer: Option<Party>,
    /// Lines.
    pub lines: Vec<Line>,
    /// Document discounts.
    pub discounts: Vec<Discount>,
    /// Document charges.
    pub charges: Vec<Charge>,
    /// Ordering details.
    pub ordering: Option<Ordering>,
    /// Payment details.
    pub payment: Option<Payment>,
    /// Delivery details.
    pub delivery: Option<Delivery>,
    /// Totals.
    pub totals: Totals,
    /// Notes.
    pub notes: Vec<Note>,
}

impl Invoice {
    /// Read the invoice of a built envelope, or a bare invoice document.
    pub fn from_value(v: &Value) -> Result<Invoice, ReadError> {
        let doc = v.get("doc").unwrap_or(v);
        match doc.get("$schema").and_then(Value::as_str) {
            Some(INVOICE_SCHEMA) => {}
            other => return Err(ReadError::NotAnInvoice(other.unwrap_or("").to_string())),
        }
        if doc.get("totals").is_none() {
            return Err(ReadError::NotCalculated);
        }
        read_doc(doc)
    }

    /// Whether the document carries this tag.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }

    /// The document's extension code for `key` (`tax.ext`).
    pub fn tax_ext(&self, key: &str) -> Option<&str> {
        self.tax.as_ref()?.ext.get(key).map(String::as_str)
    }

    /// `SERIES-CODE`, or the code alone.
    pub fn full_code(&self) -> String {
        match self.series.as_deref() {
            Some(s) if !s.is_empty() => format!("{s}-{}", self.code),
            _ => self.code.clone(),
        }
    }
}

/// Deserialise the document.
fn read_doc(doc: &Value) -> Result<Invoice, ReadError> {
    Invoice::deserialize(doc).map_err(|e| ReadError::Malformed(e.to_string()))
}

/// The envelope's head uuid, which some formats use as a transmission number.
pub fn head_uuid(envelope: &Value) -> Option<&str> {
    envelope.get("head")?.get("uuid")?.as_str()
}

/// Why a value could not be read as a built invoice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The document is not a `bill/invoice`.
    #[error("not an invoice: schema '{0}'")]
    NotAnInvoice(String),
    /// The invoice has no totals: it was not built.
    #[error("the invoice has not been calculated (no totals)")]
    NotCalculated,
    /// A member has the wrong shape.
    #[error("malformed invoice: {0}")]
    Malformed(String),
}

/// Tax options of the document (`bill.Tax`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct TaxInfo {
    /// The tax category the prices include (`VAT`).
    pub prices_include: Option<String>,
    /// Rounding rule (`precise`, `currency`).
    pub rounding: Option<String>,
    /// Extension codes (`it-sdi-document-type`, `it-sdi-format`).
    pub ext: Ext,
    /// Legal notes added by the scenarios.
    pub notes: Vec<Note>,
}

/// An exchange rate (`currency.ExchangeRate`): 1 of `from` is worth `amount` of `to`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ExchangeRate {
    /// Currency converted from.
    pub from: String,
    /// Currency converted into.
    pub to: String,
    /// How much 1 of `from` is worth in `to`.
    pub amount: Amount,
}

impl Invoice {
    /// The rate that converts the document's currency into `to`, if it has one.
    pub fn exchange_rate_to(&self, to: &str) -> Option<&ExchangeRate> {
        self.exchange_rates
            .iter()
            .find(|r| r.from == self.currency && r.to == to)
    }
}

/// A note (`org.Note`); legal notes from scenarios carry a category.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Note {
    /// Key (`general`, `legal`, `reason`).
    pub key: Option<String>,
    /// Code.
    pub code: Option<String>,
    /// Source (`reverse-charge`).
    pub src: Option<String>,
    /// Tax category of a scenario note.
    pub cat: Option<String>,
    /// The text.
    pub text: String,
    /// Extension codes.
    pub ext: Ext,
}

/// A period of dates (`cal.Period`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Period {
    /// First day.
    pub start: Option<NaiveDate>,
    /// Last day.
    pub end: Option<NaiveDate>,
}

#[cfg(test)]
mod tests;
