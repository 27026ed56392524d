//! Denmark: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Denmark regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "DK",
    alt_countries: &[],
    currency: "DKK",
    time_zone: "Europe/Copenhagen",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(19920101), percent: "25.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
