//! What the AEAT add-ons (VERI*FACTU and SII) share: small
//! operations on `ext` maps, a walk over an invoice's tax combos, the correction and
//! identity-type extensions they derive alike, and the checks their rules repeat.

use std::fmt;

use crate::json::Value;

use crate::bill::val::{Obj, get, get_mut, string};
use crate::fault::Fault;

/// The Spanish tax categories that carry the add-ons' combo extensions.
pub(crate) const VAT_LIKE: &[&str] = &["VAT", "IGIC"];

// The `ext` reader, writer and remover every add-on shares.
pub(crate) use crate::bill::val::{delete_ext, ext, set_ext};

/// Whether `ext[key]` is present on an object.
pub(crate) fn has_ext(o: &Obj, key: &str) -> bool {
    ext(o, key).is_some_and(|v| !v.is_empty())
}

/// Sets `ext[key]` to `code` unless it already has a value.
pub(crate) fn set_if_empty(o: &mut Obj, key: &str, code: &str) {
    if !has_ext(o, key) {
        set_ext(o, key, code);
    }
}

/// Keeps `ext[key]` when it is one of `codes`, else sets it to the first.
pub(crate) fn set_one_of(o: &mut Obj, key: &str, codes: &[&str]) {
    if !ext(o, key).is_some_and(|v| codes.contains(&v)) {
        set_ext(o, key, codes[0]);
    }
}

/// The invoice's `tax` object, created when absent.
pub(crate) fn tax_mut(doc: &mut Obj) -> &mut Obj {
    let tax = doc
        .entry("tax".into())
        .or_insert_with(|| Value::Object(Obj::new()));
    if !tax.is_object() {
        *tax = Value::Object(Obj::new());
    }
    tax.as_object_mut().expect("tax is an object")
}

/// A value of the invoice's `tax.ext`.
pub(crate) fn tax_ext<'a>(doc: &'a Obj, key: &str) -> Option<&'a str> {
    ext(get(doc, "tax")?.as_object()?, key)
}

/// Every tax combo of the invoice's lines, discounts and charges, in order.
pub(crate) fn each_combo(doc: &mut Obj, mut f: impl FnMut(&mut Obj)) {
    for list in ["lines", "discounts", "charges"] {
        for item in objects_mut(doc, list) {
            for combo in objects_mut(item, "taxes") {
                f(combo);
            }
        }
    }
}

/// The objects of the array `k` of `o`.
pub(crate) fn objects_mut<'a>(o: &'a mut Obj, k: &str) -> impl Iterator<Item = &'a mut Obj> {
    get_mut(o, k)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// The objects of the array `k` of `o`, with their indices.
pub(crate) fn objects<'a>(o: &'a Obj, k: &str) -> impl Iterator<Item = (usize, &'a Obj)> {
    get(o, k)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, v)| v.as_object().map(|o| (i, o)))
}

/// Where a tax combo is, `doc.<list>[i].taxes[j]` (`.ext` with `ext`): written out only
/// for a fault, not for every combo of every build.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ComboPath {
    list: &'static str,
    i: usize,
    j: usize,
    ext: bool,
}

impl ComboPath {
    /// The path of the combo's `ext` map.
    pub(crate) fn ext(self) -> ComboPath {
        ComboPath { ext: true, ..self }
    }
}

impl fmt::Display for ComboPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "doc.{}[{}].taxes[{}]", self.list, self.i, self.j)?;
        if self.ext {
            f.write_str(".ext")?;
        }
        Ok(())
    }
}

/// Every tax combo of the invoice with its fault path.
pub(crate) fn combos(doc: &Obj) -> Vec<(ComboPath, &Obj)> {
    let mut out = Vec::new();
    for list in ["lines", "discounts", "charges"] {
        for (i, item) in objects(doc, list) {
            for (j, combo) in objects(item, "taxes") {
                let ext = false;
                out.push((ComboPath { list, i, j, ext }, combo));
            }
        }
    }
    out
}

/// Whether a VAT or IGIC combo is charged in a country other than Spain (then it is not
/// subject to Spanish tax).
pub(crate) fn foreign(combo: &Obj) -> bool {
    string(combo, "country").is_some_and(|c| !c.is_empty() && c != "ES")
}

