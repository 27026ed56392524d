//! United Kingdom: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The United Kingdom regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "GB",
    alt_countries: &["XI", "XU"],
    currency: "GBP",
    time_zone: "Europe/London",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(super::taxid::gb), ..Hooks::NONE },
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
                    RateValue { since: Some(20110104), percent: "20.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110104), percent: "5.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
