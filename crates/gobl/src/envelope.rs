//! GOBL envelopes: a header (uuid, digest, stamps, ...), the document, and signatures.
//!
//! The document is kept as a [`Value`] exactly as received (number literals and member order),
//! whatever its `$schema`, so re-serialising an envelope never changes what the digest covers.

use uuid::Uuid;

use crate::digest::{Digest, SHA256, digest};
use crate::fault::{Fault, FieldError};
use crate::json::{Map, Text, Value};

/// Base of every GOBL schema URL.
pub const SCHEMA_BASE: &str = "https://gobl.org/draft-0/";
/// `$schema` of an envelope.
pub const ENVELOPE_SCHEMA: &str = "https://gobl.org/draft-0/envelope";
/// `$schema` of an invoice.
pub const INVOICE_SCHEMA: &str = "https://gobl.org/draft-0/bill/invoice";

/// Fault codes produced by this module and `sign.rs` (which imports them).
pub mod codes {
    /// The envelope or document has the wrong shape (see the fault's paths).
    pub const INVALID_ENVELOPE: &str = "invalid-envelope";
    /// The document has no canonical form (e.g. a number beyond `f64`).
    pub const INVALID_DOCUMENT: &str = "invalid-document";
    /// `head.dig` does not match the document.
    pub const DIGEST_MISMATCH: &str = "digest-mismatch";
    /// `head.dig.alg` is not `sha256`.
    pub const DIGEST_ALGORITHM: &str = "digest-algorithm";
    /// Stamps on an envelope without signatures.
    pub const STAMPS_UNSIGNED: &str = "stamps-unsigned";
    /// A signature that is not a well-formed ES256 JWS.
    pub const SIGNATURE_MALFORMED: &str = "signature-malformed";
    /// A signature that does not verify with any of the given keys.
    pub const SIGNATURE_INVALID: &str = "signature-invalid";
    /// A signature whose payload names another uuid or digest than the head.
    pub const SIGNATURE_MISMATCH: &str = "signature-mismatch";
}

impl From<Vec<FieldError>> for Fault {
    /// One `invalid-envelope` fault listing every path.
    fn from(errors: Vec<FieldError>) -> Fault {
        let message = FieldError::describe(&errors);
        let paths = errors.into_iter().map(|e| e.path).collect();
        Fault::new(codes::INVALID_ENVELOPE, message, paths)
    }
}

/// A stamp from a provider (e.g. a tax agency), allowed only on signed envelopes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stamp {
    /// Provider key.
    pub prv: String,
    /// Stamp value.
    pub val: String,
}

/// The envelope header.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// Envelope id.
    pub uuid: Uuid,
    /// Digest of the canonical document.
    pub dig: Digest,
    /// Provider stamps.
    pub stamps: Vec<Stamp>,
    /// Links (array of link objects), kept as given.
    pub links: Option<Value>,
    /// Tags.
    pub tags: Vec<String>,
    /// String metadata (an object of string values), kept as given.
    pub meta: Option<Value>,
    /// Free-text notes.
    pub notes: Option<String>,
    /// Legacy draft flag.
    pub draft: Option<bool>,
    /// Any other head members (`from`, `to`, `ignore`, future fields), in their order.
    pub extra: Vec<(Text, Value)>,
}

/// A GOBL envelope.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// Header.
    pub head: Header,
    /// The document, exactly as given.
    pub doc: Value,
    /// JWS compact signatures.
    pub sigs: Vec<String>,
}

/// `true` when `value` is an object whose `$schema` is the envelope schema.
pub fn is_envelope(value: &Value) -> bool {
    value.get("$schema").and_then(Value::as_str) == Some(ENVELOPE_SCHEMA)
}

/// The document schema: `doc.$schema` of an envelope, else the value's own `$schema`.
pub fn document_schema(value: &Value) -> Option<&str> {
    let doc = if is_envelope(value) {
        value.get("doc")?
    } else {
        value
    };
    doc.get("$schema")?.as_str()
}

/// `https://gobl.org/draft-0/bill/invoice` → `bill/invoice`; other URLs are returned unchanged.
pub fn short_type(schema: &str) -> &str {
    schema.strip_prefix(SCHEMA_BASE).unwrap_or(schema)
}

/// Collects field errors while reading a value.
struct Reader {
    errors: Vec<FieldError>,
}

impl Reader {
    fn fail(&mut self, path: &str, message: impl Into<String>) {
        self.errors.push(FieldError::new(path, message));
    }

    fn string(&mut self, path: &str, v: &Value) -> Option<String> {
        match v {
            Value::String(s) => Some(s.to_string()),
            other => {
                self.fail(
                    path,
                    format!("expected a string, found {}", other.type_name()),
                );
                None
            }
        }
    }

