//! FatturaPA → GOBL: the received side. Each `FatturaElettronicaBody` of a file becomes a
//! bare GOBL invoice (`$regime: IT`, `$addons: [it-sdi-v1]`, the SDI codes as the add-on's
//! extensions), built by `gobl::builder` and then compared with the totals the document
//! states itself: every difference is reported, never absorbed silently.

use gobl::num::{Amount, Percentage};
use serde_json::{Map, Value, json};

use super::tree::{self, Node};
use super::{NS_FATTURAPA, general_parse, header_parse, lines_parse, payment_parse};
use super::{retained_parse, summary_parse};

/// Why a file cannot be read as a FatturaPA invoice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Larger than [`tree::MAX_BYTES`].
    #[error("the file is {0} bytes; at most {max} are read", max = tree::MAX_BYTES)]
    TooLarge(usize),
    /// Not well-formed XML (or with a DTD).
    #[error("not XML: {0}")]
    NotXml(String),
    /// An encoding other than UTF-8 or a single-byte code page (ISO-8859-1, windows-1252).
    #[error("unsupported encoding {0}")]
    Encoding(String),
    /// Nesting or element count beyond the reader's limits.
    #[error("beyond the reader's limits: {0}")]
    Limit(String),
    /// The document element is not FatturaPA's.
    #[error("not a FatturaPA document: <{root}> in namespace {namespace:?}")]
    NotFatturaPa {
        /// Local name of the document element.
        root: String,
        /// Its namespace URI.
        namespace: String,
    },
    /// Something the invoice cannot be read without (the path names it).
    #[error("{0} is missing")]
    Missing(String),
    /// A value that is not what its element holds (an amount, a date).
    #[error("{path}: {value:?} is not a valid {what}")]
    Invalid {
        /// The element.
        path: String,
        /// Its text.
        value: String,
        /// What it should be.
        what: &'static str,
    },
    /// GOBL could not calculate the invoice (its faults).
    #[error("the invoice cannot be calculated: {}", .0.join("; "))]
    Build(Vec<String>),
}

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// Worth knowing; nothing was lost.
    Information,
    /// The document and GOBL disagree, or something was not carried over.
    Warning,
}

/// Something the reader noticed: a total the document states differently from GOBL's
/// calculation, a validation fault of the built invoice, a value not carried over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// How much it matters.
    pub severity: Severity,
    /// Where: the FatturaPA element (`DatiRiepilogo[22.00]/Imposta`) or the GOBL path.
    pub path: String,
    /// What, for a person.
    pub message: String,
}

/// One invoice read from a FatturaPA file.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The bare GOBL document as read, before calculation.
    pub document: Value,
    /// The built envelope (calculated; validated unless a fault is among the findings).
    pub envelope: Value,
    /// Differences from the document's own totals, validation faults, and other notes.
    pub findings: Vec<Finding>,
}

/// What the readers of each business group share: the findings so far.
#[derive(Debug, Default)]
pub(crate) struct Ctx {
    pub findings: Vec<Finding>,
}

impl Ctx {
    pub(crate) fn note(&mut self, severity: Severity, path: &str, message: String) {
        self.findings.push(Finding {
            severity,
            path: path.to_string(),
            message,
        });
    }
}

/// Read every invoice of a FatturaPA file (a batch holds several bodies under one header).
pub fn read(xml: &[u8]) -> Result<Vec<Imported>, ImportError> {
    let root = tree::parse(xml, NS_FATTURAPA)?;
    let header = root
        .child("FatturaElettronicaHeader")
        .ok_or_else(|| ImportError::Missing("FatturaElettronicaHeader".into()))?;
    let bodies: Vec<&Node> = root.all("FatturaElettronicaBody").collect();
    if bodies.is_empty() {
        return Err(ImportError::Missing("FatturaElettronicaBody".into()));
    }
    bodies.into_iter().map(|b| read_body(header, b)).collect()
}

