//! Canada: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Canada regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "CA",
    alt_countries: &[],
    currency: "CAD",
    time_zone: "America/Toronto",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "GST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
                RateDef { rate: "zero", keys: &[], values: &[
                    RateValue { since: None, percent: "0.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "general", keys: &[], values: &[
                    RateValue { since: Some(20220101), percent: "5%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "HST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "PST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};
