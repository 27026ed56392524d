//! Small helpers to read and write amounts and percentages in JSON objects.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::CalcError;
use crate::num::{Amount, NumError, Percentage};

/// A JSON object.
pub(crate) type Obj = Map<String, Value>;

/// The text of a JSON string or number (borrowed from a string: amounts are read often).
pub(crate) fn num_text(v: &Value) -> Option<Cow<'_, str>> {
    match v {
        Value::String(s) => Some(Cow::Borrowed(s)),
        Value::Number(n) => Some(Cow::Owned(n.to_string())),
        _ => None,
    }
}

/// Read an optional amount at `o[k]`.
pub(crate) fn amount(o: &Obj, k: &str, path: &str) -> Result<Option<Amount>, CalcError> {
    match o.get(k) {
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
pub(crate) fn percent(o: &Obj, k: &str, path: &str) -> Result<Option<Percentage>, CalcError> {
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
pub(crate) fn string<'a>(o: &'a Obj, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// Write an amount as its string form.
pub(crate) fn set_amount(o: &mut Obj, k: &str, a: Amount) {
    set_text(o, k, a.to_string());
}

/// Write a percentage as its string form.
pub(crate) fn set_percent(o: &mut Obj, k: &str, p: Percentage) {
    set_text(o, k, p.to_string());
}

/// Set `o[k]` to a string, in place when the member exists (no new key to allocate).
fn set_text(o: &mut Obj, k: &str, text: String) {
    match o.get_mut(k) {
        Some(v) => *v = Value::String(text),
        None => {
            o.insert(k.to_string(), Value::String(text));
        }
    }
}

/// Map a numeric error at `path` to a calculation error.
pub(crate) fn num_err(path: &str) -> impl Fn(NumError) -> CalcError + '_ {
    move |e| CalcError::new(path, e.to_string())
}

/// Insert `k` right after `after` (or at the end), keeping the object's order readable.
pub(crate) fn insert_after(o: &mut Obj, after: &str, k: &str, v: Value) {
    if o.contains_key(k) {
        o.insert(k.to_string(), v);
        return;
    }
    match o.keys().position(|x| x == after) {
        Some(i) => {
            o.shift_insert(i + 1, k.to_string(), v);
        }
        None => {
            o.insert(k.to_string(), v);
        }
    }
}
