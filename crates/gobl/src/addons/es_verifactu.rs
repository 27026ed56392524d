//! `es-verifactu-v1`: Spain VERI*FACTU V1 (extensions, scenarios and corrections from the GOBL add-on definition).
//!
//! Its code: the operation class, exemption and regime of each VAT/IGIC combo derived from
//! the combo's key (or the key from legacy extensions), the correction and issuer
//! extensions of the invoice, the identity type of a foreign customer, and the rules
//! (`es-verifactu-bill-invoice-NN`, `es-verifactu-tax-combo-NN`) the AEAT's checks need.

use crate::addons::es_aeat::{self as es, Rules};
use crate::addons::{AddonDef, ExtDef};
use crate::bill::val::{Obj, get, string};
use crate::fault::Fault;
use crate::json::Text;
use crate::tax::defs::*;

const DOC_TYPE: &str = "es-verifactu-doc-type";
const CORRECTION_TYPE: &str = "es-verifactu-correction-type";
const OP_CLASS: &str = "es-verifactu-op-class";
const EXEMPT: &str = "es-verifactu-exempt";
const REGIME: &str = "es-verifactu-regime";
const IDENTITY_TYPE: &str = "es-verifactu-identity-type";
const ISSUER_TYPE: &str = "es-verifactu-issuer-type";

/// The `es-verifactu-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "es-verifactu-v1",
    requires: &[],
    invoice_tags: &["replacement"],
    corrections: CorrectionDef { types: &[], extensions: &["es-verifactu-doc-type"], copy_tax: true, normalize: Some(normalize_correction), ..CorrectionDef::NONE },
    hooks: Hooks { normalize: Some(normalize), validate: Some(validate), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "es-verifactu-doc-type", codes: &["F1", "F2", "F3", "R1", "R2", "R3", "R4", "R5"], pattern: None },
        ExtDef { key: "es-verifactu-correction-type", codes: &["S", "I"], pattern: None },
        ExtDef { key: "es-verifactu-op-class", codes: &["S1", "S2", "N1", "N2"], pattern: None },
        ExtDef { key: "es-verifactu-exempt", codes: &["E1", "E2", "E3", "E4", "E5", "E6"], pattern: None },
        ExtDef { key: "es-verifactu-regime", codes: &["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "14", "15", "17", "18", "19", "20"], pattern: None },
        ExtDef { key: "es-verifactu-identity-type", codes: &["02", "03", "04", "05", "06", "07"], pattern: None },
        ExtDef { key: "es-verifactu-simplified-art7273", codes: &["S", "N"], pattern: None },
        ExtDef { key: "es-verifactu-issuer-type", codes: &["T", "D"], pattern: None },
    ],
    scenarios: &[
        // Standard Invoice
        Scenario { types: &["standard"], ext: &[("es-verifactu-doc-type", "F1")], ..Scenario::NONE },
        // Simplified Invoice
        Scenario { types: &["standard"], tags: &["simplified"], ext: &[("es-verifactu-doc-type", "F2")], ..Scenario::NONE },
        // Replacement Invoice
        Scenario { types: &["standard"], tags: &["replacement"], ext: &[("es-verifactu-doc-type", "F3")], ..Scenario::NONE },
        // Simplified Corrective Invoice
        Scenario { types: &["corrective", "credit-note", "debit-note"], tags: &["simplified"], ext: &[("es-verifactu-doc-type", "R5")], ..Scenario::NONE },
    ],
};

/// A correction's document type, given in the options, is the new invoice's.
fn normalize_correction(doc: &mut Doc, opts: &Doc) {
    es::correction_doc_type(doc, opts, DOC_TYPE);
}

/// Extensions derived before calculation.
fn normalize(doc: &mut Doc) {
    es::each_combo(doc, normalize_combo);
    es::correction(doc, DOC_TYPE, CORRECTION_TYPE);
    if es::has_tag(doc, "self-billed") {
        es::set_ext(es::tax_mut(doc), ISSUER_TYPE, "D");
    }
    if es::third_party_issuer(doc) {
        es::set_ext(es::tax_mut(doc), ISSUER_TYPE, "T");
    }
    es::customer_identity_type(doc, IDENTITY_TYPE);
}

/// A VAT or IGIC combo's regime, and its operation class or exemption from its key.
fn normalize_combo(c: &mut Obj) {
    if !string(c, "cat").is_some_and(|k| es::VAT_LIKE.contains(&k)) {
        return;
    }
    if es::foreign(c) {
        // Taxed in another country: not subject to Spanish tax by the place of supply.
        es::set_ext(c, OP_CLASS, "N2");
        es::set_one_of(c, REGIME, &["01", "17"]);
        es::delete_ext(c, EXEMPT);
        return;
    }
    let key = combo_key(c);
    if key == "export" {
        es::set_if_empty(c, REGIME, "02");
    }
    if es::present(c, "surcharge") {
        es::set_if_empty(c, REGIME, "18");
    }
    es::set_if_empty(c, REGIME, "01");
    match key.as_str() {
        "standard" | "zero" => class(c, "S1"),
        "reverse-charge" => class(c, "S2"),
        // Outside scope by the place of supply (N2) is the common case; N1 stays if given.
        "outside-scope" => {
            es::set_one_of(c, OP_CLASS, &["N2", "N1"]);
            es::delete_ext(c, EXEMPT);
        }
        "exempt" => exempt(c, &["E1", "E6"]),
        "export" => exempt(c, &["E2", "E3", "E4"]),
        "intra-community" => exempt(c, &["E5"]),
        _ => {}
    }
}

