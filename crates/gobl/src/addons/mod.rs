//! GOBL add-ons: extra normalisation (and the `ext` codes it sets) that a document asks for
//! by listing the add-on in `$addons`. Each add-on is one file; its code tables are data.
//!
//! Implemented: `eu-en16931-v2017` (UNTDID codes for EN 16931); `de-xrechnung-v3` (the German
//! CIUS's rules); and `fr-facturx-v1` and `de-zugferd-v2`, which in the reference only require
//! EN 16931 and add no rules of their own.

use serde_json::{Value, json};

use crate::bill::val::Obj;

mod en16931;
mod en16931_org;
mod en16931_rules;
mod xrechnung_rules;

/// The EN 16931 add-on's key.
pub const EN16931: &str = "eu-en16931-v2017";
/// The XRechnung add-on's key.
pub const XRECHNUNG: &str = "de-xrechnung-v3";

/// Add-ons that require another one, which is listed before them.
const REQUIRES: &[(&str, &str)] = &[
    (XRECHNUNG, EN16931),
    ("fr-facturx-v1", EN16931),
    ("de-zugferd-v2", EN16931),
    ("fr-ctc-flow2-v1", EN16931),
];

/// The document's `$addons`.
fn listed(doc: &Obj) -> Vec<String> {
    doc.get("$addons")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Completes `$addons` with what the listed ones require, then normalises an invoice for
/// each add-on folio implements.
pub(crate) fn normalize_invoice(doc: &mut Obj) {
    let mut addons = listed(doc);
    for (addon, needs) in REQUIRES {
        if addons.iter().any(|a| a == addon) && !addons.iter().any(|a| a == needs) {
            addons.insert(0, (*needs).to_string());
        }
    }
    if addons.is_empty() {
        return;
    }
    doc.insert("$addons".into(), json!(addons));
    if addons.iter().any(|a| a == EN16931) {
        en16931::normalize_invoice(doc);
    }
}

/// Adds the faults of the add-ons an invoice lists.
pub(crate) fn validate_invoice(doc: &Obj, faults: &mut Vec<crate::fault::Fault>) {
    let addons = listed(doc);
    if addons.iter().any(|a| a == EN16931) {
        en16931_rules::validate_invoice(doc, faults);
    }
    if addons.iter().any(|a| a == XRECHNUNG) {
        xrechnung_rules::validate_invoice(doc, faults);
    }
}
