//! What Italy's regime and add-ons share: walks over the parts of an invoice they normalise
//! and check (its tax combos, every object of the document tree, with their fault paths),
//! small readers and writers of members and extensions, and a writer of rule faults.
//! Paths are [`Path`]s, written out only for a fault: a walk over every object of a
//! document would otherwise format a string per node on every build.

use std::fmt::Display;

use crate::json::Value;

// Members are found with `val`'s readers, which scan a small object instead of hashing the
// name: these walks look up a few names in every object of the document.
use crate::bill::val::{Obj, field, get, get_mut};
use crate::fault::Fault;
pub(crate) use crate::fault::Path;

/// Faults under one family of the reference's rule ids (`GOBL-IT-SDI`, …).
pub(crate) struct Rules<'f> {
    /// The family, prefixed to each rule's `<object>-<nn>`.
    pub family: &'static str,
    /// Where the faults go.
    pub faults: &'f mut Vec<Fault>,
}

impl Rules<'_> {
    /// Adds the fault of rule `id` at `path` unless `ok`.
    pub fn check(&mut self, ok: bool, path: impl Display, id: &str, message: &str) {
        if !ok {
            let code = format!("{}-{id}", self.family);
            self.faults
                .push(Fault::at(path.to_string(), &code, message));
        }
    }
}

/// The invoice is in euros, or an exchange rate converts its currency into euros.
pub(crate) fn convertible_to_eur(doc: &Obj) -> bool {
    let cur = text(doc, "currency");
    cur == "EUR"
        || array(doc, "exchange_rates").iter().any(|r| {
            field(r, "from").and_then(Value::as_str) == Some(cur)
                && field(r, "to").and_then(Value::as_str) == Some("EUR")
        })
}

/// Whether any of the `taxes` of `o` is of category `cat`.
pub(crate) fn has_category(o: &Obj, cat: &str) -> bool {
    array(o, "taxes")
        .iter()
        .any(|t| field(t, "cat").and_then(Value::as_str) == Some(cat))
}

/// The members of an invoice whose entries carry tax combos in `taxes`.
const COMBO_HOLDERS: [&str; 3] = ["lines", "charges", "discounts"];

/// Every tax combo of the invoice's lines, charges and discounts.
pub(crate) fn combos_mut(doc: &mut Obj, mut f: impl FnMut(&mut Obj)) {
    for holder in COMBO_HOLDERS {
        for entry in array_mut(doc, holder) {
            if let Some(o) = entry.as_object_mut() {
                for combo in array_mut(o, "taxes") {
                    if let Some(c) = combo.as_object_mut() {
                        f(c);
                    }
                }
            }
        }
    }
}

/// Every tax combo of the invoice's lines, charges and discounts, with its path.
pub(crate) fn combos(doc: &Obj, mut f: impl FnMut(&Path, &Obj)) {
    let root = Path::Root("doc");
    for holder in COMBO_HOLDERS {
        entries(doc, holder, &root, |entry, o| {
            entries(o, "taxes", entry, &mut f);
        });
    }
}

/// `o` and every object under it, children before their parent (as the reference's
/// normalisers run).
pub(crate) fn objects_mut(o: &mut Obj, f: &mut impl FnMut(&mut Obj)) {
    for (_, child) in o.iter_mut() {
        values_mut(child, f);
    }
    f(o);
}

fn values_mut(v: &mut Value, f: &mut impl FnMut(&mut Obj)) {
    match v {
        Value::Object(o) => objects_mut(o, f),
        Value::Array(a) => a.iter_mut().for_each(|x| values_mut(x, f)),
        _ => {}
    }
}

/// `o` at `path` and every object under it, parents first, with their paths.
pub(crate) fn objects(o: &Obj, path: &Path, f: &mut impl FnMut(&Path, &Obj)) {
    f(path, o);
    for (k, child) in o {
        values(child, &path.member(k), f);
    }
}

fn values(v: &Value, path: &Path, f: &mut impl FnMut(&Path, &Obj)) {
    match v {
        Value::Object(o) => objects(o, path, f),
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                if matches!(child, Value::Object(_) | Value::Array(_)) {
                    values(child, &path.item(i), f);
                }
            }
        }
        _ => {}
    }
}

/// Every object in the array member `k` of `o`, with its path under `path`.
pub(crate) fn entries(o: &Obj, k: &str, path: &Path, mut f: impl FnMut(&Path, &Obj)) {
    let list = path.member(k);
    for (i, v) in array(o, k).iter().enumerate() {
        if let Some(x) = v.as_object() {
            f(&list.item(i), x);
        }
    }
}

/// The array member `k` of `o` (empty when absent).
pub(crate) fn array<'a>(o: &'a Obj, k: &str) -> &'a [Value] {
    get(o, k)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The array member `k` of `o`, to edit (empty when absent).
pub(crate) fn array_mut<'a>(o: &'a mut Obj, k: &str) -> &'a mut [Value] {
    match get_mut(o, k) {
        Some(Value::Array(a)) => a,
        _ => &mut [],
    }
}

/// The text member `k` of `o`, `""` when absent.
pub(crate) fn text<'a>(o: &'a Obj, k: &str) -> &'a str {
    get(o, k).and_then(Value::as_str).unwrap_or("")
}

/// The object member `k` of `o`.
pub(crate) fn object<'a>(o: &'a Obj, k: &str) -> Option<&'a Obj> {
    get(o, k).and_then(Value::as_object)
}

/// Whether the `ext` map of `o` has a non-empty value for `key`.
pub(crate) fn has_ext(o: &Obj, key: &str) -> bool {
    ext(o, key).is_some_and(|v| !v.is_empty())
}

// The `ext` reader and writer every add-on shares.
pub(crate) use crate::bill::val::{ext, set_ext};

/// Removes `key` from the `ext` map of `o`, and the map when it is left empty.
pub(crate) fn delete_ext(o: &mut Obj, key: &str) {
    let Some(m) = get_mut(o, "ext").and_then(Value::as_object_mut) else {
        return;
    };
    m.shift_remove(key);
    if m.is_empty() {
        o.shift_remove("ext");
    }
}

/// Whether `o` is a party (or tax identity holder) with an Italian tax id.
pub(crate) fn is_italian(party: &Obj) -> bool {
    object(party, "tax_id").is_some_and(|t| text(t, "country") == "IT")
}

/// The invoice's `$tags`.
pub(crate) fn has_tag(doc: &Obj, tag: &str) -> bool {
    array(doc, "$tags").iter().any(|t| t.as_str() == Some(tag))
}

/// Whether a JSON value is present in the reference's sense: not null, an empty text or an
/// empty array (an object stands for a structure, present even when empty).
pub(crate) fn present(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(_) => true,
    }
}
