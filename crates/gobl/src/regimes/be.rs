//! Belgium: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Belgium regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "BE",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Brussels",
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
                    RateValue { since: Some(20110104), percent: "21.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "intermediate", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "12.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110104), percent: "6.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
