//! Small readers and writers of the invoice tree that the FA_VAT add-ons share.

use serde_json::Value;

use crate::bill::val::{Obj, get, get_mut};

/// The string at `o[k]`, or `""`.
pub(crate) fn str_at<'a>(o: &'a Obj, k: &str) -> &'a str {
    get(o, k).and_then(Value::as_str).unwrap_or("")
}

/// The object at `o[k]`.
pub(crate) fn obj_at<'a>(o: &'a Obj, k: &str) -> Option<&'a Obj> {
    get(o, k).and_then(Value::as_object)
}

/// The items of the array at `o[k]` (none when absent).
pub(crate) fn array<'a>(o: &'a Obj, k: &str) -> &'a [Value] {
    get(o, k)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// The items of the array at `o[k]`, to edit.
pub(crate) fn array_mut<'a>(o: &'a mut Obj, k: &str) -> impl Iterator<Item = &'a mut Value> {
    get_mut(o, k)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

/// The extension `key` of `o.ext`, or `""`.
pub(crate) fn ext_of<'a>(o: &'a Obj, key: &str) -> &'a str {
    obj_at(o, "ext").map_or("", |e| str_at(e, key))
}

/// Sets extension `key` of `o.ext` to `code`, creating the map when needed. Members are found
/// by scanning (this runs for every tax combo; `entry` and `insert` hashed both names).
pub(crate) fn set_ext(o: &mut Obj, key: &str, code: &str) {
    match get_mut(o, "ext") {
        Some(Value::Object(_)) => {}
        Some(other) => *other = Value::Object(Obj::new()),
        None => {
            o.insert("ext".into(), Value::Object(Obj::new()));
        }
    }
    let Some(Value::Object(ext)) = get_mut(o, "ext") else {
        return;
    };
    match get_mut(ext, key) {
        Some(v) => *v = Value::String(code.into()),
        None => {
            ext.insert(key.into(), Value::String(code.into()));
        }
    }
}

/// Whether the document lists `tag` in `$tags`.
pub(crate) fn has_tag(doc: &Obj, tag: &str) -> bool {
    array(doc, "$tags").iter().any(|t| t.as_str() == Some(tag))
}
