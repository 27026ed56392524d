//! Poland: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Poland regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "PL",
    alt_countries: &[],
    currency: "PLN",
    time_zone: "Europe/Warsaw",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
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
                    RateValue { since: Some(20110101), percent: "23.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19930708), percent: "22.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "8.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20000904), percent: "7.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "5.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20000904), percent: "3.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
