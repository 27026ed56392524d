//! `eu-en16931-v2017` for the parties' organisation data, wherever it sits in the document:
//! identities get their ISO/IEC 6523 scheme (BT-29, BT-46, BT-157...) from their key or type,
//! inboxes written `0088:1234567890123` are split into scheme and code (BT-34, BT-49), and a
//! party with a Peppol inbox gets the matching Peppol participant endpoint.

use crate::json;
use crate::json::{Map, Value};

use super::en16931_ext::put_ext;
use crate::bill::val::Obj;

/// ISO/IEC 6523 schemes for GOBL identity keys.
const IDENTITY_KEYS: &[(&str, &str)] = &[("gln", "0088"), ("gtin", "0160")];

/// ISO/IEC 6523 schemes for regime identity types (France's SIREN and SIRET, Denmark's CVR).
const IDENTITY_TYPES: &[(&str, &str)] = &[("SIREN", "0002"), ("SIRET", "0009"), ("CVR", "0184")];

/// The URI scheme of Peppol participant identifiers.
const PEPPOL_ENDPOINT: &str = "iso6523-actorid-upis";

/// Normalises every identity, inbox and party in the document.
pub(super) fn normalize(doc: &mut Obj) {
    for (key, value) in doc.iter_mut() {
        walk(key, value);
    }
}

fn walk(key: &str, value: &mut Value) {
    match key {
        "identities" => items(value).for_each(identity),
        "inboxes" => items(value).for_each(inbox),
        _ => {}
    }
    match value {
        Value::Object(o) => {
            for (k, v) in o.iter_mut() {
                walk(k, v);
            }
            // after its inboxes are split into scheme and code
            if crate::bill::val::has(o, "inboxes") {
                endpoint(o);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|v| walk("", v)),
        _ => {}
    }
}

fn items(v: &mut Value) -> impl Iterator<Item = &mut Map> {
    v.as_array_mut()
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// The scheme from the key, else from the type.
fn identity(id: &mut Map) {
    let of = |field: &str, table: &[(&str, &'static str)]| {
        let value = id.get(field).and_then(Value::as_str)?;
        table.iter().find(|(k, _)| *k == value).map(|(_, s)| *s)
    };
    if let Some(scheme) = of("key", IDENTITY_KEYS).or_else(|| of("type", IDENTITY_TYPES)) {
        put_ext(id, "iso-scheme-id", scheme);
    }
}

/// `0088:1234` → scheme `0088`, code `1234`.
fn inbox(inbox: &mut Map) {
    let Some(code) = inbox.get("code").and_then(Value::as_str) else {
        return;
    };
    let bytes = code.as_bytes();
    if bytes.len() > 4 && bytes[..4].iter().all(u8::is_ascii_digit) && bytes[4] == b':' {
        let (scheme, rest) = (code[..4].to_string(), code[5..].to_string());
        inbox.insert("scheme".into(), json!(scheme));
        inbox.insert("code".into(), json!(rest));
    }
}

/// A party's first complete Peppol inbox as a Peppol endpoint, unless it has one already.
fn endpoint(party: &mut Map) {
    let has_peppol = |e: &Value| {
        e.get("uri")
            .and_then(Value::as_str)
            .is_some_and(|u| u.starts_with(&format!("{PEPPOL_ENDPOINT}:")))
    };
    if party
        .get("endpoints")
        .and_then(Value::as_array)
        .is_some_and(|e| e.iter().any(has_peppol))
    {
        return;
    }
    let text = |i: &Value, k: &str| i.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let Some(new) = party
        .get("inboxes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|i| text(i, "key") == "peppol")
        .find(|i| !text(i, "scheme").is_empty() && !text(i, "code").is_empty())
        .map(|i| {
            let uri = format!(
                "{PEPPOL_ENDPOINT}::{}:{}",
                text(i, "scheme"),
                text(i, "code")
            );
            let mut e = Map::new();
            if let Some(label) = i.get("label") {
                e.insert("label".into(), label.clone());
            }
            e.insert("uri".into(), json!(uri));
            Value::Object(e)
        })
    else {
        return;
    };
    if let Some(list) = party
        .entry("endpoints".into())
        .or_insert_with(|| json!([]))
        .as_array_mut()
    {
        list.push(new);
    }
}
