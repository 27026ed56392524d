//! References to other documents: ordering, delivery and preceding invoices.

use chrono::NaiveDate;
use serde::Deserialize;

use super::party::{Identity, Party};
use super::totals::TaxTotal;
use super::{Ext, Period};
use crate::num::Amount;

/// A reference to another document (`org.DocumentRef`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct DocumentRef {
    /// Type of the document referred to (`standard`, …).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Its issue date.
    pub issue_date: Option<NaiveDate>,
    /// Its series.
    pub series: Option<String>,
    /// Its code.
    pub code: String,
    /// The period it covers.
    pub period: Option<Period>,
    /// Lines of this document the reference applies to.
    pub lines: Vec<u32>,
    /// Why it is referred to.
    pub reason: Option<String>,
    /// Identities (order codes, CIG, CUP, …).
    pub identities: Vec<Identity>,
    /// Its taxes, for a corrected invoice.
    pub tax: Option<TaxTotal>,
    /// Description.
    pub description: Option<String>,
    /// Amount payable of the document referred to (an order being paid in advance).
    pub payable: Option<Amount>,
    /// Stamps of the document referred to (its number in a tax authority's system).
    pub stamps: Vec<Stamp>,
    /// Extension codes.
    pub ext: Ext,
}

/// A stamp (`head.Stamp`): a provider's key and the value it gave.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Stamp {
    /// Provider key (`favat-ksef-number`).
    #[serde(rename = "prv")]
    pub provider: String,
    /// The value.
    #[serde(rename = "val")]
    pub value: String,
}

impl DocumentRef {
    /// The value of the stamp of this provider, if any.
    pub fn stamp(&self, provider: &str) -> Option<&str> {
        self.stamps
            .iter()
            .find(|s| s.provider == provider)
            .map(|s| s.value.as_str())
    }

    /// `SERIES-CODE`, or the code alone.
    pub fn full_code(&self) -> String {
        match self.series.as_deref() {
            Some(s) if !s.is_empty() => format!("{s}-{}", self.code),
            _ => self.code.clone(),
        }
    }
}

/// Ordering details (`bill.Ordering`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Ordering {
    /// The buyer's reference.
    pub code: Option<String>,
    /// Identities.
    pub identities: Vec<Identity>,
    /// Period of the order.
    pub period: Option<Period>,
    /// The party that ordered, when not the customer.
    pub buyer: Option<Party>,
    /// The party that sold, when not the supplier.
    pub seller: Option<Party>,
    /// The third party that issued the document on the supplier's behalf.
    pub issuer: Option<Party>,
    /// Projects.
    pub projects: Vec<DocumentRef>,
    /// Contracts.
    pub contracts: Vec<DocumentRef>,
    /// Purchase orders.
    pub purchases: Vec<DocumentRef>,
    /// Sales orders.
    pub sales: Vec<DocumentRef>,
    /// Receiving advices.
    pub receiving: Vec<DocumentRef>,
    /// Despatch advices.
    pub despatch: Vec<DocumentRef>,
    /// Tenders.
    pub tender: Vec<DocumentRef>,
}

/// Delivery details (`bill.DeliveryDetails`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Delivery {
    /// Who receives the goods.
    pub receiver: Option<Party>,
    /// Identities.
    pub identities: Vec<Identity>,
    /// When they were delivered.
    pub date: Option<NaiveDate>,
    /// The delivery period.
    pub period: Option<Period>,
}
