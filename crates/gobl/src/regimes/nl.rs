//! The Netherlands: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The The Netherlands regime.
pub static REGIME: RegimeDef = RegimeDef {
    country: "NL",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Amsterdam",
    rounding: None,
    invoice_tags: &[],
    correction_types: &["credit-note"],
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note_cat: Some("VAT"), note_key: "reverse-charge", text: "Reverse charge: Customer to account for VAT to the relevant tax authority." },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "21.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "9.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
