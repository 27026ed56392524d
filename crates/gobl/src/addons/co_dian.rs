//! `co-dian-v2`: Colombia DIAN UBL 2.X (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `co-dian-v2` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "co-dian-v2",
    requires: &[],
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], extensions: &["co-dian-credit-code", "co-dian-debit-code"], stamps: &["dian-cude"], reason_required: true, ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    extensions: &[
        ExtDef { key: "co-dian-municipality", codes: &[], pattern: Some("^\\d{5}$") },
        ExtDef { key: "co-dian-credit-code", codes: &["1", "2", "3", "4", "5"], pattern: None },
        ExtDef { key: "co-dian-debit-code", codes: &["1", "2", "3", "4"], pattern: None },
        ExtDef { key: "co-dian-fiscal-responsibility", codes: &["O-13", "O-15", "O-23", "O-47", "R-99-PN"], pattern: None },
    ],
    scenarios: &[],
};
