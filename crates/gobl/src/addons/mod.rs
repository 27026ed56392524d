//! GOBL add-ons: what a document gains by listing an add-on in `$addons` — extensions with
//! their code lists, tags, scenarios, correction definitions — plus the add-on's own code in
//! its [`Hooks`] (normalisation before calculation, adjustments after it, validation).
//!
//! Each add-on is one file holding its [`AddonDef`] (written from the reference's facts by
//! `tools/gen_defs.py addon <key>`, then owned by hand), with any larger code in sibling
//! modules; [`ALL`] lists them. A new add-on is one new file and one line in [`ALL`].

use crate::json;
use crate::json::{Value, same_text};

use crate::bill::val::Obj;
use crate::fault::Fault;
use crate::tax::defs::{CorrectionDef, Hooks, Scenario};

mod en16931;
mod en16931_ext;
mod en16931_org;
mod en16931_rules;
mod es_aeat;
mod es_common;
mod eu_members;
mod xrechnung_rules;

pub mod ar_arca;
pub mod co_dian;
pub mod de_xrechnung;
pub mod de_zugferd;
pub mod es_facturae;
pub mod es_sii;
pub mod es_tbai;
pub mod es_verifactu;
pub mod eu_en16931;
pub mod fr_choruspro;
pub mod fr_facturx;
pub mod gr_mydata;
pub mod it_sdi;
pub mod it_ticket;
pub mod pl_favat;
pub mod pl_favat_v2;

/// The EN 16931 add-on's key.
pub const EN16931: &str = "eu-en16931-v2017";
/// The XRechnung add-on's key.
pub const XRECHNUNG: &str = "de-xrechnung-v3";

/// An add-on: its data and its hooks.
#[derive(Debug)]
pub struct AddonDef {
    /// The key documents list in `$addons`, e.g. `it-sdi-v1`.
    pub key: &'static str,
    /// Add-ons this one needs, listed before it when the document does not.
    pub requires: &'static [&'static str],
    /// Invoice tags the add-on defines.
    pub invoice_tags: &'static [&'static str],
    /// What a correction must carry under this add-on.
    pub corrections: CorrectionDef,
    /// The add-on's own code.
    pub hooks: Hooks,
    /// The extension keys the add-on defines, with their codes.
    pub extensions: &'static [ExtDef],
    /// Scenarios, applied after the regime's.
    pub scenarios: &'static [Scenario],
}

/// An extension key and the values it accepts.
#[derive(Debug)]
pub struct ExtDef {
    /// The key, e.g. `it-sdi-document-type`.
    pub key: &'static str,
    /// The codes it accepts (empty: any value that matches `pattern`, if given).
    pub codes: &'static [&'static str],
    /// A regular expression the value must match, when the key has no code list.
    pub pattern: Option<&'static str>,
}

/// Every add-on, in alphabetical order of key.
pub static ALL: &[&AddonDef] = &[
    &ar_arca::ADDON,
    &co_dian::ADDON,
    &de_xrechnung::ADDON,
    &de_zugferd::ADDON,
    &es_facturae::ADDON,
    &es_sii::ADDON,
    &es_tbai::ADDON,
    &es_verifactu::ADDON,
    &eu_en16931::ADDON,
    &fr_choruspro::ADDON,
    &fr_facturx::ADDON,
    &gr_mydata::ADDON,
    &it_sdi::ADDON,
    &it_ticket::ADDON,
    &pl_favat_v2::ADDON,
    &pl_favat::ADDON,
];

/// The add-on with `key`.
pub fn get(key: &str) -> Option<&'static AddonDef> {
    ALL.iter().copied().find(|a| a.key == key)
}

/// The extension definition for `key` among every add-on's.
pub fn extension(key: &str) -> Option<&'static ExtDef> {
    ALL.iter()
        .flat_map(|a| a.extensions.iter())
        .find(|e| e.key == key)
}

