//! `ar-arca-v4`: Argentina ARCA V4 (extensions, scenarios and corrections from the GOBL
//! add-on definition). Normalising fills the codes ARCA needs from what the invoice already
//! says — each VAT combo's rate code, the customer's VAT status, the document type (class A,
//! B or C by the customer and the `monotax` tag) and the concept (goods, services or both);
//! `rules` holds the add-on's validation.

use crate::json::{Map, Value};

use crate::addons::{AddonDef, ExtDef};
use crate::bill::val::{ext, set_ext};
use crate::tax::defs::*;

mod rules;

/// The `ar-arca-v4` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "ar-arca-v4",
    requires: &[],
    invoice_tags: &["monotax"],
    corrections: CorrectionDef { types: &[], extensions: &["ar-arca-doc-type"], normalize: Some(correction), ..CorrectionDef::NONE },
    hooks: Hooks { normalize: Some(normalize_invoice), validate: Some(rules::validate_invoice), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "ar-arca-doc-type", codes: &["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "15", "34", "35", "39", "40", "49", "51", "52", "53", "54", "60", "61", "63", "64", "201", "202", "203", "206", "207", "208", "211", "212", "213", "195", "196", "197"], pattern: None },
        ExtDef { key: "ar-arca-concept", codes: &["1", "2", "3"], pattern: None },
        ExtDef { key: "ar-arca-tax-type", codes: &["1", "2", "3", "4", "5", "6", "7", "8", "9", "13", "99"], pattern: None },
        ExtDef { key: "ar-arca-vat-rate", codes: &["3", "4", "5", "6", "8", "9"], pattern: None },
        ExtDef { key: "ar-arca-identity-type", codes: &["00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "16", "17", "18", "19", "20", "21", "22", "23", "24", "80", "86", "87", "89", "90", "91", "92", "93", "94", "95", "96", "99"], pattern: None },
        ExtDef { key: "ar-arca-vat-status", codes: &["1", "4", "5", "6", "7", "8", "9", "10", "13", "15", "16"], pattern: None },
        ExtDef { key: "ar-arca-tourism-type", codes: &["1", "2", "3", "4", "5", "6"], pattern: None },
        ExtDef { key: "ar-arca-tourism-item", codes: &["1", "2", "5"], pattern: None },
    ],
    scenarios: &[],
};

/// Customer VAT statuses that call for class A documents: registered VAT companies and the
/// monotributo statuses.
const VAT_STATUSES_A: &[&str] = &["1", "6", "13", "16"];

/// Statuses a customer without a tax id may have, the default (final consumer) first.
const STATUSES_NO_TAX_ID: &[&str] = &["5", "4", "7", "10", "15"];
/// Statuses a customer with a foreign tax id may have, the default (foreign customer) first.
const STATUSES_FOREIGN: &[&str] = &["9", "8"];
/// Statuses a customer with an Argentine tax id may have, the default (registered) first.
const STATUSES_LOCAL: &[&str] = &["1", "6", "13", "16", "4", "7", "10", "15"];

/// Sets the codes ARCA needs on an invoice.
fn normalize_invoice(doc: &mut Doc) {
    for list in ["lines", "discounts", "charges"] {
        for item in array_mut(doc, list) {
            for combo in item
                .get_mut("taxes")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                vat_rate(combo);
            }
        }
    }
    if let Some(customer) = doc.get_mut("customer").and_then(Value::as_object_mut) {
        customer_vat_status(customer);
    }
    doc_type(doc);
    concept(doc);
}

fn array_mut<'a>(doc: &'a mut Doc, key: &str) -> impl Iterator<Item = &'a mut Value> {
    doc.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

/// The ARCA VAT rate code of a combo, from its key (zero) or its rate.
fn vat_rate(combo: &mut Value) {
    let Some(c) = combo.as_object_mut() else {
        return;
    };
    let key = c.get("key").and_then(Value::as_str);
    let rate = c.get("rate").and_then(Value::as_str);
    let code = match (key, rate) {
        (Some("zero"), _) => "3",
        (_, Some("reduced")) => "4",
        (_, Some("general")) => "5",
        (_, Some("increased")) => "6",
        _ => return,
    };
    set_ext(c, "ar-arca-vat-rate", code);
}

/// The customer's VAT status: kept when it suits the kind of tax id the customer has,
/// else that kind's default.
fn customer_vat_status(p: &mut Map) {
    let country = p.get("tax_id").and_then(|t| {
        t.as_object()
            .map(|t| t.get("country").and_then(Value::as_str).unwrap_or(""))
    });
    let allowed = match country {
        None => STATUSES_NO_TAX_ID,
        Some("AR") => STATUSES_LOCAL,
        Some(_) => STATUSES_FOREIGN,
    };
    let current = ext(p, "ar-arca-vat-status");
    if !current.is_some_and(|c| allowed.contains(&c)) {
        set_ext(p, "ar-arca-vat-status", allowed[0]);
    }
}

/// The invoice's `tax` object, created when missing.
fn tax_mut(doc: &mut Doc) -> &mut Map {
    let tax = doc
        .entry("tax".into())
        .or_insert_with(|| Value::Object(Map::new()));
    if !tax.is_object() {
        *tax = Value::Object(Map::new());
    }
    tax.as_object_mut().expect("tax is an object")
}

