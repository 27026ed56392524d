//! Portugal: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Portugal regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "PT",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Lisbon",
    rounding: None,
    invoice_tags: &["invoice-receipt"],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(super::taxid::pt), ..Hooks::NONE },
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "16.0%", surcharge: None, ext: &[("pt-region", "PT-AC")] },
                    RateValue { since: Some(20110101), percent: "22.0%", surcharge: None, ext: &[("pt-region", "PT-MA")] },
                    RateValue { since: Some(20110101), percent: "23.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "intermediate", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "9.0%", surcharge: None, ext: &[("pt-region", "PT-AC")] },
                    RateValue { since: Some(20110101), percent: "12.0%", surcharge: None, ext: &[("pt-region", "PT-MA")] },
                    RateValue { since: Some(20110101), percent: "13.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "4.0%", surcharge: None, ext: &[("pt-region", "PT-AC")] },
                    RateValue { since: Some(20241001), percent: "4.0%", surcharge: None, ext: &[("pt-region", "PT-MA")] },
                    RateValue { since: Some(20110101), percent: "5.0%", surcharge: None, ext: &[("pt-region", "PT-MA")] },
                    RateValue { since: Some(20110101), percent: "6.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "other", keys: STANDARD, values: &[

                ] },
            ],
        },
        CategoryDef {
            code: "IRS",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IRC",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};
