//! `es-sii-v1`: Spain SII V1.x (extensions, scenarios and corrections from the GOBL add-on definition).
//!
//! Its code: the exemption, outside-scope cause, regime and product of each VAT/IGIC combo,
//! the correction and third-party extensions of the invoice, the identity type of a foreign
//! customer, and the rules (`es-sii-bill-invoice-NN`, `es-sii-tax-combo-NN`) of the AEAT.

use crate::json::{Text, Value};

use crate::addons::es_aeat::{self as es, Rules};
use crate::addons::{AddonDef, ExtDef};
use crate::bill::val::{Obj, get, string};
use crate::fault::Fault;
use crate::tax::defs::*;

const DOC_TYPE: &str = "es-sii-doc-type";
const CORRECTION_TYPE: &str = "es-sii-correction-type";
const OUTSIDE_SCOPE: &str = "es-sii-outside-scope";
const EXEMPT: &str = "es-sii-exempt";
const REGIME: &str = "es-sii-regime";
const IDENTITY_TYPE: &str = "es-sii-identity-type";
const THIRD_PARTY: &str = "es-sii-third-party-issuer";
const PRODUCT: &str = "es-sii-product";

/// The `es-sii-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "es-sii-v1",
    requires: &[],
    invoice_tags: &["replacement"],
    corrections: CorrectionDef { types: &[], extensions: &["es-sii-doc-type"], copy_tax: true, normalize: Some(normalize_correction), ..CorrectionDef::NONE },
    hooks: Hooks { normalize: Some(normalize), validate: Some(validate), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "es-sii-doc-type", codes: &["F1", "F2", "F3", "F4", "F5", "F6", "R1", "R2", "R3", "R4", "R5", "AJ", "LC"], pattern: None },
        ExtDef { key: "es-sii-correction-type", codes: &["S", "I"], pattern: None },
        ExtDef { key: "es-sii-exempt", codes: &["E1", "E2", "E3", "E4", "E5", "E6"], pattern: None },
        ExtDef { key: "es-sii-outside-scope", codes: &["other", "location"], pattern: None },
        ExtDef { key: "es-sii-regime", codes: &["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "16", "17"], pattern: None },
        ExtDef { key: "es-sii-identity-type", codes: &["02", "03", "04", "05", "06", "07"], pattern: None },
        ExtDef { key: "es-sii-simplified-art7273", codes: &["S", "N"], pattern: None },
        ExtDef { key: "es-sii-third-party-issuer", codes: &["S", "N"], pattern: None },
        ExtDef { key: "es-sii-product", codes: &["goods", "services"], pattern: None },
    ],
    scenarios: &[
        // Standard Invoice
        Scenario { types: &["standard"], ext: &[("es-sii-doc-type", "F1")], ..Scenario::NONE },
        // Simplified Invoice
        Scenario { types: &["standard"], tags: &["simplified"], ext: &[("es-sii-doc-type", "F2")], ..Scenario::NONE },
        // Replacement Invoice
        Scenario { types: &["standard"], tags: &["replacement"], ext: &[("es-sii-doc-type", "F3")], ..Scenario::NONE },
        // Simplified Corrective Invoice
        Scenario { types: &["corrective", "credit-note", "debit-note"], tags: &["simplified"], ext: &[("es-sii-doc-type", "R5")], ..Scenario::NONE },
    ],
};

/// A correction's document type, given in the options, is the new invoice's.
fn normalize_correction(doc: &mut Doc, opts: &Doc) {
    es::correction_doc_type(doc, opts, DOC_TYPE);
}

/// Extensions derived before calculation.
fn normalize(doc: &mut Doc) {
    es::each_combo(doc, normalize_combo);
    for line in es::objects_mut(doc, "lines") {
        product(line);
    }
    es::correction(doc, DOC_TYPE, CORRECTION_TYPE);
    if es::has_tag(doc, "self-billed") || es::third_party_issuer(doc) {
        es::set_ext(es::tax_mut(doc), THIRD_PARTY, "S");
    }
    es::customer_identity_type(doc, IDENTITY_TYPE);
}

/// A VAT or IGIC combo's regime, and its exemption or outside-scope cause from its key.
fn normalize_combo(c: &mut Obj) {
    if !string(c, "cat").is_some_and(|k| es::VAT_LIKE.contains(&k)) {
        return;
    }
    if es::foreign(c) {
        // Taxed in another country: outside Spanish tax by the place of supply.
        es::set_ext(c, OUTSIDE_SCOPE, "location");
        es::set_one_of(c, REGIME, &["01", "17"]);
        es::delete_ext(c, EXEMPT);
        return;
    }
    let key = combo_key(c);
    if key == "export" {
        es::set_if_empty(c, REGIME, "02");
    }
    es::set_if_empty(c, REGIME, "01");
    match key.as_str() {
        "standard" | "zero" | "reverse-charge" => es::delete_ext(c, EXEMPT),
        // By location is the common case; `other` stays if given.
        "outside-scope" => {
            es::set_one_of(c, OUTSIDE_SCOPE, &["location", "other"]);
            es::delete_ext(c, EXEMPT);
        }
        "exempt" => exempt(c, &["E1", "E6"]),
        "export" => exempt(c, &["E2", "E3", "E4"]),
        "intra-community" => exempt(c, &["E5"]),
        _ => {}
    }
}

