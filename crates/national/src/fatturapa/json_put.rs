//! Small writers into the bare GOBL document's JSON objects, shared by every `_parse` file.

use serde_json::{Map, Value, json};

/// Insert `value` under `key` when it is present.
pub(crate) fn put(obj: &mut Map<String, Value>, key: &str, value: Option<impl Into<Value>>) {
    if let Some(v) = value {
        obj.insert(key.to_string(), v.into());
    }
}

/// Append to the array under `key`, creating it.
pub(crate) fn push(obj: &mut Map<String, Value>, key: &str, value: Value) {
    if let Some(Value::Array(a)) = obj.get_mut(key) {
        a.push(value);
    } else {
        obj.insert(key.to_string(), Value::Array(vec![value]));
    }
}

/// Add a tag to `$tags` once.
pub(crate) fn tag(doc: &mut Map<String, Value>, t: &str) {
    let has = doc
        .get("$tags")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|x| x == t));
    if !has {
        push(doc, "$tags", json!(t));
    }
}

/// Set `tax.ext.<key>`.
pub(crate) fn tax_ext(doc: &mut Map<String, Value>, key: &str, code: &str) {
    let tax = doc.entry("tax").or_insert_with(|| json!({}));
    if let Some(t) = tax.as_object_mut() {
        let ext = t.entry("ext").or_insert_with(|| json!({}));
        ext[key] = json!(code);
    }
}
