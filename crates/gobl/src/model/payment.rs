//! Payment: terms, instructions and advances.

use chrono::NaiveDate;
use serde::Deserialize;

use super::Ext;
use super::party::Party;
use crate::num::{Amount, Percentage};

/// How and when the invoice is paid (`bill.PaymentDetails`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Payment {
    /// Who receives the payment, when not the supplier.
    pub payee: Option<Party>,
    /// Who pays, when not the customer.
    pub payer: Option<Party>,
    /// When.
    pub terms: Option<Terms>,
    /// Payments already made.
    pub advances: Vec<Advance>,
    /// How.
    pub instructions: Option<Instructions>,
}

/// Payment terms (`pay.Terms`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Terms {
    /// Key (`due-date`, `instant`, `advanced`, …).
    pub key: Option<String>,
    /// Free text.
    pub detail: Option<String>,
    /// The dates the payable amount falls due.
    pub due_dates: Vec<DueDate>,
    /// Notes.
    pub notes: Option<String>,
}

/// One due date (`pay.DueDate`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct DueDate {
    /// The date.
    pub date: Option<NaiveDate>,
    /// Notes.
    pub notes: Option<String>,
    /// The amount due then.
    pub amount: Amount,
    /// Share of the payable amount.
    pub percent: Option<Percentage>,
    /// Currency, when it differs.
    pub currency: Option<String>,
}

/// A payment already made (`pay.Advance`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Advance {
    /// When it was paid.
    pub date: Option<NaiveDate>,
    /// Means key (`cash`, `card`, `credit-transfer`).
    pub key: Option<String>,
    /// Reference of the payment.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// What it was.
    pub description: Option<String>,
    /// Share of the payable amount.
    pub percent: Option<Percentage>,
    /// Amount paid.
    pub amount: Amount,
    /// Currency, when it differs.
    pub currency: Option<String>,
    /// The account it was paid to.
    pub credit_transfer: Option<CreditTransfer>,
    /// Extension codes.
    pub ext: Ext,
}

/// How to pay (`pay.Instructions`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Instructions {
    /// Means key (`credit-transfer`, `card`, `direct-debit`, `online`).
    pub key: Option<String>,
    /// Free text.
    pub detail: Option<String>,
    /// Remittance reference.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// Accounts to pay to.
    pub credit_transfer: Vec<CreditTransfer>,
    /// Card used.
    pub card: Option<Card>,
    /// Direct debit mandate.
    pub direct_debit: Option<DirectDebit>,
    /// Online payment links.
    pub online: Vec<Online>,
    /// Notes.
    pub notes: Option<String>,
    /// Extension codes.
    pub ext: Ext,
}

/// A bank account (`pay.CreditTransfer`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct CreditTransfer {
    /// IBAN.
    pub iban: Option<String>,
    /// BIC.
    pub bic: Option<String>,
    /// Account number, where there is no IBAN.
    pub number: Option<String>,
    /// Bank name.
    pub name: Option<String>,
}

/// A payment card (`pay.Card`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Card {
    /// First six digits.
    pub first6: Option<String>,
    /// Last four digits.
    pub last4: Option<String>,
    /// Card holder.
    pub holder: Option<String>,
}

/// A direct debit mandate (`pay.DirectDebit`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct DirectDebit {
    /// Mandate reference.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// Creditor id.
    pub creditor: Option<String>,
    /// Debited account.
    pub account: Option<String>,
}

/// An online payment link (`pay.Online`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Online {
    /// Label.
    pub label: Option<String>,
    /// URL.
    pub url: String,
}
