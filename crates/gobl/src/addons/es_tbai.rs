//! `es-tbai-v1`: Spain TicketBAI. Its extensions and correction definition are data; its
//! code derives the combos' exemption, regime and product codes from their tax keys and
//! items, the region from the supplier's address, the simplified flag from the tag and the
//! customer's identity type, and checks what a TicketBAI document needs (`es-tbai-*` rules).

use crate::json::Value;

use super::es_common::{
    TaxCodeKind, combos, converts_to_eur, delete_ext, each_combo_mut, ext, in_eu, is_correction,
    list, party_tax_code_kind, set_ext, set_ext_if_empty, set_ext_one_of,
};
use crate::addons::{AddonDef, ExtDef};
use crate::bill::val::{Obj, field, get, get_mut, string};
use crate::fault::Fault;
use crate::tax::defs::*;

/// The `es-tbai-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "es-tbai-v1",
    requires: &[],
    invoice_tags: &[],
    corrections: CorrectionDef { types: &[], extensions: &["es-tbai-correction"], ..CorrectionDef::NONE },
    hooks: Hooks { normalize: Some(normalize), validate: Some(validate), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "es-tbai-region", codes: &["VI", "BI", "SS"], pattern: None },
        ExtDef { key: "es-tbai-product", codes: &["goods", "services", "resale"], pattern: None },
        ExtDef { key: "es-tbai-exemption", codes: &["E1", "E2", "E3", "E4", "E5", "E6", "OT", "RL", "VT", "IE", "S2"], pattern: None },
        ExtDef { key: "es-tbai-correction", codes: &["R1", "R2", "R3", "R4", "R5"], pattern: None },
        ExtDef { key: "es-tbai-regime", codes: &["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "17", "51", "52", "53"], pattern: None },
        ExtDef { key: "es-tbai-bi-activity", codes: &[], pattern: Some("^\\d{1,7}$") },
        ExtDef { key: "es-tbai-identity-type", codes: &["02", "03", "04", "05", "06"], pattern: None },
        ExtDef { key: "es-tbai-simplified", codes: &["S", "N"], pattern: None },
    ],
    scenarios: &[],
};

const REGION: &str = "es-tbai-region";
const PRODUCT: &str = "es-tbai-product";
const EXEMPTION: &str = "es-tbai-exemption";
const CORRECTION: &str = "es-tbai-correction";
const REGIME: &str = "es-tbai-regime";
const BI_ACTIVITY: &str = "es-tbai-bi-activity";
const IDENTITY_TYPE: &str = "es-tbai-identity-type";
const SIMPLIFIED: &str = "es-tbai-simplified";

// ---- normalisation ----

fn normalize(doc: &mut Doc) {
    each_combo_mut(doc, normalize_combo);
    if let Some(Value::Array(lines)) = get_mut(doc, "lines") {
        lines
            .iter_mut()
            .filter_map(Value::as_object_mut)
            .for_each(normalize_line);
    }
    derive_region(doc);
    if has_tag(doc, "simplified") {
        set_ext(tax_mut(doc), SIMPLIFIED, "S");
    }
    derive_identity_type(doc);
}

/// Exemption and regime codes from a combo's tax key (or the key from a legacy exemption).
fn normalize_combo(c: &mut Obj) {
    match string(c, "cat") {
        Some("VAT") => normalize_vat(c),
        // IGIC passes on a tax not subject to VAT by localisation rules: exemption IE,
        // regime 08 (operations under IPSI/IGIC) unless given.
        Some("IGIC") => {
            set_ext(c, EXEMPTION, "IE");
            set_ext_if_empty(c, REGIME, "08");
        }
        _ => {}
    }
}

