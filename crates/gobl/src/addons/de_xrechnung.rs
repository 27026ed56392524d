//! `de-xrechnung-v3`: German XRechnung 3.X (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::AddonDef;
use crate::tax::defs::*;

/// The `de-xrechnung-v3` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "de-xrechnung-v3",
    requires: &["eu-en16931-v2017"],
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks { validate: Some(super::xrechnung_rules::validate_invoice), ..Hooks::NONE },
    extensions: &[],
    scenarios: &[],
};
