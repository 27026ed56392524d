//! `pl-favat-v3`: Polish KSeF FA_VAT FA(3) (extensions, scenarios and corrections from the GOBL
//! add-on definition). Its code: the normaliser fills in the invoice flags, each combo's rate
//! category and the payment means codes (`normalize`); the rules are FA(3)'s (`rules`).

pub(crate) mod doc;
mod normalize;
mod rules;

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `pl-favat-v3` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "pl-favat-v3",
    requires: &[],
    invoice_tags: &["settlement"],
    corrections: CorrectionDef { types: &["credit-note"], stamps: &["favat-ksef-number"], ..CorrectionDef::NONE },
    hooks: Hooks { normalize: Some(normalize::normalize_invoice), validate: Some(rules::validate_invoice), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "pl-favat-tax-category", codes: &["1", "2", "3", "4", "5", "6.1", "6.2", "6.3", "7", "8", "9", "10", "11"], pattern: None },
        ExtDef { key: "pl-favat-invoice-type", codes: &["VAT", "ZAL", "ROZ", "UPR", "KOR", "KOR_ZAL", "KOR_ROZ"], pattern: None },
        ExtDef { key: "pl-favat-cash-accounting", codes: &["1", "2"], pattern: None },
        ExtDef { key: "pl-favat-self-billing", codes: &["1", "2"], pattern: None },
        ExtDef { key: "pl-favat-reverse-charge", codes: &["1", "2"], pattern: None },
        ExtDef { key: "pl-favat-split-payment", codes: &["1", "2"], pattern: None },
        ExtDef { key: "pl-favat-exemption", codes: &["A", "B", "C"], pattern: None },
        ExtDef { key: "pl-favat-margin-scheme", codes: &["2", "3.1", "3.2", "3.3"], pattern: None },
        ExtDef { key: "pl-favat-payment-means", codes: &["1", "2", "3", "4", "5", "6", "7"], pattern: None },
        ExtDef { key: "pl-favat-jst", codes: &["1", "2"], pattern: None },
        ExtDef { key: "pl-favat-group-vat", codes: &["1", "2"], pattern: None },
        ExtDef { key: "pl-favat-third-party-role", codes: &["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"], pattern: None },
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