fn normalize_vat(c: &mut Obj) {
    if let Some(country) = string(c, "country").filter(|k| !k.is_empty() && *k != "ES") {
        // Taxed in another country: not subject here by localisation rules.
        let code = if in_eu(country) { "IE" } else { "RL" };
        set_ext(c, EXEMPTION, code);
        set_ext_if_empty(c, REGIME, "01");
        return;
    }
    let key = key_from_exemption(c);
    if key == "export" {
        set_ext_if_empty(c, REGIME, "02");
    }
    let eqs = get(c, "surcharge").is_some_and(|v| !v.is_null())
        || string(c, "rate").is_some_and(|r| r.split('+').any(|k| k == "eqs"));
    if eqs {
        set_ext_if_empty(c, REGIME, "51");
    }
    set_ext_if_empty(c, REGIME, "01");
    match key.as_str() {
        "standard" | "zero" => delete_ext(c, EXEMPTION),
        "reverse-charge" => set_ext(c, EXEMPTION, "S2"),
        // Localisation rules are the likeliest reason an operation is out of scope.
        "outside-scope" => set_ext_one_of(c, EXEMPTION, "RL", &["IE", "OT", "VT"]),
        "exempt" => set_ext_one_of(c, EXEMPTION, "E1", &["E6"]),
        "export" => set_ext_one_of(c, EXEMPTION, "E2", &["E3", "E4"]),
        "intra-community" => set_ext(c, EXEMPTION, "E5"),
        _ => {}
    }
}

/// The combo's key; without one, the key its exemption code implies (`standard` when none),
/// written to the combo: documents from before tax keys carried only the code.
fn key_from_exemption(c: &mut Obj) -> String {
    if let Some(k) = string(c, "key").filter(|k| !k.is_empty()) {
        return k.to_string();
    }
    let key = match ext(c, EXEMPTION) {
        Some("E1" | "E6") => "exempt",
        Some("E2" | "E3" | "E4") => "export",
        Some("E5") => "intra-community",
        Some("S2") => "reverse-charge",
        Some("OT" | "RL" | "VT" | "IE") => "outside-scope",
        _ => "standard",
    };
    c.insert("key".into(), Value::String(key.into()));
    key.to_string()
}

/// The product code of a line's first VAT combo, from its item's key.
fn normalize_line(line: &mut Obj) {
    let item_key = match get(line, "item") {
        Some(item) => field(item, "key").and_then(Value::as_str).unwrap_or(""),
        None => return,
    }
    .to_string();
    let Some(Value::Array(taxes)) = get_mut(line, "taxes") else {
        return;
    };
    let Some(vat) = taxes
        .iter_mut()
        .filter_map(Value::as_object_mut)
        .find(|c| string(c, "cat") == Some("VAT"))
    else {
        return;
    };
    match item_key.as_str() {
        "goods" => set_ext_one_of(vat, PRODUCT, "goods", &["resale"]),
        "services" | "" => set_ext(vat, PRODUCT, "services"),
        _ => {}
    }
}

/// The region code from the supplier's first address, unless given: the provinces go by
/// Spanish, Basque and code names.
fn derive_region(doc: &mut Doc) {
    if get(doc, "tax")
        .and_then(|t| field(t, "ext")?.get(REGION))
        .is_some()
    {
        return;
    }
    let region = get(doc, "supplier")
        .and_then(|s| field(s, "addresses")?.get(0))
        .and_then(|a| field(a, "region")?.as_str())
        .map(str::to_lowercase);
    let code = match region.as_deref() {
        Some("alava" | "álava" | "araba" | "vi") => "VI",
        Some("bizkaia" | "vizcaya" | "bi") => "BI",
        Some("gipuzkoa" | "guipuzcoa" | "guipúzcoa" | "ss") => "SS",
        _ => return,
    };
    set_ext(tax_mut(doc), REGION, code);
}

/// The identity type of a customer without a Spanish tax code, from its first identity's key.
fn derive_identity_type(doc: &mut Doc) {
    let Some(cus) = get_mut(doc, "customer").and_then(Value::as_object_mut) else {
        return;
    };
    let spanish_code = get(cus, "tax_id").is_some_and(|t| {
        field(t, "country").and_then(Value::as_str) == Some("ES")
            && field(t, "code")
                .and_then(Value::as_str)
                .is_some_and(|c| !c.is_empty())
    });
    if spanish_code {
        return;
    }
    let Some(id) = get_mut(cus, "identities")
        .and_then(|ids| ids.get_mut(0))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let code = match string(id, "key") {
        Some("passport") => "03",
        Some("foreign") => "04",
        Some("resident") => "05",
        Some("other") => "06",
        _ => return,
    };
    set_ext(id, IDENTITY_TYPE, code);
}

