//! Colombia: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Colombia regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "CO",
    alt_countries: &[],
    currency: "COP",
    time_zone: "America/Bogota",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20170101), percent: "19.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20060101), percent: "16.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20060101), percent: "5.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "IC",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "ICA",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "INC",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "RVAT",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "RICA",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "RR",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};
