//! Greece: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Greece regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "EL",
    alt_countries: &["GR"],
    currency: "EUR",
    time_zone: "Europe/Athens",
    rounding: Some("currency"),
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], stamps: &["iapr-mark"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse Charge / Αντίστροφη φόρτιση" }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "24%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "13%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "6%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "general+island", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "17%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced+island", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "9%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced+island", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "4%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
