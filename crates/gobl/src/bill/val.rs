//! Small helpers to read and write amounts and percentages in JSON objects.

use std::borrow::Cow;
use std::fmt::Display;

use crate::json::{Map, Value};

use super::CalcError;
use crate::num::{Amount, NumError, NumText, Percentage};

/// A JSON object.
pub(crate) type Obj = Map;

/// Objects with at most this many members are searched by scanning (see [`get`]).
const SCAN_MAX: usize = 16;

/// Member `k` of `o`. Small objects are scanned here rather than by [`Map::get`]: inlined
/// where `k` is a constant (as it nearly always is), each comparison is a few instructions
/// instead of a call.
#[inline]
pub(crate) fn get<'a>(o: &'a Obj, k: &str) -> Option<&'a Value> {
    if o.len() > SCAN_MAX {
        return o.get(k);
    }
    o.iter().find(|(x, _)| x.as_str() == k).map(|(_, v)| v)
}

/// Mutable member `k` of `o` (scanned like [`get`]).
#[inline]
pub(crate) fn get_mut<'a>(o: &'a mut Obj, k: &str) -> Option<&'a mut Value> {
    if o.len() > SCAN_MAX {
        return o.get_mut(k);
    }
    o.iter_mut().find(|(x, _)| x.as_str() == k).map(|(_, v)| v)
}

/// Member `k` of `v`, if `v` is an object (scanned like [`get`]).
#[inline]
pub(crate) fn field<'a>(v: &'a Value, k: &str) -> Option<&'a Value> {
    get(v.as_object()?, k)
}

/// Mutable member `k` of `v`, if `v` is an object (scanned like [`get`]).
pub(crate) fn field_mut<'a>(v: &'a mut Value, k: &str) -> Option<&'a mut Value> {
    get_mut(v.as_object_mut()?, k)
}

/// Whether `o` has member `k` (scanned like [`get`]).
pub(crate) fn has(o: &Obj, k: &str) -> bool {
    get(o, k).is_some()
}

/// The code `ext[key]` of `o`, if any. The code's key is not a constant here, so it is found
/// by the map's own look-up, which compares keys as words ([`Map::position`]; an add-on's
/// extension keys are longer than 16 bytes, where `==` is a call to `memcmp`).
pub(crate) fn ext<'a>(o: &'a Obj, key: &str) -> Option<&'a str> {
    get(o, "ext")?.as_object()?.get(key)?.as_str()
}

/// Sets `ext[key]` of `o` to `code`, adding the `ext` map when there is none; an `ext` that is
/// not a map is left for validation to refuse. Each map is scanned once and a key is allocated
/// only when new: the add-ons run this for every tax combo.
pub(crate) fn set_ext(o: &mut Obj, key: &str, code: &str) {
    let code = Value::String(code.into());
    match get_mut(o, "ext") {
        Some(Value::Object(ext)) => match ext.get_mut(key) {
            Some(v) => *v = code,
            None => ext.insert_absent(ext.len(), key.into(), code),
        },
        Some(_) => {}
        None => {
            let mut ext = Obj::new();
            ext.insert_absent(0, key.into(), code);
            o.insert_absent(o.len(), "ext".into(), Value::Object(ext));
        }
    }
}

/// Removes `ext[key]` of `o`, and the `ext` map when it is left empty. The map's `remove`
/// moves its last member into the gap (Italy's add-ons keep the order instead, with their own).
pub(crate) fn delete_ext(o: &mut Obj, key: &str) {
    let empty = match get_mut(o, "ext").and_then(Value::as_object_mut) {
        Some(map) => {
            // looked for first: most combos have no such code to remove
            if map.contains_key(key) {
                map.remove(key);
            }
            map.is_empty()
        }
        None => false,
    };
    if empty {
        o.remove("ext");
    }
}

/// The text of a JSON string or number (borrowed from a string: amounts are read often).
pub(crate) fn num_text(v: &Value) -> Option<Cow<'_, str>> {
    match v {
        Value::String(s) => Some(Cow::Borrowed(s)),
        Value::Number(n) => Some(Cow::Owned(n.to_string())),
        _ => None,
    }
}

