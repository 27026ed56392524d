//! Mexico: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Mexico regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "MX",
    alt_countries: &[],
    currency: "MXN",
    time_zone: "America/Mexico_City",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], stamps: &["sat-uuid"], ..CorrectionDef::NONE },
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
                    RateValue { since: None, percent: "16.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "8.0%", surcharge: None, ext: &[] },
                ] },
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
            code: "IEPS",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "RIEPS",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "ISR",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};