/// The extension definitions of the keys met so far in one document: [`extension`] searches
/// every add-on's list, and a document repeats a few keys on every line.
#[derive(Default)]
pub(crate) struct ExtDefs(Vec<(String, Option<&'static ExtDef>)>);

impl ExtDefs {
    /// [`extension`] of `key`.
    pub(crate) fn get(&mut self, key: &str) -> Option<&'static ExtDef> {
        if let Some((_, def)) = self.0.iter().find(|(k, _)| same_text(k, key)) {
            return *def;
        }
        let def = extension(key);
        self.0.push((key.to_string(), def));
        def
    }
}

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

/// The known add-ons a document lists, in its order (unknown keys are left to validation).
pub fn active(doc: &Obj) -> Vec<&'static AddonDef> {
    listed(doc).iter().filter_map(|k| get(k)).collect()
}

/// Completes `$addons` with what the listed ones require (each requirement before the first
/// add-on that needs it), then runs each add-on's normaliser.
pub(crate) fn normalize_invoice(doc: &mut Obj) {
    let mut addons = listed(doc);
    let mut i = 0;
    while i < addons.len() {
        let needs = get(&addons[i]).map(|a| a.requires).unwrap_or_default();
        for need in needs {
            if !addons.iter().any(|a| a == need) {
                addons.insert(i, (*need).to_string());
            }
        }
        i += 1;
    }
    if addons.is_empty() {
        return;
    }
    doc.insert("$addons".into(), json!(addons));
    for a in active(doc) {
        if let Some(f) = a.hooks.normalize {
            f(doc);
        }
    }
}

/// Runs each add-on's hook for a calculated invoice.
pub(crate) fn calculated_invoice(doc: &mut Obj) {
    for a in active(doc) {
        if let Some(f) = a.hooks.calculated {
            f(doc);
        }
    }
}

/// Adds the faults of the add-ons an invoice lists: unknown keys, extension codes outside
/// their lists (`ext_faults`, found by the validator's one walk of the document with
/// [`check_ext_map`]), and each add-on's own rules.
pub(crate) fn validate_invoice(doc: &Obj, ext_faults: Vec<Fault>, faults: &mut Vec<Fault>) {
    unknown(doc, faults);
    faults.extend(ext_faults);
    for a in active(doc) {
        if let Some(f) = a.hooks.validate {
            f(doc, faults);
        }
    }
}

/// A fault for each key of `$addons` that names no add-on.
pub(crate) fn unknown(doc: &Obj, faults: &mut Vec<Fault>) {
    for (i, key) in listed(doc).iter().enumerate() {
        if get(key).is_none() {
            faults.push(Fault::at(
                format!("doc.$addons[{i}]"),
                "addon-unknown",
                format!("add-on '{key}' is not defined"),
            ));
        }
    }
}

/// The `ext` map at `path`: a value of a key with a code list must be one of its codes.
pub(crate) fn check_ext_map(
    path: &dyn std::fmt::Display,
    ext: &Obj,
    defs: &mut ExtDefs,
    faults: &mut Vec<Fault>,
) {
    for (k, v) in ext {
        let (Some(def), Some(code)) = (defs.get(k), v.as_str()) else {
            continue;
        };
        let listed = |c: &&str| same_text(c, code);
        if !def.codes.is_empty() && !def.codes.iter().any(listed) {
            faults.push(Fault::at(
                format!("{path}.{k}"),
                "ext-code",
                format!("code '{code}' is not valid for '{k}'"),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extension_code_outside_its_list_is_a_fault_at_its_path() {
        let doc = json!({
            "$schema": "https://gobl.org/draft-0/bill/invoice",
            "$addons": ["es-verifactu-v1", "xx-nothing-v1"],
            "tax": {"ext": {"es-verifactu-doc-type": "F1"}},
            "lines": [{"taxes": [{"cat": "VAT", "ext": {"es-verifactu-exempt": "ZZ"}}]}]
        });
        let mut faults = crate::validate::validate_document(doc.as_object().unwrap()).0;
        faults.retain(|f| f.code == "ext-code");
        let got: Vec<(&str, &str)> = faults
            .iter()
            .map(|f| (f.code.as_str(), f.paths[0].as_str()))
            .collect();
        assert_eq!(
            got,
            [("ext-code", "doc.lines[0].taxes[0].ext.es-verifactu-exempt")]
        );
        let mut faults = Vec::new();
        validate_invoice(doc.as_object().unwrap(), Vec::new(), &mut faults);
        assert!(faults.iter().any(|f| f.code == "addon-unknown"
            && f.paths == ["doc.$addons[1]"]
            && f.message.contains("'xx-nothing-v1'")));
    }
}
