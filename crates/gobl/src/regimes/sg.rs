//! Singapore: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Singapore regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "SG",
    alt_countries: &[],
    currency: "SGD",
    time_zone: "Asia/Singapore",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "GST",
            retained: false,
            informative: false,
            keys: &[KeyDef { key: "standard", no_percent: false }, KeyDef { key: "zero", no_percent: false }, KeyDef { key: "exempt", no_percent: true }, KeyDef { key: "outside-scope", no_percent: true }],
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20240101), percent: "9%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20230101), percent: "8%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20070701), percent: "7%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20040101), percent: "5%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20030101), percent: "4%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19940401), percent: "3%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
