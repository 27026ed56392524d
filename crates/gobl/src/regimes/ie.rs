//! Ireland: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Ireland regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "IE",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Dublin",
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
                    RateValue { since: Some(20120101), percent: "23.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20030101), percent: "13.5%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "9.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "special", keys: STANDARD, values: &[
                    RateValue { since: Some(20080101), percent: "4.8%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