/// The combo key an exemption code stands for (`E1`…`E6`), for combos given without a key.
pub(crate) fn key_from_exempt(code: Option<&str>) -> Option<&'static str> {
    match code? {
        "E1" | "E6" => Some("exempt"),
        "E2" | "E3" | "E4" => Some("export"),
        "E5" => Some("intra-community"),
        _ => None,
    }
}

/// Sets a combo's `key`.
pub(crate) fn set_key(combo: &mut Obj, key: &str) {
    combo.insert("key".into(), Value::String(key.into()));
}

/// The correction extensions of a credit or debit note (`I`, by differences) and of a
/// corrective invoice (`S`, by substitution), and the default document type `R1` of all three
/// unless one of `R2`–`R5` is given.
pub(crate) fn correction(doc: &mut Obj, doc_type: &str, correction_type: &str) {
    let kind = string(doc, "type").unwrap_or("standard").to_string();
    let code = match kind.as_str() {
        "credit-note" | "debit-note" => "I",
        "corrective" => "S",
        _ => return,
    };
    let tax = tax_mut(doc);
    set_ext(tax, correction_type, code);
    if !ext(tax, doc_type).is_some_and(|v| ["R2", "R3", "R4", "R5"].contains(&v)) {
        set_ext(tax, doc_type, "R1");
    }
}

/// A correction's document type goes to the new invoice's `tax.ext` (from the options'
/// extensions, `opts`), not to the preceding reference.
pub(crate) fn correction_doc_type(doc: &mut Obj, opts: &Obj, key: &str) {
    let Some(pre) = objects_mut(doc, "preceding").next() else {
        return;
    };
    delete_ext(pre, key);
    if let Some(code) = get(opts, key)
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
    {
        let code = code.to_string();
        set_ext(tax_mut(doc), key, &code);
    }
}

/// Whether the invoice has a tag.
pub(crate) fn has_tag(doc: &Obj, tag: &str) -> bool {
    get(doc, "$tags")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|t| t.as_str() == Some(tag)))
}

/// Whether the invoice was issued by a third party (`ordering.issuer`).
pub(crate) fn third_party_issuer(doc: &Obj) -> bool {
    get(doc, "ordering")
        .and_then(Value::as_object)
        .and_then(|o| get(o, "issuer"))
        .is_some_and(|i| !i.is_null())
}

/// The identity type of a foreign customer (one without a Spanish tax code) from the key
/// of its first identity, set in that identity's `ext[key]`.
pub(crate) fn customer_identity_type(doc: &mut Obj, key: &str) {
    let Some(cus) = get_mut(doc, "customer").and_then(Value::as_object_mut) else {
        return;
    };
    let spanish = get(cus, "tax_id")
        .and_then(Value::as_object)
        .is_some_and(|t| {
            string(t, "country") == Some("ES") && string(t, "code").is_some_and(|c| !c.is_empty())
        });
    if spanish {
        return;
    }
    let Some(id) = objects_mut(cus, "identities").next() else {
        return;
    };
    let code = match string(id, "key") {
        Some("passport") => "03",
        Some("foreign") => "04",
        Some("resident") => "05",
        Some("other") => "06",
        _ => return,
    };
    set_ext(id, key, code);
}

/// The fault-code namespace of an add-on's rules, e.g. `es-verifactu-bill-invoice`.
pub(crate) struct Rules<'f> {
    /// `es-verifactu`, `es-sii`: the add-on family.
    pub family: &'static str,
    /// Where the faults go.
    pub faults: &'f mut Vec<Fault>,
}

impl Rules<'_> {
    /// A fault of the invoice rules, with the reference's rule id (`GOBL-ES-SII-BILL-INVOICE-03`).
    pub(crate) fn invoice(&mut self, n: &str, path: impl fmt::Display, message: &str) {
        let code = format!("GOBL-{}-BILL-INVOICE-{n}", self.family.to_ascii_uppercase());
        self.faults
            .push(Fault::at(path.to_string(), &code, message));
    }

    /// A fault of the tax-combo rules.
    pub(crate) fn combo(&mut self, n: &str, path: impl fmt::Display, message: &str) {
        let code = format!("GOBL-{}-TAX-COMBO-{n}", self.family.to_ascii_uppercase());
        self.faults
            .push(Fault::at(path.to_string(), &code, message));
    }
}

