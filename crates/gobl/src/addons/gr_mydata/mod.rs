//! `gr-mydata-v1`: Greece's myDATA reporting. Invoices carry the myDATA invoice type (from
//! the scenarios below), VAT combos their VAT rate category and exemption cause, payments
//! their means, charges their tax type ([`normalize`]); [`rules`] checks what myDATA needs.

mod normalize;
mod rules;

use crate::addons::{AddonDef, ExtDef};
use crate::tax::defs::*;

/// The `gr-mydata-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "gr-mydata-v1",
    requires: &[],
    invoice_tags: &["islands", "goods", "services", "export", "eu"],
    corrections: CorrectionDef::NONE,
    hooks: Hooks { normalize: Some(normalize::invoice), validate: Some(rules::invoice), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "gr-mydata-vat-rate", codes: &["1", "2", "3", "4", "5", "6", "7", "8"], pattern: None },
        ExtDef { key: "gr-mydata-invoice-type", codes: &["1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "2.1", "2.2", "2.3", "2.4", "3.1", "3.2", "5.1", "5.2", "6.1", "6.2", "7.1", "8.1", "8.2", "11.1", "11.2", "11.3", "11.4", "11.5", "13.1", "13.2", "13.3", "13.4", "13.30", "13.31", "14.1", "14.2", "14.3", "14.4", "14.5", "14.30", "14.31", "15.1", "16.1", "17.1", "17.2", "17.3", "17.4", "17.5", "17.6"], pattern: None },
        ExtDef { key: "gr-mydata-payment-means", codes: &["1", "2", "3", "4", "5", "6", "7"], pattern: None },
        ExtDef { key: "gr-mydata-exemption", codes: &["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31"], pattern: None },
        ExtDef { key: "gr-mydata-income-cat", codes: &["category1_1", "category1_2", "category1_3", "category1_4", "category1_5", "category1_6", "category1_7", "category1_8", "category1_9", "category1_10", "category1_95"], pattern: None },
        ExtDef { key: "gr-mydata-income-type", codes: &["E3_106", "E3_205", "E3_210", "E3_305", "E3_310", "E3_318", "E3_561_001", "E3_561_002", "E3_561_003", "E3_561_004", "E3_561_005", "E3_561_006", "E3_561_007", "E3_562", "E3_563", "E3_564", "E3_565", "E3_566", "E3_567", "E3_568", "E3_570", "E3_595", "E3_596", "E3_597", "E3_880_001", "E3_880_002", "E3_880_003", "E3_880_004", "E3_881_001", "E3_881_002", "E3_881_003", "E3_881_004", "E3_598_001", "E3_598_003"], pattern: None },
        ExtDef { key: "gr-mydata-tax-type", codes: &["1", "2", "3", "4", "5"], pattern: None },
        ExtDef { key: "gr-mydata-fee", codes: &["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22"], pattern: None },
        ExtDef { key: "gr-mydata-other-tax", codes: &["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30"], pattern: None },
        ExtDef { key: "gr-mydata-stamp-duty", codes: &["1", "2", "3", "4"], pattern: None },
    ],
    scenarios: &[
        Scenario { types: &["standard"], ext: &[("gr-mydata-invoice-type", "2.1")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["goods"], ext: &[("gr-mydata-invoice-type", "1.1")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["goods", "export"], ext: &[("gr-mydata-invoice-type", "1.3")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["goods", "export", "eu"], ext: &[("gr-mydata-invoice-type", "1.2")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["goods", "self-billed"], ext: &[("gr-mydata-invoice-type", "1.4")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["services"], ext: &[("gr-mydata-invoice-type", "2.1")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["services", "export"], ext: &[("gr-mydata-invoice-type", "2.3")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["services", "export", "eu"], ext: &[("gr-mydata-invoice-type", "2.2")], ..Scenario::NONE },
        Scenario { types: &["credit-note"], ext: &[("gr-mydata-invoice-type", "5.1")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["simplified"], ext: &[("gr-mydata-invoice-type", "11.3")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["goods", "simplified"], ext: &[("gr-mydata-invoice-type", "11.1")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["services", "simplified"], ext: &[("gr-mydata-invoice-type", "11.2")], ..Scenario::NONE },
        Scenario { types: &["credit-note"], tags: &["simplified"], ext: &[("gr-mydata-invoice-type", "11.4")], ..Scenario::NONE },
        Scenario { types: &["credit-note"], tags: &["goods", "simplified", "self-billed"], ext: &[("gr-mydata-invoice-type", "11.5")], ..Scenario::NONE },
    ],
};

/// The VAT rate category of a combo (`1`–`6` by rate, `7` without VAT, `8` without a
/// category).
pub(crate) const VAT_RATE: &str = "gr-mydata-vat-rate";
/// The myDATA invoice type.
pub(crate) const INVOICE_TYPE: &str = "gr-mydata-invoice-type";
/// Why a combo carries no VAT.
pub(crate) const EXEMPTION: &str = "gr-mydata-exemption";
/// Income classification category and type of an item.
pub(crate) const INCOME_CAT: &str = "gr-mydata-income-cat";
pub(crate) const INCOME_TYPE: &str = "gr-mydata-income-type";
/// Payment means of instructions and advances.
pub(crate) const PAYMENT_MEANS: &str = "gr-mydata-payment-means";
/// A charge's tax type, and the code of its kind of tax.
pub(crate) const TAX_TYPE: &str = "gr-mydata-tax-type";
pub(crate) const FEE: &str = "gr-mydata-fee";
pub(crate) const OTHER_TAX: &str = "gr-mydata-other-tax";
pub(crate) const STAMP_DUTY: &str = "gr-mydata-stamp-duty";

/// Tax type codes of charges.
pub(crate) const TAX_TYPE_FEE: &str = "2";
pub(crate) const TAX_TYPE_OTHER: &str = "3";
pub(crate) const TAX_TYPE_STAMP_DUTY: &str = "4";