fn exempt(c: &mut Obj, codes: &[&str]) {
    es::set_one_of(c, EXEMPT, codes);
    es::delete_ext(c, OUTSIDE_SCOPE);
}

/// The combo's key; a combo without one takes it from its legacy extensions (standard when
/// they say nothing). A text of its own (inline: no allocation), as es-verifactu's.
fn combo_key(c: &mut Obj) -> Text {
    if let Some(k) = string(c, "key").filter(|k| !k.is_empty()) {
        return k.into();
    }
    let mut key = es::key_from_exempt(es::ext(c, EXEMPT));
    if es::has_ext(c, OUTSIDE_SCOPE) {
        key = Some("outside-scope");
    }
    let key = key.unwrap_or("standard");
    es::set_key(c, key);
    key.into()
}

/// Goods or services, from the item's key, on the line's VAT combo.
fn product(line: &mut Obj) {
    let code = match get(line, "item")
        .and_then(|i| i.get("key"))
        .and_then(Value::as_str)
    {
        Some("goods") => "goods",
        Some("services") => "services",
        _ => return,
    };
    if let Some(vat) = es::objects_mut(line, "taxes").find(|t| string(t, "cat") == Some("VAT")) {
        es::set_ext(vat, PRODUCT, code);
    }
}

/// The add-on's rules of a calculated invoice.
fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    let mut r = Rules {
        family: "es-sii",
        faults,
    };
    if !es::convertible_to_eur(doc) {
        let m = "invoice must be in EUR or provide exchange rate for conversion";
        r.invoice("15", "doc.currency", m);
    }
    let n = ["01", "02", "03", "07", "08", "09", "10", "11", "12"];
    es::common_rules(&mut r, doc, DOC_TYPE, CORRECTION_TYPE, n);
    customer_rules(&mut r, doc);
    lines_rules(&mut r, doc);
    for (path, c) in es::combos(doc) {
        combo_rules(&mut r, path, c);
    }
}

/// Any invoice but a simplified one identifies its customer.
fn customer_rules(r: &mut Rules, doc: &Doc) {
    if es::simplified(doc, DOC_TYPE) {
        return;
    }
    let Some(cus) = get(doc, "customer").and_then(Value::as_object) else {
        r.invoice("04", "doc.customer", "customer is required");
        return;
    };
    let tax_id = get(cus, "tax_id").and_then(Value::as_object);
    if tax_id.is_none() && !es::identity_with(cus, IDENTITY_TYPE) {
        let m = format!("must have a tax_id, or an identity with ext '{IDENTITY_TYPE}'");
        r.invoice("05", "doc.customer", &m);
    }
    if tax_id.is_some_and(|t| !es::present(t, "code")) {
        let m = "customer tax ID must have a code";
        r.invoice("06", "doc.customer.tax_id.code", m);
    }
}

/// The VAT and IGIC combos of the lines all give a product or none, and one regime.
fn lines_rules(r: &mut Rules, doc: &Doc) {
    let combos: Vec<&Obj> = es::objects(doc, "lines")
        .flat_map(|(_, l)| es::objects(l, "taxes").map(|(_, t)| t))
        .filter(|t| string(t, "cat").is_some_and(|k| es::VAT_LIKE.contains(&k)))
        .collect();
    let Some(first) = combos.first() else { return };
    if combos
        .iter()
        .any(|c| es::has_ext(c, PRODUCT) != es::has_ext(first, PRODUCT))
    {
        let m = format!("'{PRODUCT}' must be present in all tax combos or none");
        r.invoice("13", "doc.lines", &m);
    }
    if combos
        .iter()
        .any(|c| es::ext(c, REGIME) != es::ext(first, REGIME))
    {
        let m = format!("'{REGIME}' must be the same in all tax combos");
        r.invoice("14", "doc.lines", &m);
    }
}

/// A VAT or IGIC combo needs a regime, and no exemption when taxed or outside scope.
fn combo_rules(r: &mut Rules, path: es::ComboPath, c: &Obj) {
    if !string(c, "cat").is_some_and(|k| es::VAT_LIKE.contains(&k)) {
        return;
    }
    let at = path.ext();
    let regime = es::ext(c, REGIME);
    if regime.is_none() {
        r.combo("01", at, &format!("extension '{REGIME}' is required"));
    }
    if es::present(c, "percent") && es::has_ext(c, EXEMPT) {
        let m = format!("extension '{EXEMPT}' must not be set when percent is set");
        r.combo("02", at, &m);
    }
    if es::has_ext(c, OUTSIDE_SCOPE) && es::has_ext(c, EXEMPT) {
        let m = format!("extension '{EXEMPT}' must not be set when '{OUTSIDE_SCOPE}' is set");
        r.combo("03", at, &m);
    }
    if regime.is_none_or(|g| g == "01") && matches!(es::ext(c, EXEMPT), Some("E2" | "E3")) {
        let m = format!("exempt codes E2 and E3 not allowed with '{REGIME}' 01");
        r.combo("04", at, &m);
    }
}
