//! `de-zugferd-v2`: German ZUGFeRD 2.x. As in the reference, a placeholder: it only brings in
//! `eu-en16931-v2017`, whose normalisation and rules do the work.

use crate::addons::AddonDef;
use crate::tax::defs::*;

/// The `de-zugferd-v2` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "de-zugferd-v2",
    requires: &["eu-en16931-v2017"],
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks::NONE,
    extensions: &[],
    scenarios: &[],
};
