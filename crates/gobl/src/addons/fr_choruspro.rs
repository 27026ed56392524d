//! `fr-choruspro-v1`: Chorus Pro (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `fr-choruspro-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "fr-choruspro-v1",
    requires: &["eu-en16931-v2017"],
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks::NONE,
    extensions: &[
        ExtDef { key: "fr-choruspro-framework", codes: &["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A12", "A13", "A14", "A15", "A16", "A17", "A18", "A19", "A20", "A21", "A22", "A23", "A24", "A25"], pattern: None },
        ExtDef { key: "fr-choruspro-scheme", codes: &["1", "2", "3", "4", "5", "6"], pattern: None },
    ],
    scenarios: &[],
};
