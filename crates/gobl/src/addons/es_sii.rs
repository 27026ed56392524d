//! `es-sii-v1`: Spain SII V1.x (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `es-sii-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "es-sii-v1",
    requires: &[],
    invoice_tags: &["replacement"],
    corrections: CorrectionDef { types: &[], extensions: &["es-sii-doc-type"], copy_tax: true, ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    extensions: &[
        ExtDef { key: "es-sii-doc-type", codes: &["F1", "F2", "F3", "F4", "F5", "F6", "R1", "R2", "R3", "R4", "R5", "AJ", "LC"], pattern: None },
        ExtDef { key: "es-sii-correction-type", codes: &["S", "I"], pattern: None },
        ExtDef { key: "es-sii-exempt", codes: &["E1", "E2", "E3", "E4", "E5", "E6"], pattern: None },
        ExtDef { key: "es-sii-outside-scope", codes: &["other", "location"], pattern: None },
        ExtDef { key: "es-sii-regime", codes: &["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "16", "17"], pattern: None },
        ExtDef { key: "es-sii-identity-type", codes: &["02", "03", "04", "05", "06", "07"], pattern: None },
        ExtDef { key: "es-sii-simplified-art7273", codes: &["S", "N"], pattern: None },
        ExtDef { key: "es-sii-third-party-issuer", codes: &["S", "N"], pattern: None },
        ExtDef { key: "es-sii-product", codes: &["goods", "services"], pattern: None },
    ],
    scenarios: &[
        // Standard Invoice
        Scenario { types: &["standard"], ext: &[("es-sii-doc-type", "F1")], ..Scenario::NONE },
        // Simplified Invoice
        Scenario { types: &["standard"], tags: &["simplified"], ext: &[("es-sii-doc-type", "F2")], ..Scenario::NONE },
        // Replacement Invoice
        Scenario { types: &["standard"], tags: &["replacement"], ext: &[("es-sii-doc-type", "F3")], ..Scenario::NONE },
        // Simplified Corrective Invoice
        Scenario { types: &["corrective", "credit-note", "debit-note"], tags: &["simplified"], ext: &[("es-sii-doc-type", "R5")], ..Scenario::NONE },
    ],
};
