//! What makes two create requests "the same": their data's canonical form (whitespace and
//! member order do not matter) and their labels. It is stored with the envelope; a repeated
//! request whose fingerprint matches gets the stored envelope back, any other is a conflict.
//!
//! Two forms are stored. Version 1 (64 hex digits) hashed the data's whole canonical text, so
//! a received envelope's document was hashed twice: for its digest, then within the data.
//! Version 2 (`2:` and 64 hex digits) hashes an envelope's `doc` member as its digest, which
//! the same pass computes (one SHA-256 over the document fewer a request). Rows written before
//! it keep version 1, which a repeated request recomputes to compare.

use gobl::canonical::{CanonicalError, canonical};
use gobl::digest::{Sha256, sha256_hex};
use gobl::json::Value;

use crate::error::{SiloError, SiloResult};
use crate::model::NewEnvelope;

/// Version 2's mark.
const V2: &str = "2:";

/// A create request's fingerprint, and its labels as hashed (to recompute version 1).
pub(crate) struct Fingerprint {
    /// The stored form (version 2).
    pub value: String,
    labels: String,
}

impl Fingerprint {
    /// The fingerprint of `value`, the data of `new`; with the digest of its canonical `doc`
    /// member when it has one (see [`crate::ingest::Input::doc_digest`]).
    pub fn of(value: &Value, new: &NewEnvelope) -> SiloResult<(Self, Option<String>)> {
        let labels = serde_json::json!({
            "key": new.key, "folder": new.folder, "tags": new.tags, "meta": new.meta, "sign": new.sign,
        })
        .to_string();
        let mut hasher = Sha256::new();
        let doc_digest = hash_data(value, &mut hasher).map_err(invalid)?;
        hasher.update(labels.as_bytes());
        let value = format!("{V2}{}", hasher.finish_hex());
        Ok((Fingerprint { value, labels }, doc_digest))
    }

    /// Whether a stored fingerprint (of either version) is this request's, whose data was
    /// `data` as sent.
    pub fn matches(&self, stored: &str, data: &str) -> bool {
        if stored.starts_with(V2) {
            return stored == self.value;
        }
        // read before under the server's depth limit, which may be above the parser's default
        gobl::json::parse_with_limit(data, usize::MAX)
            .ok()
            .and_then(|value| version_1(&value, &self.labels).ok())
            .is_some_and(|v1| v1 == stored)
    }
}

fn invalid(e: CanonicalError) -> SiloError {
    SiloError::invalid("data", e.to_string())
}

/// Hashes the canonical JSON of `value`, an object's `doc` member written as `#` and the
/// member's digest (no JSON text starts so, so no other data hashes the same); returns that
/// digest.
fn hash_data(value: &Value, hasher: &mut Sha256) -> Result<Option<String>, CanonicalError> {
    let Value::Object(members) = value else {
        hasher.update(canonical(value)?.as_bytes());
        return Ok(None);
    };
    let mut sorted: Vec<&(gobl::json::Text, Value)> = members
        .as_slice()
        .iter()
        .filter(|(_, v)| !v.is_null())
        .collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut doc_digest = None;
    hasher.update(b"{");
    for (i, (key, member)) in sorted.into_iter().enumerate() {
        if i > 0 {
            hasher.update(b",");
        }
        hasher.update(canonical(&Value::String(key.clone()))?.as_bytes());
        hasher.update(b":");
        let text = canonical(member)?;
        if key == "doc" {
            let digest = sha256_hex(text.as_bytes());
            hasher.update(b"#");
            hasher.update(digest.as_bytes());
            doc_digest = Some(digest);
        } else {
            hasher.update(text.as_bytes());
        }
    }
    hasher.update(b"}");
    Ok(doc_digest)
}

/// The version 1 fingerprint: the data's whole canonical text, then the labels.
fn version_1(value: &Value, labels: &str) -> Result<String, CanonicalError> {
    let mut hasher = Sha256::new();
    hasher.update(canonical(value)?.as_bytes());
    hasher.update(labels.as_bytes());
    Ok(hasher.finish_hex())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Meta;

    fn new(data: &str, key: Option<&str>) -> NewEnvelope {
        NewEnvelope {
            id: None,
            data: data.into(),
            key: key.map(Into::into),
            folder: None,
            tags: vec!["a".into()],
            meta: Meta::default(),
            sign: false,
            allow_invalid: false,
        }
    }

    fn of(text: &str, key: Option<&str>) -> (Fingerprint, Option<String>) {
        let value = gobl::json::parse(text).unwrap();
        Fingerprint::of(&value, &new(text, key)).unwrap()
    }

    const CASES: [&str; 5] = [
        r#"{"$schema":"https://gobl.org/draft-0/envelope","head":{"uuid":"x","dig":{"alg":"sha256","val":"0"}},"doc":{"b":1.50,"a":[null,2],"z":null},"sigs":[]}"#,
        r#"{"doc":{"\u00e9":"é","n":-0,"e":1e3}, "é":null, "a\"b":true}"#,
        r#"{}"#,
        r#"[1,{"b":2,"a":1}]"#,
        r#""text""#,
    ];

    #[test]
    fn the_doc_digest_is_the_documents() {
        for text in CASES {
            let value = gobl::json::parse(text).unwrap();
            let want = value
                .get("doc")
                .map(|doc| gobl::digest::digest(doc).unwrap().val);
            assert_eq!(of(text, None).1, want, "{text}");
        }
    }

    #[test]
    fn order_and_whitespace_do_not_matter_and_content_and_labels_do() {
        let text = r#"{"doc":{"a":1,"b":"x"},"head":{}}"#;
        let (a, _) = of(text, None);
        let (same, _) = of(r#"{ "head": {}, "doc": {"b": "x", "a": 1} }"#, None);
        let (other, _) = of(r#"{"doc":{"a":1,"b":"y"},"head":{}}"#, None);
        let (keyed, _) = of(r#"{"doc":{"a":1,"b":"x"},"head":{}}"#, Some("k"));
        assert!(a.value.starts_with(V2) && a.value.len() == V2.len() + 64);
        assert!(a.matches(&same.value, text));
        assert!(!a.matches(&other.value, text));
        assert!(!a.matches(&keyed.value, text));
    }

    #[test]
    fn a_version_1_fingerprint_still_matches_its_request() {
        for text in CASES {
            let (fp, _) = of(text, Some("k"));
            let value = gobl::json::parse(text).unwrap();
            let labels = r#"{"key":"k","folder":null,"tags":["a"],"meta":{},"sign":false}"#;
            // as version 1 was written: the canonical text of the data, then the labels
            let mut hasher = Sha256::new();
            hasher.update(canonical(&value).unwrap().as_bytes());
            hasher.update(labels.as_bytes());
            let stored = hasher.finish_hex();
            assert!(fp.matches(&stored, text), "{text}");
            let (other, _) = of(text, Some("other key"));
            assert!(!other.matches(&stored, text), "{text}");
        }
    }
}
