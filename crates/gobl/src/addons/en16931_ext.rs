//! Writing `ext` codes into a JSON object, shared by the EN 16931 normalizers
//! (`en16931.rs`, `en16931_org.rs`) and Chorus Pro, so none has to import another for it.

use serde_json::{Map, Value};

/// Sets `ext[key]`, replacing what was there.
pub(super) fn put_ext(o: &mut Map<String, Value>, key: &str, code: &str) {
    let ext = o.entry("ext").or_insert_with(|| Value::Object(Map::new()));
    if let Some(ext) = ext.as_object_mut() {
        ext.insert(key.into(), Value::String(code.into()));
    }
}

/// Sets `ext[key]` unless it is already set.
pub(super) fn set_ext(o: &mut Map<String, Value>, key: &str, code: &str) {
    let ext = o.entry("ext").or_insert_with(|| Value::Object(Map::new()));
    if let Some(ext) = ext.as_object_mut()
        && !ext.contains_key(key)
    {
        ext.insert(key.into(), Value::String(code.into()));
    }
}
