//! Small readers and writers of the invoice tree that the FA_VAT add-ons share.

use crate::json::Value;

use crate::bill::val::{self, Obj, get, get_mut};

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
    val::ext(o, key).unwrap_or("")
}

/// Sets extension `key` of `o.ext` to `code`; unlike the other add-ons, FA_VAT's replaces an
/// `ext` that is not a map.
pub(crate) fn set_ext(o: &mut Obj, key: &str, code: &str) {
    if let Some(ext) = get_mut(o, "ext").filter(|e| !e.is_object()) {
        *ext = Value::Object(Obj::new());
    }
    val::set_ext(o, key, code);
}

/// Whether the document lists `tag` in `$tags`.
pub(crate) fn has_tag(doc: &Obj, tag: &str) -> bool {
    array(doc, "$tags").iter().any(|t| t.as_str() == Some(tag))
}
