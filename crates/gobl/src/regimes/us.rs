//! United States of America: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The United States of America regime.
pub static REGIME: RegimeDef = RegimeDef {
    country: "US",
    alt_countries: &[],
    currency: "USD",
    time_zone: "America/Chicago",
    rounding: None,
    invoice_tags: &[],
    correction_types: &["credit-note", "debit-note"],
    scenarios: &[
    ],
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
