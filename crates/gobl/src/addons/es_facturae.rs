//! `es-facturae-v3`: Spain FacturaE (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `es-facturae-v3` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "es-facturae-v3",
    requires: &[],
    invoice_tags: &[],
    corrections: CorrectionDef { types: &[], extensions: &["es-facturae-correction"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    extensions: &[
        ExtDef { key: "es-facturae-subsidy", codes: &["S", "N"], pattern: None },
        ExtDef { key: "es-facturae-doc-type", codes: &["FC", "FA", "AF"], pattern: None },
        ExtDef { key: "es-facturae-invoice-class", codes: &["OO", "OR", "OC", "CO", "CR", "CC"], pattern: None },
        ExtDef { key: "es-facturae-correction", codes: &["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "16", "80", "81", "82", "83", "84", "85"], pattern: None },
    ],
    scenarios: &[
        Scenario { types: &["standard", "corrective", "credit-note", "debit-note"], ext: &[("es-facturae-doc-type", "FC")], ..Scenario::NONE },
        Scenario { tags: &["simplified"], ext: &[("es-facturae-doc-type", "FA")], ..Scenario::NONE },
        Scenario { tags: &["self-billed"], ext: &[("es-facturae-doc-type", "AF")], ..Scenario::NONE },
        Scenario { types: &["standard"], ext: &[("es-facturae-invoice-class", "OO")], ..Scenario::NONE },
        Scenario { types: &["corrective", "credit-note", "debit-note"], ext: &[("es-facturae-invoice-class", "OR")], ..Scenario::NONE },
        Scenario { tags: &["summary"], ext: &[("es-facturae-invoice-class", "OC")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["copy"], ext: &[("es-facturae-invoice-class", "CO")], ..Scenario::NONE },
        Scenario { types: &["corrective"], tags: &["copy"], ext: &[("es-facturae-invoice-class", "CR")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["copy", "summary"], ext: &[("es-facturae-invoice-class", "CC")], ..Scenario::NONE },
    ],
};
