//! The categories GOBL applies anywhere it has no regime for: VAT and GST with their keys
//! and no rates, so that a combo without a key still gets `standard`.

use super::defs::{CategoryDef, KeyDef, VAT_KEYS};

const GST_KEYS: &[KeyDef] = &[
    KeyDef {
        key: "standard",
        no_percent: false,
    },
    KeyDef {
        key: "zero",
        no_percent: false,
    },
    KeyDef {
        key: "exempt",
        no_percent: true,
    },
    KeyDef {
        key: "outside-scope",
        no_percent: true,
    },
];

static GLOBAL: &[CategoryDef] = &[
    CategoryDef {
        code: "VAT",
        retained: false,
        informative: false,
        keys: VAT_KEYS,
        rates: &[],
    },
    CategoryDef {
        code: "GST",
        retained: false,
        informative: false,
        keys: GST_KEYS,
        rates: &[],
    },
];

/// The global category with `code`, if there is one.
pub fn category(code: &str) -> Option<&'static CategoryDef> {
    GLOBAL.iter().find(|c| c.code == code)
}
