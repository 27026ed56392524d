//! Norway: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Norway regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "NO",
    alt_countries: &[],
    currency: "NOK",
    time_zone: "Europe/Oslo",
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
                    RateValue { since: None, percent: "25.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "15.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "12.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "special", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "11.11%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
