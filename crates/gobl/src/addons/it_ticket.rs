//! `it-ticket-v1`: Italy AdE ticket v1.x (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `it-ticket-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "it-ticket-v1",
    requires: &[],
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["corrective"], stamps: &["ade-ref"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    extensions: &[
        ExtDef { key: "it-ticket-exempt", codes: &["N1", "N2", "N3", "N4", "N5", "N6"], pattern: None },
        ExtDef { key: "it-ticket-product", codes: &["goods", "services"], pattern: None },
        ExtDef { key: "it-ticket-lottery", codes: &[], pattern: Some("^[A-Z0-9]{8}$") },
        ExtDef { key: "it-ticket-line-ref", codes: &[], pattern: None },
    ],
    scenarios: &[],
};