fn has_tag(doc: &Doc, tag: &str) -> bool {
    get(doc, "$tags")
        .and_then(Value::as_array)
        .is_some_and(|t| t.iter().any(|x| x.as_str() == Some(tag)))
}

/// The invoice's `tax` object, created when absent.
fn tax_mut(doc: &mut Doc) -> &mut Obj {
    let tax = doc
        .entry("tax".into())
        .or_insert_with(|| Value::Object(Obj::new()));
    if !tax.is_object() {
        *tax = Value::Object(Obj::new());
    }
    tax.as_object_mut().expect("tax is an object")
}

// ---- validation ----

fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    let mut fault = |path: &str, n: &str, message: &str| {
        faults.push(Fault::at(
            path,
            &format!("GOBL-ES-TBAI-BILL-INVOICE-{n}"),
            message,
        ));
    };
    if !converts_to_eur(doc) {
        fault(
            "doc",
            "09",
            "invoice must be in EUR or provide exchange rate for conversion",
        );
    }
    match get(doc, "tax").and_then(Value::as_object) {
        None => fault("doc.tax", "01", "invoice tax is required"),
        Some(tax) if ext(tax, REGION).is_none() => fault(
            "doc.tax.ext",
            "02",
            "invoice tax extension 'es-tbai-region' is required",
        ),
        _ => {}
    }
    customer_rules(doc, &mut fault);
    preceding_rules(doc, &mut fault);
    if !list(doc, "notes")
        .iter()
        .any(|n| field(n, "key").and_then(Value::as_str) == Some("general"))
    {
        fault(
            "doc.notes",
            "07",
            "invoice must have a note with key 'general'",
        );
    }
    activity_rules(doc, &mut fault);
    combo_rules(doc, faults);
}

fn customer_rules(doc: &Doc, fault: &mut impl FnMut(&str, &str, &str)) {
    let simplified = get(doc, "tax")
        .and_then(Value::as_object)
        .is_some_and(|t| ext(t, SIMPLIFIED) == Some("S"));
    if simplified {
        return;
    }
    let Some(cus) = get(doc, "customer") else {
        fault(
            "doc.customer",
            "03",
            "invoice customer is required for non-simplified invoices",
        );
        return;
    };
    let identified = field(cus, "tax_id").is_some()
        || field(cus, "identities")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|id| {
                field(id, "ext")
                    .and_then(|e| e.get(IDENTITY_TYPE))
                    .is_some()
            });
    if !identified {
        fault(
            "doc.customer",
            "08",
            "invoice customer must have a tax_id or an identity with ext 'es-tbai-identity-type'",
        );
    }
}

fn preceding_rules(doc: &Doc, fault: &mut impl FnMut(&str, &str, &str)) {
    let preceding = list(doc, "preceding");
    if is_correction(doc) && preceding.is_empty() {
        fault(
            "doc.preceding",
            "04",
            "invoice preceding documents are required for credit-note, corrective, debit-note invoices",
        );
    }
    for (i, p) in preceding.iter().enumerate() {
        if field(p, "issue_date").is_none_or(|d| d.as_str() == Some("")) {
            fault(
                &format!("doc.preceding[{i}].issue_date"),
                "05",
                "invoice preceding issue date is required",
            );
        }
        if field(p, "ext").and_then(|e| e.get(CORRECTION)).is_none() {
            fault(
                &format!("doc.preceding[{i}].ext"),
                "06",
                "invoice preceding ext 'es-tbai-correction' is required",
            );
        }
    }
}

