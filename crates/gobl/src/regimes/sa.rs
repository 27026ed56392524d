//! Kingdom of Saudi Arabia: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Kingdom of Saudi Arabia regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "SA",
    alt_countries: &[],
    currency: "SAR",
    time_zone: "Asia/Riyadh",
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
                    RateValue { since: Some(20200701), percent: "15.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20180101), percent: "5.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
