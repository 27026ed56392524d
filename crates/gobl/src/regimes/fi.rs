//! Finland: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Finland regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "FI",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Helsinki",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
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
                    RateValue { since: Some(20240901), percent: "25.5%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20130101), percent: "24.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20260101), percent: "13.5%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20130101), percent: "14.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20130101), percent: "10.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
