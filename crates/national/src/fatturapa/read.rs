//! FatturaPA → GOBL: the received side. Each `FatturaElettronicaBody` of a file becomes a
//! bare GOBL invoice (`$regime: IT`, `$addons: [it-sdi-v1]`, the SDI codes as the add-on's
//! extensions), built by `gobl::builder` and then compared with the totals the document
//! states itself: every difference is reported, never absorbed silently.

//!
//! This file only drives the `_parse` files; what they share (the error, the findings, the
//! checked values, the JSON writers) sits in files below them all, so none imports this one.

use serde_json::{Map, Value, json};

use super::findings::{Ctx, Finding, Severity};
use super::import_error::ImportError;
use super::tree::{self, Node};
use super::{NS_FATTURAPA, general_parse, header_parse, lines_parse, payment_parse};
use super::{retained_parse, summary_parse};

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
