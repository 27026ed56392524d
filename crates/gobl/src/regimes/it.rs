//! Italy: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Italy regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "IT",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Rome",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(super::taxid::it), ..Hooks::NONE },
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse Charge / Inversione del soggetto passivo" }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "4.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "5.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "intermediate", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "10.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "22.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "IRPEF",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IRES",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "INPS",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "ENASARCO",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "ENPAM",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "CP",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};
