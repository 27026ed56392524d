//! `ar-arca-v4`: Argentina ARCA V4 (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `ar-arca-v4` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "ar-arca-v4",
    requires: &[],
    invoice_tags: &["monotax"],
    corrections: CorrectionDef { types: &[], extensions: &["ar-arca-doc-type"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    extensions: &[
        ExtDef { key: "ar-arca-doc-type", codes: &["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "15", "34", "35", "39", "40", "49", "51", "52", "53", "54", "60", "61", "63", "64", "201", "202", "203", "206", "207", "208", "211", "212", "213", "195", "196", "197"], pattern: None },
        ExtDef { key: "ar-arca-concept", codes: &["1", "2", "3"], pattern: None },
        ExtDef { key: "ar-arca-tax-type", codes: &["1", "2", "3", "4", "5", "6", "7", "8", "9", "13", "99"], pattern: None },
        ExtDef { key: "ar-arca-vat-rate", codes: &["3", "4", "5", "6", "8", "9"], pattern: None },
        ExtDef { key: "ar-arca-identity-type", codes: &["00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "16", "17", "18", "19", "20", "21", "22", "23", "24", "80", "86", "87", "89", "90", "91", "92", "93", "94", "95", "96", "99"], pattern: None },
        ExtDef { key: "ar-arca-vat-status", codes: &["1", "4", "5", "6", "7", "8", "9", "10", "13", "15", "16"], pattern: None },
        ExtDef { key: "ar-arca-tourism-type", codes: &["1", "2", "3", "4", "5", "6"], pattern: None },
        ExtDef { key: "ar-arca-tourism-item", codes: &["1", "2", "5"], pattern: None },
    ],
    scenarios: &[],
};
