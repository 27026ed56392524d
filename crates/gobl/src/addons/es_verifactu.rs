//! `es-verifactu-v1`: Spain VERI*FACTU V1 (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `es-verifactu-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "es-verifactu-v1",
    requires: &[],
    invoice_tags: &["replacement"],
    corrections: CorrectionDef { types: &[], extensions: &["es-verifactu-doc-type"], copy_tax: true, ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    extensions: &[
        ExtDef { key: "es-verifactu-doc-type", codes: &["F1", "F2", "F3", "R1", "R2", "R3", "R4", "R5"], pattern: None },
        ExtDef { key: "es-verifactu-correction-type", codes: &["S", "I"], pattern: None },
        ExtDef { key: "es-verifactu-op-class", codes: &["S1", "S2", "N1", "N2"], pattern: None },
        ExtDef { key: "es-verifactu-exempt", codes: &["E1", "E2", "E3", "E4", "E5", "E6"], pattern: None },
        ExtDef { key: "es-verifactu-regime", codes: &["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "14", "15", "17", "18", "19", "20"], pattern: None },
        ExtDef { key: "es-verifactu-identity-type", codes: &["02", "03", "04", "05", "06", "07"], pattern: None },
        ExtDef { key: "es-verifactu-simplified-art7273", codes: &["S", "N"], pattern: None },
        ExtDef { key: "es-verifactu-issuer-type", codes: &["T", "D"], pattern: None },
    ],
    scenarios: &[
        // Standard Invoice
        Scenario { types: &["standard"], ext: &[("es-verifactu-doc-type", "F1")], ..Scenario::NONE },
        // Simplified Invoice
        Scenario { types: &["standard"], tags: &["simplified"], ext: &[("es-verifactu-doc-type", "F2")], ..Scenario::NONE },
        // Replacement Invoice
        Scenario { types: &["standard"], tags: &["replacement"], ext: &[("es-verifactu-doc-type", "F3")], ..Scenario::NONE },
        // Simplified Corrective Invoice
        Scenario { types: &["corrective", "credit-note", "debit-note"], tags: &["simplified"], ext: &[("es-verifactu-doc-type", "R5")], ..Scenario::NONE },
    ],
};
