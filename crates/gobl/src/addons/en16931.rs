//! `eu-en16931-v2017`: the UNTDID codes EN 16931 needs, set as `ext` values from what the
//! GOBL document already says — the document type (UNTDID 1001) from the invoice type, each
//! VAT combo's and keyed tax note's category (UNTDID 5305) from its tax key, and the payment
//! means (UNTDID 4461) from the instructions' key, each keyed note's text subject (UNTDID
//! 4451), each keyed discount's and charge's reason (UNTDID 5189, 7161); identities and inboxes
//! in `en16931_org`. Codes derived from a key replace what was there, as in GOBL; the others
//! keep a code already present.

use crate::json::{Map, Value};

use super::en16931_ext::{put_ext, set_ext};
use crate::bill::val::{Obj, field, field_mut, get, get_mut, has};

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

/// UNTDID 5189 allowance reasons for GOBL discount keys.
const ALLOWANCES: &[(&str, &str)] = &[
    ("early-completion", "41"),
    ("military", "62"),
    ("work-accident", "63"),
    ("special-agreement", "64"),
    ("production-error", "65"),
    ("new-outlet", "66"),
    ("sample", "67"),
    ("end-of-range", "68"),
    ("incoterm", "70"),
    ("pos-threshold", "71"),
    ("special-rebate", "100"),
    ("temporary", "103"),
    ("standard", "104"),
    ("yearly-turnover", "105"),
];

/// UNTDID 7161 charge reasons for GOBL charge keys.
const CHARGES: &[(&str, &str)] = &[
    ("stamp-duty", "ST"),
    ("outlay", "AAE"),
    ("tax", "TX"),
    ("customs", "ABW"),
    ("delivery", "DL"),
    ("packing", "PC"),
    ("handling", "HD"),
    ("insurance", "IN"),
    ("storage", "ABA"),
    ("admin", "AEM"),
    ("cleaning", "CG"),
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
            put_ext(o, "untdid-text-subject", code);
        }
    }
    if let Some(notes) = doc
        .get_mut("tax")
        .and_then(|t| t.get_mut("notes"))
        .and_then(Value::as_array_mut)
    {
        notes.iter_mut().for_each(tax_note);
    }
    for line in array(doc, "lines") {
        default_unit(line);
        each(line, "taxes", vat_combo);
        each(line, "discounts", |d| {
            reason(d, ALLOWANCES, "untdid-allowance")
        });
        each(line, "charges", |c| reason(c, CHARGES, "untdid-charge"));
    }
    for item in array(doc, "discounts") {
        each(item, "taxes", vat_combo);
        reason(item, ALLOWANCES, "untdid-allowance");
    }
    for item in array(doc, "charges") {
        each(item, "taxes", vat_combo);
        reason(item, CHARGES, "untdid-charge");
    }
    payment(doc);
    super::en16931_org::normalize(doc);
}

/// Applies `f` to each item of the list `v[member]`.
fn each(v: &mut Value, member: &str, f: impl FnMut(&mut Value)) {
    field_mut(v, member)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .for_each(f);
}

/// A discount's or charge's reason code from its key (the key's code wins, as in GOBL).
fn reason(item: &mut Value, table: &[(&str, &'static str)], ext: &str) {
    let key = field(item, "key").and_then(Value::as_str).unwrap_or("");
    if let (Some(code), Some(o)) = (lookup(table, key), item.as_object_mut()) {
        put_ext(o, ext, code);
    }
}

/// A VAT tax note: its key from its category code when it has none, then its code from its key.
fn tax_note(note: &mut Value) {
    if let Some(o) = note.as_object_mut()
        && o.get("cat").and_then(Value::as_str) == Some("VAT")
        && !o.contains_key("key")
        && let Some(code) = o
            .get("ext")
            .and_then(|e| e.get("untdid-tax-category"))
            .and_then(Value::as_str)
        && let Some((key, _)) = TAX_CATEGORIES.iter().find(|(_, c)| *c == code)
    {
        o.insert("key".into(), Value::String((*key).into()));
    }
    vat_combo(note);
}

fn array<'a>(doc: &'a mut Obj, key: &str) -> impl Iterator<Item = &'a mut Value> {
    get_mut(doc, key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

fn lookup(table: &[(&str, &'static str)], key: &str) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == key).map(|(_, code)| *code)
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
        .entry("tax".into())
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
    if get(o, "cat").and_then(Value::as_str) != Some("VAT") {
        return;
    }
    let key = get(o, "key").and_then(Value::as_str);
    let code = match key {
        Some(k) => lookup(TAX_CATEGORIES, k),
        None if has(o, "percent") || has(o, "rate") => Some("S"),
        None => None,
    };
    if let Some(code) = code {
        set_ext(o, "untdid-tax-category", code);
    }
}

/// Lines are counted in units: "one" when the item names none.
fn default_unit(line: &mut Value) {
    if let Some(item) = field_mut(line, "item").and_then(Value::as_object_mut)
        && !has(item, "unit")
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
