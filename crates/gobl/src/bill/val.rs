//! Small helpers to read and write amounts and percentages in JSON objects.

use serde_json::{Map, Value};

use super::CalcError;
use crate::num::{Amount, NumError, Percentage};

/// A JSON object.
pub(crate) type Obj = Map<String, Value>;

/// The text of a JSON string or number.
pub(crate) fn num_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
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
    o.insert(k.to_string(), Value::String(a.to_string()));
}

/// Write a percentage as its string form.
pub(crate) fn set_percent(o: &mut Obj, k: &str, p: Percentage) {
    o.insert(k.to_string(), Value::String(p.to_string()));
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
