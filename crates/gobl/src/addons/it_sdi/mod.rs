//! `it-sdi-v1`: Italy SDI FatturaPA v1.x — extensions, tags and scenarios from the GOBL
//! add-on definition (the document type by invoice type and tags, the format by `b2g`; the
//! reference defines no corrections of its own: the regime's credit and debit notes apply),
//! with normalisation in [`norm`] and FatturaPA's rules in [`rules`].

mod norm;
mod rules;

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// FatturaPA format (FPA12 public administration, FPR12 private).
const FORMAT: &str = "it-sdi-format";
/// FatturaPA document type (TipoDocumento).
const DOCUMENT_TYPE: &str = "it-sdi-document-type";
/// The supplier's fiscal regime (RegimeFiscale).
const FISCAL_REGIME: &str = "it-sdi-fiscal-regime";
/// Nature of a VAT combo without a percent (Natura).
const EXEMPT: &str = "it-sdi-exempt";
/// Withholding type of a retained tax (TipoRitenuta causale).
const RETAINED: &str = "it-sdi-retained";
/// Payment means (ModalitaPagamento).
const PAYMENT_MEANS: &str = "it-sdi-payment-means";
/// Fund type of a fund contribution charge (TipoCassa).
const FUND_TYPE: &str = "it-sdi-fund-type";

