//! `fr-facturx-v1`: French Factur-X v1 (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::AddonDef;
use crate::tax::defs::*;

/// The `fr-facturx-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "fr-facturx-v1",
    requires: &["eu-en16931-v2017"],
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks::NONE,
    extensions: &[],
    scenarios: &[],
};
