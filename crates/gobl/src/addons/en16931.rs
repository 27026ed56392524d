//! `eu-en16931-v2017`: the UNTDID codes EN 16931 needs, set as `ext` values from what the
//! GOBL document already says — the document type (UNTDID 1001) from the invoice type, each
//! VAT combo's and keyed tax note's category (UNTDID 5305) from its tax key, and the payment
//! means (UNTDID 4461) from the instructions' key, each keyed note's text subject (UNTDID
//! 4451). Codes already present are kept.

use serde_json::{Map, Value};

use crate::bill::val::Obj;

/// UNTDID 1001 document types for GOBL invoice types.
const DOCUMENT_TYPES: &[(&str, &str)] = &[
    ("standard", "380"),
    ("proforma", "325"),
    ("corrective", "384"),
    ("credit-note", "381"),
    ("debit-note", "383"),
];

/// UNTDID 5305 VAT categories for GOBL tax keys.
const TAX_CATEGORIES: &[(&str, &str)] = &[
    ("standard", "S"),
    ("zero", "Z"),
    ("exempt", "E"),
    ("reverse-charge", "AE"),
    ("intra-community", "K"),
    ("export", "G"),
    ("outside-scope", "O"),
];

/// UNTDID 4461 payment means for GOBL payment means keys.
const PAYMENT_MEANS: &[(&str, &str)] = &[
    ("any", "1"),
    ("cash", "10"),
    ("cheque", "20"),
    ("credit-transfer", "30"),
    ("credit-transfer+sepa", "58"),
    ("debit-transfer", "31"),
    ("card", "48"),
    ("direct-debit", "49"),
    ("direct-debit+sepa", "59"),
    ("online", "68"),
    ("standing-order", "57"),
    ("netting", "97"),
    ("other", "ZZZ"),
];

/// UNTDID 4451 text subjects for GOBL note keys.
const TEXT_SUBJECTS: &[(&str, &str)] = &[
    ("goods", "AAA"),
    ("payment", "PMT"),
    ("payment-method", "PMD"),
    ("payment-term", "AAB"),
    ("general", "AAI"),
    ("legal", "ABL"),
    ("dangerous-goods", "AAC"),
    ("ack", "AAE"),
    ("rate", "AAF"),
    ("reason", "ACD"),
    ("dispute", "ACE"),
    ("customer", "CUR"),
    ("glossary", "ACZ"),
    ("customs", "CUS"),
    ("handling", "HAN"),
    ("packaging", "PKG"),
    ("loading", "LOI"),
    ("price", "AAK"),
    ("priority", "PRI"),
    ("regulatory", "REG"),
    ("safety", "SAF"),
    ("ship-line", "SLR"),
    ("supplier", "SUR"),
    ("transport", "TRA"),
    ("delivery", "DEL"),
    ("quarantine", "QIN"),
    ("tax", "TXD"),
    ("other", "ZZZ"),
];

/// Sets the add-on's codes on an invoice.
pub(super) fn normalize_invoice(doc: &mut Obj) {
    document_type(doc);
    for note in array(doc, "notes") {
        let key = note.get("key").and_then(Value::as_str).unwrap_or("");
        if let (Some(code), Some(o)) = (lookup(TEXT_SUBJECTS, key), note.as_object_mut()) {
            set_ext(o, "untdid-text-subject", code);
        }
    }
    if let Some(notes) = doc
        .get_mut("tax")
        .and_then(|t| t.get_mut("notes"))
        .and_then(Value::as_array_mut)
    {
        notes.iter_mut().for_each(vat_combo);
    }
    for line in array(doc, "lines") {
        default_unit(line);
        line.get_mut("taxes")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
            .for_each(vat_combo);
    }
    for member in ["discounts", "charges"] {
        for item in array(doc, member) {
            item.get_mut("taxes")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
                .for_each(vat_combo);
        }
    }
    payment(doc);
}

fn array<'a>(doc: &'a mut Obj, key: &str) -> impl Iterator<Item = &'a mut Value> {
    doc.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

fn lookup(table: &[(&str, &'static str)], key: &str) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == key).map(|(_, code)| *code)
}

/// Sets `ext[key]` unless it is already set.
fn set_ext(o: &mut Map<String, Value>, key: &str, code: &str) {
    let ext = o.entry("ext").or_insert_with(|| Value::Object(Map::new()));
    if let Some(ext) = ext.as_object_mut()
        && !ext.contains_key(key)
    {
        ext.insert(key.into(), Value::String(code.into()));
    }
}

/// `tax.ext.untdid-document-type` from `type`.
fn document_type(doc: &mut Obj) {
    let kind = doc
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("standard");
    let Some(code) = lookup(DOCUMENT_TYPES, kind) else {
        return;
    };
    let tax = doc
        .entry("tax")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(tax) = tax.as_object_mut() {
        set_ext(tax, "untdid-document-type", code);
    }
}

/// A VAT combo's (or keyed tax note's) `untdid-tax-category`: from its key, standard when it
/// states a rate or percentage without one.
fn vat_combo(combo: &mut Value) {
    let Some(o) = combo.as_object_mut() else {
        return;
    };
    if o.get("cat").and_then(Value::as_str) != Some("VAT") {
        return;
    }
    let key = o.get("key").and_then(Value::as_str);
    let code = match key {
        Some(k) => lookup(TAX_CATEGORIES, k),
        None if o.contains_key("percent") || o.contains_key("rate") => Some("S"),
        None => None,
    };
    if let Some(code) = code {
        set_ext(o, "untdid-tax-category", code);
    }
}

/// Lines are counted in units: "one" when the item names none.
fn default_unit(line: &mut Value) {
    if let Some(item) = line.get_mut("item").and_then(Value::as_object_mut)
        && !item.contains_key("unit")
    {
        item.insert("unit".into(), Value::String("one".into()));
    }
}

/// The payment means code from the instructions' key, and terms written as `notes` (EN 16931
/// has one free text for them, BT-20).
fn payment(doc: &mut Obj) {
    let Some(payment) = doc.get_mut("payment").and_then(Value::as_object_mut) else {
        return;
    };
    if let Some(i) = payment
        .get_mut("instructions")
        .and_then(Value::as_object_mut)
    {
        let key = i
            .get("key")
            .and_then(Value::as_str)
            .unwrap_or("any")
            .to_string();
        if let Some(code) = lookup(PAYMENT_MEANS, &key) {
            set_ext(i, "untdid-payment-means", code);
        }
    }
    if let Some(terms) = payment.get_mut("terms").and_then(Value::as_object_mut)
        && !terms.contains_key("notes")
        && let Some(detail) = terms.remove("detail")
    {
        terms.insert("notes".into(), detail);
    }
}
