//! `pl-favat-v2`: Polish KSeF FA_VAT v2.x (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `pl-favat-v2` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "pl-favat-v2",
    requires: &[],
    invoice_tags: &["settlement"],
    corrections: CorrectionDef { types: &["credit-note"], extensions: &["pl-favat-effective-date"], stamps: &["favat-id"], reason_required: true, ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    extensions: &[
        ExtDef { key: "pl-favat-vat-special", codes: &["taxi"], pattern: None },
        ExtDef { key: "pl-favat-vat-zero", codes: &["wdt", "domestic", "export"], pattern: None },
        ExtDef { key: "pl-favat-effective-date", codes: &["1", "2", "3"], pattern: None },
    ],
    scenarios: &[
        // Regular Invoice
        Scenario { types: &["standard"], ext: &[("pl-favat-invoice-type", "VAT")], ..Scenario::NONE },
        // Prepayment Invoice
        Scenario { types: &["standard"], tags: &["partial"], ext: &[("pl-favat-invoice-type", "ZAL")], ..Scenario::NONE },
        // Settlement Invoice
        Scenario { types: &["standard"], tags: &["settlement"], ext: &[("pl-favat-invoice-type", "ROZ")], ..Scenario::NONE },
        // Simplified Invoice
        Scenario { types: &["standard"], tags: &["simplified"], ext: &[("pl-favat-invoice-type", "UPR")], ..Scenario::NONE },
        // Credit note
        Scenario { types: &["credit-note"], ext: &[("pl-favat-invoice-type", "KOR")], ..Scenario::NONE },
        // Prepayment credit note
        Scenario { types: &["credit-note"], tags: &["partial"], ext: &[("pl-favat-invoice-type", "KOR_ZAL")], ..Scenario::NONE },
        // Settlement credit note
        Scenario { types: &["credit-note"], tags: &["settlement"], ext: &[("pl-favat-invoice-type", "KOR_ROZ")], ..Scenario::NONE },
    ],
};