/// Bizkaia's individuals (not organisations) file through Modelo 140, which needs their
/// activity code (epígrafe); a code given must have its shape.
fn activity_rules(doc: &Doc, fault: &mut impl FnMut(&str, &str, &str)) {
    let Some(supplier) = get(doc, "supplier") else {
        return;
    };
    let activity = field(supplier, "ext")
        .and_then(|e| e.get(BI_ACTIVITY))
        .and_then(Value::as_str);
    let in_bizkaia = get(doc, "tax")
        .and_then(Value::as_object)
        .is_some_and(|t| ext(t, REGION) == Some("BI"));
    if in_bizkaia && party_tax_code_kind(supplier) != Some(TaxCodeKind::Org) && activity.is_none() {
        fault(
            "doc.supplier.ext",
            "10",
            "invoice supplier extension 'es-tbai-bi-activity' is required for Bizkaia individuals",
        );
    }
    if activity.is_some_and(|a| !is_activity_code(a)) {
        fault(
            "doc.supplier.ext",
            "11",
            "invoice supplier extension 'es-tbai-bi-activity' must be a valid Bizkaia activity code (epígrafe)",
        );
    }
}

/// One to seven digits.
fn is_activity_code(a: &str) -> bool {
    (1..=7).contains(&a.len()) && a.bytes().all(|b| b.is_ascii_digit())
}

/// Exempt VAT and IGIC combos must say why (`es-tbai-tax-combo-01`).
fn combo_rules(doc: &Doc, faults: &mut Vec<Fault>) {
    for (path, c) in combos(doc) {
        let exempt =
            matches!(string(c, "cat"), Some("VAT" | "IGIC")) && string(c, "key") == Some("exempt");
        if exempt && ext(c, EXEMPTION).is_none() {
            faults.push(Fault::at(
                format!("{path}.ext"),
                "GOBL-ES-TBAI-TAX-COMBO-01",
                "extension 'es-tbai-exemption' is required for exempt tax combos",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;

    /// The combo `c` after normalisation.
    fn combo(c: Value) -> Value {
        let mut o = c.as_object().unwrap().clone();
        normalize_combo(&mut o);
        Value::Object(o)
    }

    #[test]
    fn combo_codes_follow_the_tax_key() {
        let c = combo(json!({"cat": "VAT", "key": "outside-scope", "ext": {EXEMPTION: "OT"}}));
        assert_eq!(c["ext"], json!({EXEMPTION: "OT", REGIME: "01"}));
        let c = combo(json!({"cat": "VAT", "key": "exempt", "ext": {EXEMPTION: "E6"}}));
        assert_eq!(c["ext"][EXEMPTION], "E6");
        let c = combo(json!({"cat": "VAT", "key": "reverse-charge"}));
        assert_eq!(c["ext"][EXEMPTION], "S2");
        let c = combo(json!({"cat": "VAT", "key": "export", "ext": {REGIME: "05"}}));
        assert_eq!(c["ext"], json!({REGIME: "05", EXEMPTION: "E2"}));
        // a code that is not an exemption: the standard key, and the code goes
        let c = combo(json!({"cat": "VAT", "ext": {EXEMPTION: "S1"}}));
        assert_eq!(
            c,
            json!({"cat": "VAT", "ext": {REGIME: "01"}, "key": "standard"})
        );
    }

    #[test]
    fn foreign_and_igic_combos_are_not_subject_here() {
        let c = combo(json!({"cat": "VAT", "country": "FR", "ext": {EXEMPTION: "OT"}}));
        assert_eq!(c["ext"], json!({EXEMPTION: "IE", REGIME: "01"}));
        let c = combo(json!({"cat": "VAT", "country": "JP"}));
        assert_eq!(c["ext"][EXEMPTION], "RL");
        assert!(c.get("key").is_none());
        let c = combo(json!({"cat": "IGIC", "key": "outside-scope"}));
        assert_eq!(c["ext"], json!({EXEMPTION: "IE", REGIME: "08"}));
        let c = combo(json!({"cat": "IGIC", "ext": {REGIME: "01"}}));
        assert_eq!(c["ext"][REGIME], "01");
        let c = combo(json!({"cat": "IRPF", "rate": "pro"}));
        assert!(c.get("ext").is_none());
    }

    #[test]
    fn bizkaia_activity_codes_are_one_to_seven_digits() {
        assert!(is_activity_code("1") && is_activity_code("1234567"));
        assert!(!is_activity_code("") && !is_activity_code("12345678"));
        assert!(!is_activity_code("12a"));
    }
}
