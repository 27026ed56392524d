//! Argentina: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Argentina regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "AR",
    alt_countries: &[],
    currency: "ARS",
    time_zone: "America/Argentina/Buenos_Aires",
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
                RateDef { rate: "increased", keys: STANDARD, values: &[
                    RateValue { since: Some(19950401), percent: "27.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(19950401), percent: "21.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(19950401), percent: "10.5%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};
