//! United States of America: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The United States of America regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "US",
    alt_countries: &[],
    currency: "USD",
    time_zone: "America/Chicago",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(super::taxid::us), ..Hooks::NONE },
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "ST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};
