//! Germany: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Germany regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "DE",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Berlin",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(super::taxid::de), ..Hooks::NONE },
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse Charge / Umkehr der Steuerschuld." }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20210101), percent: "19%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20200701), percent: "16%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20070101), percent: "19%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19980401), percent: "16%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19930101), percent: "15%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20210101), percent: "7%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20200701), percent: "5%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19830701), percent: "7%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