/// The `it-sdi-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "it-sdi-v1",
    requires: &[],
    invoice_tags: &["b2g", "freelance", "ceiling-exceeded", "san-marino-paper", "import", "goods", "goods-eu", "goods-with-tax", "goods-extracted", "deferred", "regularization", "third-period", "depreciable-assets", "b2g"],
    corrections: CorrectionDef::NONE,
    hooks: Hooks { normalize: Some(norm::normalize), validate: Some(rules::validate), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "it-sdi-format", codes: &["FPA12", "FPR12"], pattern: None },
        ExtDef { key: "it-sdi-document-type", codes: &["TD01", "TD02", "TD03", "TD04", "TD05", "TD06", "TD07", "TD08", "TD09", "TD16", "TD17", "TD18", "TD19", "TD20", "TD21", "TD22", "TD23", "TD24", "TD25", "TD26", "TD27", "TD28"], pattern: None },
        ExtDef { key: "it-sdi-fiscal-regime", codes: &["RF01", "RF02", "RF04", "RF05", "RF06", "RF07", "RF08", "RF09", "RF10", "RF11", "RF12", "RF13", "RF14", "RF15", "RF16", "RF17", "RF19", "RF18"], pattern: None },
        ExtDef { key: "it-sdi-exempt", codes: &["N1", "N2.1", "N2.2", "N3.1", "N3.2", "N3.3", "N3.4", "N3.5", "N3.6", "N4", "N5", "N6.1", "N6.2", "N6.3", "N6.4", "N6.5", "N6.6", "N6.7", "N6.8", "N6.9", "N7"], pattern: None },
        ExtDef { key: "it-sdi-retained", codes: &["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "L1", "M", "M1", "M2", "N", "O", "O1", "P", "Q", "R", "S", "T", "U", "V", "V1", "V2", "W", "X", "Y", "ZO"], pattern: None },
        ExtDef { key: "it-sdi-payment-means", codes: &["MP01", "MP02", "MP03", "MP04", "MP05", "Mp06", "MP07", "MP08", "MP09", "MP10", "MP11", "MP12", "MP13", "MP14", "MP15", "MP16", "MP17", "MP18", "MP19", "MP20", "MP21", "MP22", "MP23"], pattern: None },
        ExtDef { key: "it-sdi-vat-liability", codes: &["I", "D", "S"], pattern: None },
        ExtDef { key: "it-sdi-fund-type", codes: &["TC01", "TC02", "TC03", "TC04", "TC05", "TC06", "TC07", "TC08", "TC09", "TC10", "TC11", "TC12", "TC13", "TC14", "TC15", "TC16", "TC17", "TC18", "TC19", "TC20", "TC21", "TC22"], pattern: None },
        ExtDef { key: "it-sdi-liquidation-state", codes: &["LS", "LN"], pattern: None },
        ExtDef { key: "it-sdi-shareholder-state", codes: &["SU", "SM"], pattern: None },
    ],
    scenarios: &[
        // Private Invoice
        Scenario { ext: &[("it-sdi-format", "FPR12")], ..Scenario::NONE },
        // Government Invoice
        Scenario { tags: &["b2g"], ext: &[("it-sdi-format", "FPA12")], ..Scenario::NONE },
        // Regular Invoice
        Scenario { types: &["standard"], ext: &[("it-sdi-document-type", "TD01")], ..Scenario::NONE },
        // Advance or down payment on invoice
        Scenario { types: &["standard"], tags: &["partial"], ext: &[("it-sdi-document-type", "TD02")], ..Scenario::NONE },
        // Credit Note
        Scenario { types: &["credit-note"], ext: &[("it-sdi-document-type", "TD04")], ..Scenario::NONE },
        // Debit Note
        Scenario { types: &["debit-note"], ext: &[("it-sdi-document-type", "TD05")], ..Scenario::NONE },
        // Freelancer invoice with retained taxes
        Scenario { types: &["standard"], tags: &["freelance"], ext: &[("it-sdi-document-type", "TD06")], ..Scenario::NONE },
        // Advance or down payment on freelance invoice
        Scenario { types: &["standard"], tags: &["partial", "freelance"], ext: &[("it-sdi-document-type", "TD03")], ..Scenario::NONE },
        // Simplified Invoice
        Scenario { types: &["standard"], tags: &["simplified"], ext: &[("it-sdi-document-type", "TD07")], ..Scenario::NONE },
        // Simplified Credit Note
        Scenario { types: &["credit-note"], tags: &["simplified"], ext: &[("it-sdi-document-type", "TD08")], ..Scenario::NONE },
        // Simplified Debit Note
        Scenario { types: &["debit-note"], tags: &["simplified"], ext: &[("it-sdi-document-type", "TD09")], ..Scenario::NONE },
        // Self-billed for self consumption or for free transfer without recourse
        Scenario { types: &["standard"], tags: &["self-billed"], ext: &[("it-sdi-document-type", "TD27")], ..Scenario::NONE },
        // Reverse charge
        Scenario { types: &["standard"], tags: &["self-billed", "reverse-charge"], ext: &[("it-sdi-document-type", "TD16")], ..Scenario::NONE },
        // Self-billed Import
        Scenario { types: &["standard"], tags: &["self-billed", "import"], ext: &[("it-sdi-document-type", "TD17")], ..Scenario::NONE },
        // Self-billed EU Goods Import
        Scenario { types: &["standard"], tags: &["self-billed", "import", "goods-eu"], ext: &[("it-sdi-document-type", "TD18")], ..Scenario::NONE },
        // Self-billed Goods Import
        Scenario { types: &["standard"], tags: &["self-billed", "import", "goods"], ext: &[("it-sdi-document-type", "TD19")], ..Scenario::NONE },
        // Self-billed Regularization
        Scenario { types: &["standard"], tags: &["self-billed", "regularization"], ext: &[("it-sdi-document-type", "TD20")], ..Scenario::NONE },
        // Self-billed invoice when ceiling exceeded
        Scenario { types: &["standard"], tags: &["self-billed", "ceiling-exceeded"], ext: &[("it-sdi-document-type", "TD21")], ..Scenario::NONE },
        // Self-billed for goods extracted from VAT warehouse
        Scenario { types: &["standard"], tags: &["self-billed", "goods-extracted"], ext: &[("it-sdi-document-type", "TD22")], ..Scenario::NONE },
        // Self-billed for goods extracted from VAT warehouse with VAT payment
        Scenario { types: &["standard"], tags: &["self-billed", "goods-with-tax"], ext: &[("it-sdi-document-type", "TD23")], ..Scenario::NONE },
        // Deferred invoice ex art.21, c.4, lett. a) DPR 633/72
        Scenario { types: &["standard"], tags: &["deferred"], ext: &[("it-sdi-document-type", "TD24")], ..Scenario::NONE },
        // Deferred invoice ex art.21, c.4, third period lett. b) DPR 633/72
        Scenario { types: &["standard"], tags: &["deferred", "third-period"], ext: &[("it-sdi-document-type", "TD25")], ..Scenario::NONE },
        // Sale of depreciable assets and for internal transfers (ex art.36 DPR 633/72
        Scenario { types: &["standard"], tags: &["depreciable-assets"], ext: &[("it-sdi-document-type", "TD26")], ..Scenario::NONE },
        // Purchases from San Marino with VAT (paper invoice)
        Scenario { types: &["standard"], tags: &["self-billed", "san-marino-paper"], ext: &[("it-sdi-document-type", "TD28")], ..Scenario::NONE },
    ],
};