/// Read an optional amount at `o[k]`. (Here and below, where `k` is the caller's and not a
/// constant, members are found by the map's own look-up, as in [`ext`].)
pub(crate) fn amount(o: &Obj, k: &str, path: impl Display) -> Result<Option<Amount>, CalcError> {
    amount_of(o.get(k), k, path)
}

/// [`amount`] of a member already found (`v`, named `k`).
pub(crate) fn amount_of(
    v: Option<&Value>,
    k: &str,
    path: impl Display,
) -> Result<Option<Amount>, CalcError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            let t = num_text(v)
                .ok_or_else(|| CalcError::new(format!("{path}.{k}"), "must be an amount"))?;
            Amount::parse(&t)
                .map(Some)
                .map_err(|e| CalcError::new(format!("{path}.{k}"), e.to_string()))
        }
    }
}

/// Read an optional percentage at `o[k]`.
pub(crate) fn percent(
    o: &Obj,
    k: &str,
    path: impl Display,
) -> Result<Option<Percentage>, CalcError> {
    match o.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(v) => {
            let t = num_text(v)
                .ok_or_else(|| CalcError::new(format!("{path}.{k}"), "must be a percentage"))?;
            Percentage::parse(&t)
                .map(Some)
                .map_err(|e| CalcError::new(format!("{path}.{k}"), e.to_string()))
        }
    }
}

/// Read an optional string at `o[k]` (empty strings count as absent).
#[inline]
pub(crate) fn string<'a>(o: &'a Obj, k: &str) -> Option<&'a str> {
    get(o, k).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// Write an amount as its string form.
pub(crate) fn set_amount(o: &mut Obj, k: &str, a: Amount) {
    match a.text() {
        Some(t) => set_num_text(o, k, &t),
        None => set_text(o, k, a.to_string()),
    }
}

/// Write a percentage as its string form.
pub(crate) fn set_percent(o: &mut Obj, k: &str, p: Percentage) {
    match p.text() {
        Some(t) => set_num_text(o, k, &t),
        None => set_text(o, k, p.to_string()),
    }
}

/// Set `o[k]` to the string `text`, leaving a member that holds it already as it is (an
/// amount often keeps its text, e.g. a price with the currency's decimals).
fn set_num_text(o: &mut Obj, k: &str, text: &NumText) {
    match o.get_mut(k) {
        Some(Value::String(s)) if text.is(s) => {}
        Some(v) => *v = Value::String(text.to_text()),
        None => {
            o.insert(k.into(), Value::String(text.to_text()));
        }
    }
}

/// Set `o[k]` to a string, in place when the member exists (no new key to allocate).
fn set_text(o: &mut Obj, k: &str, text: String) {
    match o.get_mut(k) {
        Some(v) => *v = Value::String(text.into()),
        None => {
            o.insert(k.into(), Value::String(text.into()));
        }
    }
}

/// Map a numeric error at `path` to a calculation error.
pub(crate) fn num_err<P: Display>(path: P) -> impl Fn(NumError) -> CalcError {
    move |e| CalcError::new(path.to_string(), e.to_string())
}

/// Number a line, sub-line, discount or charge: its `i` set in place, or inserted first.
pub(crate) fn set_index(o: &mut Obj, i: usize) {
    if let Some(v) = get_mut(o, "i") {
        *v = Value::from(i);
    } else {
        o.shift_insert(0, "i".into(), Value::from(i));
    }
}

/// Insert `k` right after `after` (or at the end), keeping the object's order readable.
pub(crate) fn insert_after(o: &mut Obj, after: &str, k: &str, v: Value) {
    if let Some(slot) = o.get_mut(k) {
        *slot = v;
        return;
    }
    match o.position(after) {
        Some(i) => {
            o.shift_insert(i + 1, k.into(), v);
        }
        None => {
            o.insert(k.into(), v);
        }
    }
}
