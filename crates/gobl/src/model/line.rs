//! Invoice lines, their items, discounts, charges and tax combos.

use serde::Deserialize;

use super::party::Identity;
use super::{Ext, Note, Period};
use crate::num::{Amount, Percentage};

/// A line of the invoice (`bill.Line`), as calculated.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Line {
    /// Position, from 1.
    #[serde(rename = "i")]
    pub index: u32,
    /// Quantity (may be negative).
    pub quantity: Amount,
    /// Buyer's reference of the line.
    pub identifier: Option<Identity>,
    /// Period the line covers.
    pub period: Option<Period>,
    /// Purchase order reference.
    pub order: Option<String>,
    /// Buyer's accounting cost code.
    pub cost: Option<String>,
    /// What is sold.
    pub item: Item,
    /// `quantity × price`.
    pub sum: Option<Amount>,
    /// Discounts of the line.
    pub discounts: Vec<LineDiscount>,
    /// Charges of the line.
    pub charges: Vec<LineCharge>,
    /// Taxes of the line.
    pub taxes: Vec<TaxCombo>,
    /// `sum − discounts + charges`.
    pub total: Option<Amount>,
    /// Notes.
    pub notes: Vec<Note>,
}

impl Line {
    /// The combo of a tax category (`VAT`).
    pub fn tax(&self, cat: &str) -> Option<&TaxCombo> {
        self.taxes.iter().find(|t| t.cat == cat)
    }
}

/// What is sold (`org.Item`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Item {
    /// Seller's reference.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// Key (`goods`, `services`).
    pub key: Option<String>,
    /// Name.
    pub name: String,
    /// Identities (GTIN, …).
    pub identities: Vec<Identity>,
    /// Description.
    pub description: Option<String>,
    /// Currency of the price, when it differs from the document's.
    pub currency: Option<String>,
    /// Unit price; absent on a line without a price.
    pub price: Option<Amount>,
    /// Unit of measure (`h`, `kg`, UN/ECE codes).
    pub unit: Option<String>,
    /// Country of origin.
    pub origin: Option<String>,
    /// Extension codes.
    pub ext: Ext,
}

/// A discount of a line (`bill.LineDiscount`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct LineDiscount {
    /// Key from a list.
    pub key: Option<String>,
    /// Code.
    pub code: Option<String>,
    /// Why.
    pub reason: Option<String>,
    /// Percentage of the line sum.
    pub percent: Option<Percentage>,
    /// The amount off.
    pub amount: Amount,
    /// Extension codes.
    pub ext: Ext,
}

/// A charge of a line (`bill.LineCharge`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct LineCharge {
    /// Key from a list.
    pub key: Option<String>,
    /// Code.
    pub code: Option<String>,
    /// Why.
    pub reason: Option<String>,
    /// Percentage of the line sum.
    pub percent: Option<Percentage>,
    /// The amount added.
    pub amount: Amount,
    /// Extension codes.
    pub ext: Ext,
}

/// One tax applied to a line, charge or discount (`tax.Combo`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct TaxCombo {
    /// Category (`VAT`, `IRPEF`).
    pub cat: String,
    /// Country, when it differs from the regime's.
    pub country: Option<String>,
    /// Key (`standard`, `exempt`, `reverse-charge`, `outside-scope`).
    pub key: Option<String>,
    /// Rate name (`general`, `reduced`).
    pub rate: Option<String>,
    /// Percentage; absent for an exempt combo.
    pub percent: Option<Percentage>,
    /// Surcharge percentage.
    pub surcharge: Option<Percentage>,
    /// Extension codes.
    pub ext: Ext,
}