    fn object<'v>(&mut self, path: &str, v: &'v Value) -> Option<&'v [(Text, Value)]> {
        match v {
            Value::Object(m) => Some(m.as_slice()),
            other => {
                self.fail(
                    path,
                    format!("expected an object, found {}", other.type_name()),
                );
                None
            }
        }
    }

    fn array<'v>(&mut self, path: &str, v: &'v Value) -> Option<&'v [Value]> {
        match v {
            Value::Array(a) => Some(a),
            other => {
                self.fail(
                    path,
                    format!("expected an array, found {}", other.type_name()),
                );
                None
            }
        }
    }

    fn strings(&mut self, path: &str, v: &Value) -> Vec<String> {
        let items = self.array(path, v).unwrap_or_default();
        items
            .iter()
            .enumerate()
            .filter_map(|(i, s)| self.string(&format!("{path}[{i}]"), s))
            .collect()
    }

    fn digest(&mut self, v: Option<&Value>) -> Option<Digest> {
        let Some(v) = v else {
            self.fail("head.dig", "required");
            return None;
        };
        let members = self.object("head.dig", v)?;
        let mut alg = None;
        let mut val = None;
        for (k, v) in members {
            match k.as_str() {
                "alg" => alg = self.string("head.dig.alg", v),
                "val" => val = self.string("head.dig.val", v),
                _ => self.fail(&format!("head.dig.{k}"), "unknown field"),
            }
        }
        if let Some(val) = &val
            && (val.len() != 64 || !val.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
        {
            self.fail("head.dig.val", "expected 64 lowercase hex characters");
        }
        match (alg, val) {
            (Some(alg), Some(val)) => Some(Digest { alg, val }),
            (alg, val) => {
                if alg.is_none() && !members.iter().any(|(k, _)| k == "alg") {
                    self.fail("head.dig.alg", "required");
                }
                if val.is_none() && !members.iter().any(|(k, _)| k == "val") {
                    self.fail("head.dig.val", "required");
                }
                None
            }
        }
    }

    fn stamps(&mut self, v: &Value) -> Vec<Stamp> {
        let mut out = Vec::new();
        for (i, item) in self
            .array("head.stamps", v)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let path = format!("head.stamps[{i}]");
            let Some(members) = self.object(&path, item) else {
                continue;
            };
            let (mut prv, mut val) = (None, None);
            for (k, v) in members {
                match k.as_str() {
                    "prv" => prv = self.string(&format!("{path}.prv"), v),
                    "val" => val = self.string(&format!("{path}.val"), v),
                    _ => self.fail(&format!("{path}.{k}"), "unknown field"),
                }
            }
            match (prv, val) {
                (Some(prv), Some(val)) => out.push(Stamp { prv, val }),
                (prv, val) => {
                    if prv.is_none() && !members.iter().any(|(k, _)| k == "prv") {
                        self.fail(&format!("{path}.prv"), "required");
                    }
                    if val.is_none() && !members.iter().any(|(k, _)| k == "val") {
                        self.fail(&format!("{path}.val"), "required");
                    }
                }
            }
        }
        out
    }

    fn head(&mut self, v: &Value) -> Option<Header> {
        let members = self.object("head", v)?;
        let mut uuid = None;
        let mut seen_uuid = false;
        let mut dig = None;
        let mut head = Header {
            uuid: Uuid::nil(),
            dig: Digest {
                alg: String::new(),
                val: String::new(),
            },
            stamps: Vec::new(),
            links: None,
            tags: Vec::new(),
            meta: None,
            notes: None,
            draft: None,
            extra: Vec::new(),
        };
        for (k, v) in members {
            match k.as_str() {
                "uuid" => {
                    seen_uuid = true;
                    uuid = match self.string("head.uuid", v) {
                        Some(s) => match Uuid::parse_str(&s) {
                            Ok(u) if s.len() == 36 => Some(u),
                            _ => {
                                self.fail("head.uuid", "expected a UUID in hyphenated form");
                                None
                            }
                        },
                        None => None,
                    };
                }
                "dig" => dig = self.digest(Some(v)),
                "stamps" => head.stamps = self.stamps(v),
                "links" => {
                    for (i, link) in self
                        .array("head.links", v)
                        .unwrap_or_default()
                        .iter()
                        .enumerate()
                    {
                        self.object(&format!("head.links[{i}]"), link);
                    }
                    head.links = Some(v.clone());
                }
                "tags" => head.tags = self.strings("head.tags", v),
                "meta" => {
                    for (key, val) in self.object("head.meta", v).unwrap_or_default() {
                        self.string(&format!("head.meta.{key}"), val);
                    }
                    head.meta = Some(v.clone());
                }
                "notes" => head.notes = self.string("head.notes", v),
                "draft" => match v {
                    Value::Bool(b) => head.draft = Some(*b),
                    other => self.fail(
                        "head.draft",
                        format!("expected a boolean, found {}", other.type_name()),
                    ),
                },
                _ => head.extra.push((k.clone(), v.clone())),
            }
        }
        if !seen_uuid {
            self.fail("head.uuid", "required");
        }
        if !members.iter().any(|(k, _)| k == "dig") {
            self.digest(None);
        }
        head.uuid = uuid?;
        head.dig = dig?;
        Some(head)
    }
}