/// Whether `o[k]` holds something (not absent, null, empty string, array or object).
pub(crate) fn present(o: &Obj, k: &str) -> bool {
    match get(o, k) {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(m)) => !m.is_empty(),
        _ => true,
    }
}

/// Whether the invoice is in euros, or gives the rate to convert its currency into euros.
pub(crate) fn convertible_to_eur(doc: &Obj) -> bool {
    let cur = string(doc, "currency").unwrap_or("EUR");
    cur == "EUR"
        || objects(doc, "exchange_rates")
            .any(|(_, r)| string(r, "from") == Some(cur) && string(r, "to") == Some("EUR"))
}

/// Whether a simplified invoice (`F2`) or its correction (`R5`).
pub(crate) fn simplified(doc: &Obj, doc_type: &str) -> bool {
    matches!(tax_ext(doc, doc_type), Some("F2" | "R5"))
}

/// Whether a party has an identity whose `ext` carries `key`.
pub(crate) fn identity_with(party: &Obj, key: &str) -> bool {
    objects(party, "identities").any(|(_, id)| has_ext(id, key))
}

/// The checks VERI*FACTU and SII share on preceding documents, the tax extensions and
/// general notes; `n` numbers them as the add-on does: `[preceding, issue date, preceding
/// tax, tax, doc type, correction type, standard doc type, corrective doc type, note]`.
pub(crate) fn common_rules(r: &mut Rules, doc: &Obj, doc_type: &str, ct: &str, n: [&str; 9]) {
    let kind = string(doc, "type").unwrap_or("standard");
    if kind == "corrective" && !present(doc, "preceding") {
        let m = "preceding documents are required for corrective invoices";
        r.invoice(n[0], "doc.preceding", m);
    }
    for (i, p) in objects(doc, "preceding") {
        if !present(p, "issue_date") {
            let m = "preceding issue date is required";
            r.invoice(n[1], format!("doc.preceding[{i}].issue_date"), m);
        }
        if kind == "corrective" && !present(p, "tax") {
            let m = "preceding invoice tax data is required for corrective invoices";
            r.invoice(n[2], format!("doc.preceding[{i}].tax"), m);
        }
    }
    tax_rules(r, doc, doc_type, ct, &n[3..8]);
    for (i, note) in objects(doc, "notes") {
        let long = string(note, "text").is_some_and(|t| t.chars().count() > 500);
        if string(note, "key") == Some("general") && long {
            let m = "general note text must be 500 characters or less";
            r.invoice(n[8], format!("doc.notes[{i}].text"), m);
        }
    }
}

/// The invoice's `tax.ext`: a document type of its invoice type, and a correction type with
/// any corrective document type.
fn tax_rules(r: &mut Rules, doc: &Obj, doc_type: &str, ct: &str, n: &[&str]) {
    if !present(doc, "tax") {
        r.invoice(n[0], "doc.tax", "tax is required");
        return;
    }
    let dt = tax_ext(doc, doc_type);
    if dt.is_none() {
        r.invoice(
            n[1],
            "doc.tax.ext",
            &format!("tax extension '{doc_type}' is required"),
        );
    }
    // As in the reference, a code condition holds when the extension is absent.
    let one_of = |codes: &[&str]| dt.is_none_or(|d| codes.contains(&d));
    const CORRECTIVE: [&str; 5] = ["R1", "R2", "R3", "R4", "R5"];
    if one_of(&CORRECTIVE) && tax_ext(doc, ct).is_none() {
        r.invoice(
            n[2],
            "doc.tax.ext",
            &format!("tax extension '{ct}' is required"),
        );
    }
    match string(doc, "type").unwrap_or("standard") {
        "standard" if !one_of(&["F1", "F2", "F3"]) => {
            let m = "doc type extension for standard invoices must be F1, F2, or F3";
            r.invoice(n[3], "doc.tax.ext", m);
        }
        "corrective" | "credit-note" | "debit-note" if !one_of(&CORRECTIVE) => {
            let m = "doc type extension for corrective invoices must be R1, R2, R3, R4, or R5";
            r.invoice(n[4], "doc.tax.ext", m);
        }
        _ => {}
    }
}
