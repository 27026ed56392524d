//! `es-tbai-v1`: Spain TicketBAI (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `es-tbai-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "es-tbai-v1",
    requires: &[],
    invoice_tags: &[],
    corrections: CorrectionDef { types: &[], extensions: &["es-tbai-correction"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    extensions: &[
        ExtDef { key: "es-tbai-region", codes: &["VI", "BI", "SS"], pattern: None },
        ExtDef { key: "es-tbai-product", codes: &["goods", "services", "resale"], pattern: None },
        ExtDef { key: "es-tbai-exemption", codes: &["E1", "E2", "E3", "E4", "E5", "E6", "OT", "RL", "VT", "IE", "S2"], pattern: None },
        ExtDef { key: "es-tbai-correction", codes: &["R1", "R2", "R3", "R4", "R5"], pattern: None },
        ExtDef { key: "es-tbai-regime", codes: &["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "17", "51", "52", "53"], pattern: None },
        ExtDef { key: "es-tbai-bi-activity", codes: &[], pattern: Some("^\\d{1,7}$") },
        ExtDef { key: "es-tbai-identity-type", codes: &["02", "03", "04", "05", "06"], pattern: None },
        ExtDef { key: "es-tbai-simplified", codes: &["S", "N"], pattern: None },
    ],
    scenarios: &[],
};
