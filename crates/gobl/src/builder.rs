//! The build entry point: normalise, calculate, validate and envelope a GOBL document.

use crate::json;
use crate::json::{Map, Value};

use crate::bill;
use crate::fault::{Fault, Faults};
use crate::validate;

/// The envelope schema URL.
pub const ENVELOPE_SCHEMA: &str = "https://gobl.org/draft-0/envelope";

/// Options for [`build_with`].
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// The head uuid to use (default: the input envelope's, else a new v7 uuid).
    pub uuid: Option<uuid::Uuid>,
    /// Skip validation (calculation errors are still faults).
    pub skip_validation: bool,
}

/// The result of a build that was calculated but did not validate.
#[derive(Debug, Clone)]
pub struct Invalid<V = serde_json::Value> {
    /// The calculated envelope (with its digest), for callers that store invalid documents.
    pub envelope: V,
    /// What is wrong with it.
    pub faults: Faults,
}

/// Whether a JSON value is an envelope: `$schema` envelope, or a `doc` object with a `head`
/// or without a `$schema` of its own (an envelope whose head is still to be built).
pub fn is_envelope(v: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    v.get("$schema").and_then(J::as_str) == Some(ENVELOPE_SCHEMA)
        || (v.get("doc").is_some_and(J::is_object)
            && (v.get("head").is_some() || v.get("$schema").is_none()))
}

/// [`is_envelope`] of the calculation's tree.
pub fn is_envelope_tree(v: &Value) -> bool {
    v.get("$schema").and_then(Value::as_str) == Some(ENVELOPE_SCHEMA)
        || (v.get("doc").is_some_and(Value::is_object)
            && (v.get("head").is_some() || v.get("$schema").is_none()))
}

/// Build a bare document or an envelope: normalise, calculate, validate, digest and wrap
/// it. Returns the envelope, or the faults (calculation or validation) that stop it.
pub fn build(input: serde_json::Value) -> Result<serde_json::Value, Faults> {
    build_with(input, &BuildOptions::default()).map_err(|e| e.faults)
}

/// [`build`] with options; an invalid (but calculable) document's envelope is returned
/// alongside its faults so that callers can store it anyway (`allow_invalid`).
///
/// The calculation runs on [`crate::json::Value`] ([`build_tree`]); this reads the input into
/// that tree and the envelope out of it.
pub fn build_with(
    input: serde_json::Value,
    opts: &BuildOptions,
) -> Result<serde_json::Value, Box<Invalid>> {
    // Cannot fail: every number of the envelope came from the `serde_json` input or was
    // written by the calculation (integers, amounts as text).
    let serde = |v: Value| v.to_serde().unwrap_or(serde_json::Value::Null);
    match build_tree(Value::from(&input), opts) {
        Ok(env) => Ok(serde(env)),
        Err(e) => Err(Box::new(Invalid {
            envelope: serde(e.envelope),
            faults: e.faults,
        })),
    }
}

