//! Switzerland: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Switzerland regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "CH",
    alt_countries: &[],
    currency: "CHF",
    time_zone: "Europe/Zurich",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse charge: Customer to account for VAT to the relevant tax authority." }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20240101), percent: "8.1%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "intermediate", keys: STANDARD, values: &[
                    RateValue { since: Some(20240101), percent: "3.8%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20240101), percent: "2.6%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
