//! Writing `ext` codes into a JSON object, shared by the EN 16931 normalizers
//! (`en16931.rs`, `en16931_org.rs`) and Chorus Pro, so none has to import another for it.

use crate::json::{Map, Value};

use crate::bill::val::{get_mut, has};

/// Sets `ext[key]`, replacing what was there.
pub(super) fn put_ext(o: &mut Map, key: &str, code: &str) {
    if let Some(ext) = ext_map(o) {
        ext.insert(key.into(), Value::String(code.into()));
    }
}

/// `o.ext`, added empty when absent; `None` when it is not a map. Looked up by scanning
/// (`get_mut`): a combo's few keys cost less to compare than one to hash, and a key to
/// allocate for an entry that is there already (as it is on most combos).
fn ext_map(o: &mut Map) -> Option<&mut Map> {
    if !has(o, "ext") {
        o.insert("ext".into(), Value::Object(Map::new()));
    }
    get_mut(o, "ext").and_then(Value::as_object_mut)
}

/// Sets `ext[key]` unless it is already set.
pub(super) fn set_ext(o: &mut Map, key: &str, code: &str) {
    if let Some(ext) = ext_map(o)
        && !has(ext, key)
    {
        ext.insert(key.into(), Value::String(code.into()));
    }
}