impl Envelope {
    /// Reads an envelope, reporting every wrong shape with its path. Shapes only: use
    /// [`Envelope::validate`] for digest and stamp rules.
    pub fn from_value(value: &Value) -> Result<Envelope, Vec<FieldError>> {
        let (head, sigs) = Envelope::read(value)?;
        let doc = value.get("doc").cloned().unwrap_or(Value::Null);
        Ok(Envelope { head, doc, sigs })
    }

    /// [`Envelope::from_value`] for a value the caller is done with: the document is moved out
    /// of it rather than copied.
    pub fn from_owned(mut value: Value) -> Result<Envelope, Vec<FieldError>> {
        let (head, sigs) = Envelope::read(&value)?;
        let doc = value
            .get_mut("doc")
            .map_or(Value::Null, |doc| std::mem::replace(doc, Value::Null));
        Ok(Envelope { head, doc, sigs })
    }

    /// The header and signatures of an envelope whose shape is right, `doc` included.
    fn read(value: &Value) -> Result<(Header, Vec<String>), Vec<FieldError>> {
        let mut r = Reader { errors: Vec::new() };
        let Some(members) = r.object("$", value) else {
            return Err(r.errors);
        };
        let (mut head, mut doc, mut sigs) = (None, false, Vec::new());
        let mut seen = (false, false, false);
        for (k, v) in members {
            match k.as_str() {
                "$schema" => {
                    seen.0 = true;
                    if let Some(s) = r.string("$schema", v)
                        && s != ENVELOPE_SCHEMA
                    {
                        r.fail("$schema", format!("expected {ENVELOPE_SCHEMA}"));
                    }
                }
                "head" => {
                    seen.1 = true;
                    head = r.head(v);
                }
                "doc" => {
                    seen.2 = true;
                    if let Some(members) = r.object("doc", v) {
                        match members.iter().find(|(k, _)| k == "$schema") {
                            Some((_, s)) => {
                                r.string("doc.$schema", s);
                            }
                            None => r.fail("doc.$schema", "required"),
                        }
                        doc = true;
                    }
                }
                "sigs" => {
                    for (i, item) in r.array("sigs", v).unwrap_or_default().iter().enumerate() {
                        let path = format!("sigs[{i}]");
                        match r.string(&path, item) {
                            Some(s) if s.split('.').count() == 3 => sigs.push(s),
                            Some(_) => r.fail(&path, "expected a JWS in compact form"),
                            None => {}
                        }
                    }
                }
                _ => r.fail(k, "unknown field"),
            }
        }
        for (present, name) in [(seen.0, "$schema"), (seen.1, "head"), (seen.2, "doc")] {
            if !present {
                r.fail(name, "required");
            }
        }
        match (head, doc) {
            (Some(head), true) if r.errors.is_empty() => Ok((head, sigs)),
            _ => Err(r.errors),
        }
    }

    /// Parses JSON text into an envelope; syntax errors are reported at path `$`.
    pub fn from_json(text: &str) -> Result<Envelope, Vec<FieldError>> {
        let value =
            crate::json::parse(text).map_err(|e| vec![FieldError::new("$", e.to_string())])?;
        Envelope::from_value(&value)
    }

    /// Envelopes a bare document under `uuid`, computing its digest.
    pub fn wrap(uuid: Uuid, doc: Value) -> Result<Envelope, Fault> {
        let dig = document_digest(&doc)?;
        let head = Header {
            uuid,
            dig,
            stamps: Vec::new(),
            links: None,
            tags: Vec::new(),
            meta: None,
            notes: None,
            draft: None,
            extra: Vec::new(),
        };
        Ok(Envelope {
            head,
            doc,
            sigs: Vec::new(),
        })
    }

    /// The document's `$schema`, if it has one.
    pub fn document_schema(&self) -> Option<&str> {
        self.doc.get("$schema")?.as_str()
    }

    /// Recomputes `head.dig` from the document (after changing it). Existing signatures no
    /// longer match afterwards unless the document is unchanged.
    pub fn refresh_digest(&mut self) -> Result<(), Fault> {
        self.head.dig = document_digest(&self.doc)?;
        Ok(())
    }