/// The document type, unless given: class C under the `monotax` tag, else class A for a
/// customer with an A status, else class B; then the invoice, debit or credit note of it.
fn doc_type(doc: &mut Doc) {
    // The reference gives every ARCA invoice a `tax` object, even one left empty.
    if ext(tax_mut(doc), "ar-arca-doc-type").is_some_and(|c| !c.is_empty()) {
        return;
    }
    let monotax = doc
        .get("$tags")
        .and_then(Value::as_array)
        .is_some_and(|t| t.iter().any(|x| x == "monotax"));
    let status = doc
        .get("customer")
        .and_then(Value::as_object)
        .and_then(|c| ext(c, "ar-arca-vat-status"));
    let class = if monotax {
        ["11", "12", "13"]
    } else if status.is_some_and(|s| VAT_STATUSES_A.contains(&s)) {
        ["1", "2", "3"]
    } else {
        ["6", "7", "8"]
    };
    let code = match doc.get("type").and_then(Value::as_str) {
        Some("standard") => class[0],
        Some("debit-note") => class[1],
        Some("credit-note") => class[2],
        _ => return,
    };
    set_ext(tax_mut(doc), "ar-arca-doc-type", code);
}

/// The concept: products (1) when every line is of goods, services (2) when none is, both
/// (3) otherwise. Replaces a given concept; no lines, no concept.
fn concept(doc: &mut Doc) {
    let lines = doc.get("lines").and_then(Value::as_array);
    let (mut goods, mut services) = (false, false);
    for line in lines.into_iter().flatten() {
        let key = line
            .get("item")
            .and_then(|i| i.get("key"))
            .and_then(Value::as_str);
        if key == Some("goods") {
            goods = true;
        } else {
            services = true;
        }
    }
    let code = match (goods, services) {
        (true, true) => "3",
        (true, false) => "1",
        (false, true) => "2",
        (false, false) => return,
    };
    set_ext(tax_mut(doc), "ar-arca-concept", code);
}

/// A correction keeps the corrected invoice's codes (document type, concept, …) in its
/// preceding reference, under any the options give; a document type among the options is
/// the new document's own.
fn correction(doc: &mut Doc, opts: &Map) {
    let original = doc
        .get("tax")
        .and_then(|t| t.get("ext"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let Some(pre) = doc
        .get_mut("preceding")
        .and_then(|p| p.get_mut(0))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let mut ext = original;
    if let Some(given) = pre.get("ext").and_then(Value::as_object) {
        for (k, v) in given {
            if k != "ar-arca-doc-type" {
                ext.insert(k.clone(), v.clone());
            }
        }
    }
    if ext.is_empty() {
        pre.remove("ext");
    } else {
        pre.insert("ext".into(), Value::Object(ext));
    }
    if let Some(code) = opts
        .get("ar-arca-doc-type")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
    {
        set_ext(tax_mut(doc), "ar-arca-doc-type", code);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn status(customer: Value) -> Value {
        let mut doc = json!({"type": "standard", "customer": customer});
        normalize_invoice(doc.as_object_mut().unwrap());
        doc["customer"]["ext"]["ar-arca-vat-status"].clone()
    }

    #[test]
    fn customer_vat_status_suits_its_tax_id() {
        let ar = json!({"country": "AR", "code": "30987654321"});
        let br = json!({"country": "BR", "code": "11222333000181"});
        assert_eq!(status(json!({"tax_id": ar})), "1");
        assert_eq!(
            status(json!({"tax_id": ar, "ext": {"ar-arca-vat-status": "10"}})),
            "10"
        );
        assert_eq!(
            status(json!({"tax_id": ar, "ext": {"ar-arca-vat-status": "5"}})),
            "1"
        );
        assert_eq!(status(json!({"tax_id": br})), "9");
        assert_eq!(
            status(json!({"tax_id": br, "ext": {"ar-arca-vat-status": "8"}})),
            "8"
        );
        assert_eq!(
            status(json!({"tax_id": br, "ext": {"ar-arca-vat-status": "1"}})),
            "9"
        );
        assert_eq!(status(json!({"name": "X"})), "5");
        assert_eq!(status(json!({"ext": {"ar-arca-vat-status": "7"}})), "7");
    }

    #[test]
    fn combos_get_their_rate_code() {
        let mut doc = json!({"lines": [{"taxes": [
            {"cat": "VAT", "key": "zero", "rate": "general"},
            {"cat": "VAT", "rate": "reduced"},
            {"cat": "VAT", "rate": "increased"},
            {"cat": "VAT", "percent": "21%"},
        ]}]});
        normalize_invoice(doc.as_object_mut().unwrap());
        let codes: Vec<&Value> = (0..4)
            .map(|i| &doc["lines"][0]["taxes"][i]["ext"]["ar-arca-vat-rate"])
            .collect();
        assert_eq!(codes, [&json!("3"), &json!("4"), &json!("6"), &Value::Null]);
        // No lines, no concept; a type without a class code, no document type.
        let mut other = json!({"type": "proforma"});
        normalize_invoice(other.as_object_mut().unwrap());
        assert_eq!(other["tax"], json!({}));
    }
}
