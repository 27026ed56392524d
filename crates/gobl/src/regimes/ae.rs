//! United Arab Emirates: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The United Arab Emirates regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "AE",
    alt_countries: &[],
    currency: "AED",
    time_zone: "Asia/Dubai",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse Charge" }), ..Scenario::NONE },
        Scenario { tags: &["simplified"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "simplified", src: None, code: None, text: "Simplified Tax Invoice" }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20180101), percent: "5%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
