//! `eu-en16931-v2017`: EN 16931-1:2017 (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::AddonDef;
use crate::tax::defs::*;

/// The `eu-en16931-v2017` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "eu-en16931-v2017",
    requires: &[],
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks { normalize: Some(super::en16931::normalize_invoice), validate: Some(super::en16931_rules::validate_invoice), ..Hooks::NONE },
    extensions: &[],
    scenarios: &[
        Scenario { types: &["standard"], ext: &[("untdid-document-type", "380")], ..Scenario::NONE },
        Scenario { types: &["credit-note"], ext: &[("untdid-document-type", "381")], ..Scenario::NONE },
        Scenario { types: &["debit-note"], ext: &[("untdid-document-type", "383")], ..Scenario::NONE },
        Scenario { types: &["corrective"], ext: &[("untdid-document-type", "384")], ..Scenario::NONE },
        Scenario { types: &["proforma"], ext: &[("untdid-document-type", "325")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["partial"], ext: &[("untdid-document-type", "326")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["self-billed"], ext: &[("untdid-document-type", "389")], ..Scenario::NONE },
        Scenario { types: &["credit-note"], tags: &["self-billed"], ext: &[("untdid-document-type", "261")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["prepayment"], ext: &[("untdid-document-type", "386")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["factoring"], ext: &[("untdid-document-type", "393")], ..Scenario::NONE },
        Scenario { types: &["credit-note"], tags: &["factoring"], ext: &[("untdid-document-type", "396")], ..Scenario::NONE },
    ],
};
