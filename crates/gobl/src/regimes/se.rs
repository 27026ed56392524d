//! Sweden: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Sweden regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "SE",
    alt_countries: &[],
    currency: "SEK",
    time_zone: "Europe/Stockholm",
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
                    RateValue { since: Some(19900101), percent: "25.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(19960101), percent: "12.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(19960101), percent: "6.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