/// The bare GOBL document of one body, before calculation.
pub(crate) fn document(header: &Node, body: &Node, ctx: &mut Ctx) -> Result<Value, ImportError> {
    let mut doc = Map::new();
    doc.insert(
        "$schema".into(),
        json!("https://gobl.org/draft-0/bill/invoice"),
    );
    doc.insert("$regime".into(), json!("IT"));
    doc.insert("$addons".into(), json!(["it-sdi-v1"]));
    header_parse::read(&mut doc, header)?;
    general_parse::read(&mut doc, body, ctx)?;
    lines_parse::read(&mut doc, body)?;
    retained_parse::read(&mut doc, body, ctx)?;
    payment_parse::read(&mut doc, body)?;
    Ok(Value::Object(doc))
}

fn read_body(header: &Node, body: &Node) -> Result<Imported, ImportError> {
    let mut ctx = Ctx::default();
    let mut document = document(header, body, &mut ctx)?;
    let mut faults = Vec::new();
    let mut envelope = build(&document, &mut faults)?;
    if let Some(rounding) = summary_parse::payable_difference(&envelope, body, &mut ctx)? {
        // As the reference does: the document's payable stands, the difference is shown
        // as `totals.rounding` (and reported when it is more than the stated rounding).
        document["totals"] = json!({ "rounding": rounding.to_string() });
        faults.clear();
        envelope = build(&document, &mut faults)?;
    }
    ctx.findings.extend(faults);
    summary_parse::compare(&envelope, body, &mut ctx);
    Ok(Imported {
        document,
        envelope,
        findings: ctx.findings,
    })
}

/// Build a document; validation faults do not lose it (they become findings), a document
/// that cannot be calculated is an error.
fn build(doc: &Value, faults: &mut Vec<Finding>) -> Result<Value, ImportError> {
    let opts = gobl::builder::BuildOptions::default();
    match gobl::builder::build_with(doc.clone(), &opts) {
        Ok(env) => Ok(env),
        Err(invalid) => {
            let messages = invalid.faults.0.iter().map(|f| {
                (
                    f.paths.join(", "),
                    format!("GOBL {}: {}", f.code, f.message),
                )
            });
            if invalid.envelope.is_null() {
                return Err(ImportError::Build(
                    messages.map(|(p, m)| format!("{p}: {m}")).collect(),
                ));
            }
            faults.extend(messages.map(|(path, message)| Finding {
                severity: Severity::Warning,
                path,
                message,
            }));
            Ok(invalid.envelope)
        }
    }
}

/// The amount at `path` under `node`, checked; `None` when absent.
pub(crate) fn amount(node: &Node, path: &str) -> Result<Option<Amount>, ImportError> {
    node.text(path).map(|t| parse_amount(t, path)).transpose()
}

pub(crate) fn parse_amount(text: &str, path: &str) -> Result<Amount, ImportError> {
    Amount::parse(text).map_err(|_| ImportError::Invalid {
        path: path.to_string(),
        value: text.to_string(),
        what: "amount",
    })
}

/// The percentage figure at `path` (`22.00` → `22.00%`); `None` when absent.
pub(crate) fn percent(node: &Node, path: &str) -> Result<Option<Percentage>, ImportError> {
    node.text(path)
        .map(|t| {
            Percentage::parse(&format!("{t}%")).map_err(|_| ImportError::Invalid {
                path: path.to_string(),
                value: t.to_string(),
                what: "percentage",
            })
        })
        .transpose()
}

/// The ISO date at `path`, checked; `None` when absent.
pub(crate) fn date(node: &Node, path: &str) -> Result<Option<String>, ImportError> {
    node.text(path)
        .map(|t| {
            chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d")
                .map(|d| d.to_string())
                .map_err(|_| ImportError::Invalid {
                    path: path.to_string(),
                    value: t.to_string(),
                    what: "date",
                })
        })
        .transpose()
}

/// A required text.
pub(crate) fn required<'a>(node: &'a Node, path: &str) -> Result<&'a str, ImportError> {
    node.text(path)
        .ok_or_else(|| ImportError::Missing(path.to_string()))
}

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
