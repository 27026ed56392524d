//! India: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The India regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "IN",
    alt_countries: &[],
    currency: "INR",
    time_zone: "Asia/Kolkata",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    scenarios: &[
        Scenario { tags: &["reverse-charge"], note: Some(ScenarioNote { cat: None, key: "reverse-charge", src: None, code: None, text: "Reverse Charge" }), ..Scenario::NONE },
        Scenario { tags: &["simplified"], note: Some(ScenarioNote { cat: None, key: "simplified", src: None, code: None, text: "Simplified Tax Invoice" }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "CGST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "SGST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IGST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "UTGST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};