    /// Checks `head.dig` against the canonical document: `digest-algorithm` for an algorithm
    /// other than sha256, `digest-mismatch` when the value differs.
    pub fn verify_digest(&self) -> Result<(), Fault> {
        if self.head.dig.alg != SHA256 {
            return Err(Fault::new(
                codes::DIGEST_ALGORITHM,
                format!("unsupported digest algorithm {:?}", self.head.dig.alg),
                vec!["head.dig.alg".into()],
            ));
        }
        let actual = document_digest(&self.doc)?;
        if actual.val != self.head.dig.val {
            return Err(Fault::new(
                codes::DIGEST_MISMATCH,
                format!(
                    "head.dig is {} but the document digest is {}",
                    self.head.dig.val, actual.val
                ),
                vec!["head.dig.val".into()],
            ));
        }
        Ok(())
    }

    /// Envelope rules that do not need keys: the digest matches and stamps only appear on
    /// signed envelopes.
    pub fn validate(&self) -> Result<(), Fault> {
        self.verify_digest()?;
        if !self.head.stamps.is_empty() && self.sigs.is_empty() {
            return Err(Fault::new(
                codes::STAMPS_UNSIGNED,
                "stamps are only allowed on signed envelopes",
                vec!["head.stamps".into()],
            ));
        }
        Ok(())
    }

    /// The header as a JSON object.
    pub fn head_value(&self) -> Value {
        let h = &self.head;
        let mut m: Vec<(Text, Value)> = vec![
            ("uuid".into(), Value::from(h.uuid.hyphenated().to_string())),
            ("dig".into(), h.dig.to_value()),
        ];
        if !h.stamps.is_empty() {
            let stamps = h
                .stamps
                .iter()
                .map(|s| {
                    Value::Object(Map::from(vec![
                        ("prv".into(), Value::from(s.prv.as_str())),
                        ("val".into(), Value::from(s.val.as_str())),
                    ]))
                })
                .collect();
            m.push(("stamps".into(), Value::Array(stamps)));
        }
        if let Some(links) = &h.links {
            m.push(("links".into(), links.clone()));
        }
        if !h.tags.is_empty() {
            m.push((
                "tags".into(),
                Value::Array(h.tags.iter().map(|t| Value::from(t.as_str())).collect()),
            ));
        }
        if let Some(meta) = &h.meta {
            m.push(("meta".into(), meta.clone()));
        }
        if let Some(notes) = &h.notes {
            m.push(("notes".into(), Value::from(notes.as_str())));
        }
        if let Some(draft) = h.draft {
            m.push(("draft".into(), Value::Bool(draft)));
        }
        m.extend(h.extra.iter().cloned());
        Value::Object(Map::from(m))
    }

    /// The envelope as JSON: `$schema`, `head`, `doc` (unchanged), `sigs` when present.
    pub fn to_value(&self) -> Value {
        self.with_members(|members| {
            let owned = members.iter().map(|(k, v)| (Text::from(*k), (*v).clone()));
            Value::Object(owned.collect())
        })
    }

    /// Compact JSON text of [`Envelope::to_value`], written member by member: building that
    /// value first would copy the whole document only to write it.
    pub fn to_json_string(&self) -> String {
        self.with_members(|members| {
            let mut out = String::with_capacity(1024);
            crate::json::write_object(&mut out, members.iter().copied());
            out
        })
    }

    /// The envelope's members in their order, the document borrowed, handed to `f`: the one
    /// list both [`Envelope::to_value`] and [`Envelope::to_json_string`] read.
    fn with_members<R>(&self, f: impl FnOnce(&[(&str, &Value)]) -> R) -> R {
        let schema = Value::from(ENVELOPE_SCHEMA);
        let head = self.head_value();
        let sigs = Value::Array(self.sigs.iter().map(|s| Value::from(s.as_str())).collect());
        let all = [
            ("$schema", &schema),
            ("head", &head),
            ("doc", &self.doc),
            ("sigs", &sigs),
        ];
        f(&all[..if self.sigs.is_empty() { 3 } else { 4 }])
    }
}

fn document_digest(doc: &Value) -> Result<Digest, Fault> {
    digest(doc).map_err(|e| Fault::new(codes::INVALID_DOCUMENT, e.to_string(), vec!["doc".into()]))
}

/// Serialised as [`Envelope::to_value`] would be, from the borrowed members: building that
/// value first would copy the whole document only to serialise it.
impl serde::Serialize for Envelope {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.with_members(|members| serializer.collect_map(members.iter().copied()))
    }
}

/// Shape errors become one message listing every path (serde_json deserializers only).
impl<'de> serde::Deserialize<'de> for Envelope {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Envelope::from_value(&value)
            .map_err(|errs| serde::de::Error::custom(Fault::from(errs).message))
    }
}