/// [`build_with`] on the calculation's own tree, whose numbers must be written as serde_json
/// writes them: as `Value::from` a `serde_json::Value` gives them, or as
/// [`Value::normalize_numbers`] makes them of a parsed text.
pub fn build_tree(input: Value, opts: &BuildOptions) -> Result<Value, Box<Invalid<Value>>> {
    let (mut head, doc, sigs) = split(input);
    let Value::Object(mut doc) = doc else {
        let faults = Faults(vec![Fault::at(
            "doc",
            "type",
            "document must be a JSON object",
        )]);
        return Err(Box::new(Invalid {
            envelope: Value::Null,
            faults,
        }));
    };
    let before = sigs.as_ref().map(|_| doc.clone());
    ensure_uuid(&mut doc);
    if let Err(e) = bill::normalize_document(&mut doc) {
        let mut faults = validate::unknown_keys(&doc);
        faults.push(Fault::at(e.path, "calculate", e.message));
        let faults = Faults(faults);
        return Err(Box::new(Invalid {
            envelope: Value::Null,
            faults,
        }));
    }
    let mut faults = if opts.skip_validation {
        Faults::default()
    } else {
        validate::validate_document(&doc)
    };
    if let Some(b) = before
        && b != doc
    {
        faults.0.push(Fault::at(
            "sigs",
            "signed",
            "signed envelope's document would change",
        ));
    }
    let doc = Value::Object(doc);
    let dig = match crate::digest::digest(&doc) {
        Ok(d) => d,
        Err(e) => {
            faults.0.push(Fault::at("doc", "digest", e.to_string()));
            return Err(Box::new(Invalid {
                envelope: Value::Null,
                faults,
            }));
        }
    };
    let uuid = opts
        .uuid
        .map(|u| u.to_string())
        .or_else(|| head.get("uuid").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    head.insert("uuid".into(), Value::String(uuid.into()));
    crate::routing::route(&mut head, &doc);
    head.insert("dig".into(), json!({"alg": dig.alg, "val": dig.val}));
    let mut ordered = Map::new();
    for k in ["uuid", "dig"] {
        if let Some(v) = head.remove(k) {
            ordered.insert(k.into(), v);
        }
    }
    ordered.append(&mut head);
    let mut env = Map::new();
    env.insert("$schema".into(), Value::String(ENVELOPE_SCHEMA.into()));
    env.insert("head".into(), Value::Object(ordered));
    env.insert("doc".into(), doc);
    if let Some(s) = sigs {
        env.insert("sigs".into(), s);
    }
    let envelope = Value::Object(env);
    if faults.0.is_empty() {
        Ok(envelope)
    } else {
        Err(Box::new(Invalid { envelope, faults }))
    }
}

fn split(input: Value) -> (Map, Value, Option<Value>) {
    if is_envelope_tree(&input)
        && let Value::Object(mut o) = input
    {
        let mut head = o
            .remove("head")
            .and_then(|h| h.as_object().cloned())
            .unwrap_or_default();
        head.remove("dig");
        let doc = o.remove("doc").unwrap_or(Value::Null);
        let sigs = o
            .remove("sigs")
            .filter(|s| s.as_array().is_some_and(|a| !a.is_empty()));
        return (head, doc, sigs);
    }
    (Map::new(), input, None)
}

fn ensure_uuid(doc: &mut Map) {
    let schema = doc.get("$schema").and_then(Value::as_str).unwrap_or("");
    if schema.starts_with("https://gobl.org/draft-0/bill/")
        && doc
            .get("uuid")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
    {
        let u = uuid::Uuid::now_v7().to_string();
        let at = doc
            .keys()
            .position(|k| !k.starts_with('$'))
            .unwrap_or(doc.len());
        doc.shift_insert(at, "uuid".into(), Value::String(u.into()));
    }
}

/// Parse a document given as JSON or YAML text into JSON.
pub fn parse_input(text: &str) -> Result<serde_json::Value, String> {
    let t = text.trim_start_matches('\u{feff}');
    match serde_json::from_str::<serde_json::Value>(t) {
        Ok(v) => Ok(v),
        Err(je) => {
            if t.trim_start().starts_with('{') {
                return Err(format!("invalid JSON: {je}"));
            }
            let mut v = yaml_serde::from_str::<serde_json::Value>(t)
                .map_err(|e| format!("invalid YAML: {e}"))?;
            integral_floats(&mut v);
            Ok(v)
        }
    }
}

/// YAML floats with no fraction (`20.000000`) become integers, as the reference's YAML to
/// JSON conversion writes them (`20`): an amount read from them has no decimals.
fn integral_floats(v: &mut serde_json::Value) {
    use serde_json::Value as J;
    match v {
        J::Number(n) => {
            if let Some(f) = n.as_f64().filter(|f| n.is_f64() && f.fract() == 0.0)
                && f.abs() < 1e15
            {
                *v = J::from(f as i64);
            }
        }
        J::Array(a) => a.iter_mut().for_each(integral_floats),
        J::Object(o) => o.values_mut().for_each(integral_floats),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_detection() {
        assert!(is_envelope_tree(&json!({"doc": {"$schema": "x"}})));
        assert!(is_envelope_tree(&json!({"head": {}, "doc": {}})));
        assert!(is_envelope_tree(&json!({"$schema": ENVELOPE_SCHEMA})));
        assert!(!is_envelope_tree(&json!({"$schema": "x", "doc": {}})));
        assert!(!is_envelope_tree(&json!({"doc": "text"})));
    }
}
