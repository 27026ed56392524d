//! Document discounts and charges, and the calculated totals.

use serde::Deserialize;

use super::Ext;
use super::line::TaxCombo;
use crate::num::{Amount, Percentage};

/// A discount or a charge of the whole document (`bill.Discount`, `bill.Charge`: the same
/// members; a charge's are fund contributions, stamp duty, …).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Adjustment {
    /// Position, from 1.
    #[serde(rename = "i")]
    pub index: u32,
    /// Key from a list (`stamp-duty`, `fund-contribution`, …).
    pub key: Option<String>,
    /// Code.
    pub code: Option<String>,
    /// Why.
    pub reason: Option<String>,
    /// The base the percentage applies to (default: the lines' sum).
    pub base: Option<Amount>,
    /// Percentage of the base.
    pub percent: Option<Percentage>,
    /// The amount off (discount) or added (charge).
    pub amount: Amount,
    /// Taxes of the adjustment.
    pub taxes: Vec<TaxCombo>,
    /// Extension codes.
    pub ext: Ext,
}

/// A discount of the whole document.
pub type Discount = Adjustment;
/// A charge on the whole document.
pub type Charge = Adjustment;

impl Adjustment {
    /// Whether the adjustment has this key; keys may be combined with `+`.
    pub fn has_key(&self, key: &str) -> bool {
        self.key
            .as_deref()
            .is_some_and(|k| k.split('+').any(|p| p == key))
    }
}

/// The document's totals (`bill.Totals`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Totals {
    /// Sum of the line totals.
    pub sum: Amount,
    /// Sum of the document discounts.
    pub discount: Option<Amount>,
    /// Sum of the document charges.
    pub charge: Option<Amount>,
    /// Taxes included in the prices, taken out of the sum.
    pub tax_included: Option<Amount>,
    /// `sum − discount + charge − tax_included`.
    pub total: Amount,
    /// The tax breakdown.
    pub taxes: Option<TaxTotal>,
    /// Sum of the taxes that are not retained.
    pub tax: Amount,
    /// `total + tax`.
    pub total_with_tax: Amount,
    /// Sum of the retained taxes.
    pub retained_tax: Option<Amount>,
    /// Rounding adjustment.
    pub rounding: Option<Amount>,
    /// What the customer must pay: `total_with_tax − retained_tax + rounding`.
    pub payable: Amount,
    /// Advances already paid.
    pub advance: Option<Amount>,
    /// What is still due after the advances.
    pub due: Option<Amount>,
}

impl Totals {
    /// The category totals, empty when there are no taxes.
    pub fn categories(&self) -> &[CategoryTotal] {
        self.taxes.as_ref().map_or(&[], |t| &t.categories)
    }

    /// The total of a tax category (`VAT`).
    pub fn category(&self, code: &str) -> Option<&CategoryTotal> {
        self.categories().iter().find(|c| c.code == code)
    }
}

/// The tax breakdown (`tax.Total`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct TaxTotal {
    /// One total per category.
    pub categories: Vec<CategoryTotal>,
    /// Sum of the categories that are not retained.
    pub sum: Amount,
    /// Sum of the retained categories.
    pub retained: Option<Amount>,
}

/// The total of one tax category (`tax.CategoryTotal`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct CategoryTotal {
    /// Category code (`VAT`).
    pub code: String,
    /// Whether the tax is withheld from the payable amount.
    pub retained: bool,
    /// Whether the tax is only shown, not added.
    pub informative: bool,
    /// One total per rate.
    pub rates: Vec<RateTotal>,
    /// The category's tax.
    pub amount: Amount,
    /// The category's surcharge.
    pub surcharge: Option<Amount>,
}

/// The total of one rate within a category (`tax.RateTotal`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct RateTotal {
    /// Key (`standard`, `exempt`, …).
    pub key: Option<String>,
    /// Country, when it differs from the regime's.
    pub country: Option<String>,
    /// Extension codes the rate's combos share.
    pub ext: Ext,
    /// Taxable base.
    pub base: Amount,
    /// Percentage; absent for an exempt rate.
    pub percent: Option<Percentage>,
    /// Surcharge on top of the tax.
    pub surcharge: Option<RateSurcharge>,
    /// The tax.
    pub amount: Amount,
}

/// A rate's surcharge (`tax.RateTotalSurcharge`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct RateSurcharge {
    /// Percentage.
    pub percent: Percentage,
    /// Amount.
    pub amount: Amount,
}
