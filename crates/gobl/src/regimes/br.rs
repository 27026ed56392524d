//! Brazil: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Brazil regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "BR",
    alt_countries: &[],
    currency: "BRL",
    time_zone: "America/Sao_Paulo",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "ISS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "ICMS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IPI",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "PIS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "PISRet",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "COFINS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "COFINSRet",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "CSLL",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "INSS",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IRRF",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IBS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "CBS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
    ],
};