fn class(c: &mut Obj, code: &str) {
    es::set_ext(c, OP_CLASS, code);
    es::delete_ext(c, EXEMPT);
}

fn exempt(c: &mut Obj, codes: &[&str]) {
    es::set_one_of(c, EXEMPT, codes);
    es::delete_ext(c, OP_CLASS);
}

/// The combo's key; a combo without one takes it from its legacy extensions (standard when
/// they say nothing). A text of its own (inline: no allocation), as the combo is changed next.
fn combo_key(c: &mut Obj) -> Text {
    if let Some(k) = string(c, "key").filter(|k| !k.is_empty()) {
        return k.into();
    }
    let mut key = es::key_from_exempt(es::ext(c, EXEMPT));
    match es::ext(c, OP_CLASS) {
        Some("S2") => key = Some("reverse-charge"),
        Some("N1" | "N2") => key = Some("outside-scope"),
        _ => {}
    }
    let key = key.unwrap_or("standard");
    es::set_key(c, key);
    key.into()
}

/// The add-on's rules of a calculated invoice.
fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    let mut r = Rules {
        family: "es-verifactu",
        faults,
    };
    if !es::convertible_to_eur(doc) {
        let m = "invoice must be in EUR or provide exchange rate for conversion";
        r.invoice("16", "doc.currency", m);
    }
    let n = ["01", "02", "03", "09", "10", "13", "11", "12", "14"];
    es::common_rules(&mut r, doc, DOC_TYPE, CORRECTION_TYPE, n);
    customer_rules(&mut r, doc);
    for (i, line) in es::objects(doc, "lines") {
        let taxed = es::objects(line, "taxes")
            .any(|(_, t)| matches!(string(t, "cat"), Some("VAT" | "IGIC" | "IPSI")));
        if !taxed {
            let m = "must include at least one of VAT, IGIC, or IPSI";
            r.invoice("15", format!("doc.lines[{i}].taxes"), m);
        }
    }
    for (path, c) in es::combos(doc) {
        combo_rules(&mut r, path, c);
    }
}

/// A simplified invoice identifies no customer; any other one identifies it fully.
fn customer_rules(r: &mut Rules, doc: &Doc) {
    let cus = get(doc, "customer").and_then(|c| c.as_object());
    if es::simplified(doc, DOC_TYPE) {
        let Some(cus) = cus else { return };
        if es::present(cus, "tax_id") {
            let m = "customer tax ID must not be set for simplified invoices";
            r.invoice("04", "doc.customer.tax_id", m);
        }
        if es::identity_with(cus, IDENTITY_TYPE) {
            let m = "customer identity type extension not allowed for simplified invoices";
            r.invoice("05", "doc.customer", m);
        }
        return;
    }
    let Some(cus) = cus else {
        r.invoice("06", "doc.customer", "customer is required");
        return;
    };
    let tax_id = get(cus, "tax_id").and_then(|t| t.as_object());
    if tax_id.is_none() && !es::identity_with(cus, IDENTITY_TYPE) {
        let m = "must have a tax_id or an identity with ext 'es-verifactu-identity-type'";
        r.invoice("07", "doc.customer", m);
    }
    if tax_id.is_some_and(|t| !es::present(t, "code")) {
        r.invoice("08", "doc.customer.tax_id.code", "tax ID must have a code");
    }
    for (i, id) in es::objects(cus, "identities") {
        let other = es::ext(id, IDENTITY_TYPE).is_some_and(|t| t != "02");
        if other && !es::present(id, "country") {
            let m = "country is required when ext 'es-verifactu-identity-type' is not 02 (NIF-VAT)";
            r.invoice("17", format!("doc.customer.identities[{i}].country"), m);
        }
    }
}

/// A VAT or IGIC combo needs a regime, an operation class when taxed, and never both an
/// operation class and an exemption. (Its `ext` map is found once for its four codes' rules.)
fn combo_rules(r: &mut Rules, path: es::ComboPath, c: &Obj) {
    if !string(c, "cat").is_some_and(|k| es::VAT_LIKE.contains(&k)) {
        return;
    }
    let ext = get(c, "ext").and_then(|e| e.as_object());
    let code = |key: &str| ext.and_then(|e| e.get(key)).and_then(|v| v.as_str());
    let has = |key: &str| code(key).is_some_and(|v| !v.is_empty());
    let at = path.ext();
    let regime = code(REGIME);
    if regime.is_none() {
        r.combo("01", at, &format!("extension '{REGIME}' is required"));
    }
    if regime.is_none_or(|g| g == "01") && matches!(code(EXEMPT), Some("E2" | "E3")) {
        let m = format!("exempt codes E2 and E3 not allowed with '{REGIME}' 01");
        r.combo("02", at, &m);
    }
    let class = has(OP_CLASS);
    if class && has(EXEMPT) {
        let m = format!("cannot use both '{OP_CLASS}' and '{EXEMPT}' at the same time");
        r.combo("03", at, &m);
    }
    if es::present(c, "percent") && !class {
        let m = format!("extension '{OP_CLASS}' is required for taxed operations");
        r.combo("04", at, &m);
    }
}
