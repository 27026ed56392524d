//! Corrections of an invoice, as GOBL's `Correct`: the invoice becomes the preceding document
//! of a new credit note, corrective invoice or debit note, of a type its regime allows. The
//! result is a document to build (calculate, validate, envelope) like any other.

use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::val::{Obj, string};
use crate::regimes;

/// The types any invoice may be corrected into when its regime does not say.
const ANY_CORRECTION: &[&str] = &["credit-note", "corrective", "debit-note"];

/// How to correct an invoice (GOBL's `bill.CorrectionOptions`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct CorrectionOptions {
    /// The type of the new document: `credit-note`, `corrective` or `debit-note`.
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    /// The new document's issue date (default: today).
    #[serde(default)]
    pub issue_date: Option<String>,
    /// The new document's series (default: the invoice's).
    #[serde(default)]
    pub series: Option<String>,
    /// Stamps of the invoice to keep in the preceding reference.
    #[serde(default)]
    pub stamps: Vec<Value>,
    /// Why the invoice is corrected.
    #[serde(default)]
    pub reason: Option<String>,
    /// Extensions for the preceding reference.
    #[serde(default)]
    pub ext: Option<Map<String, Value>>,
    /// Copy the invoice's tax totals into the preceding reference.
    #[serde(default)]
    pub copy_tax: bool,
}

/// Why an invoice cannot be corrected as asked: the option (or document field) and what is
/// wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct CorrectionError {
    /// `type`, `issue_date`, … for an option; `code` or `$schema` for the document.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

fn error(field: &'static str, message: impl Into<String>) -> CorrectionError {
    CorrectionError {
        field,
        message: message.into(),
    }
}

/// The correction types the invoice's regime allows, the default first.
pub fn correction_types(doc: &Obj) -> &'static [&'static str] {
    string(doc, "$regime")
        .and_then(regimes::get)
        .map(|r| r.corrections.types)
        .filter(|t| !t.is_empty())
        .unwrap_or(ANY_CORRECTION)
}

/// A JSON Schema of the options a correction of this invoice accepts.
pub fn options_schema(doc: &Obj) -> Value {
    let types = correction_types(doc);
    let regime = string(doc, "$regime").unwrap_or("").to_ascii_lowercase();
    let one_of: Vec<Value> = types
        .iter()
        .map(|t| {
            let (title, desc) = describe(t);
            json!({"const": t, "title": title, "description": desc})
        })
        .collect();
    let mut series = json!({"type": "string", "title": "Series"});
    if let Some(s) = string(doc, "series") {
        series["default"] = json!(s);
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!("https://gobl.org/draft-0/bill/correction-options?tax_regime={regime}"),
        "title": "Correction Options",
        "type": "object",
        "properties": {
            "type": {"type": "string", "title": "Type", "default": types[0], "oneOf": one_of},
            "issue_date": {"type": "string", "format": "date", "title": "Issue Date"},
            "series": series,
            "stamps": {"type": "array", "title": "Stamps", "items": {
                "type": "object",
                "properties": {"prv": {"type": "string"}, "val": {"type": "string"}},
                "required": ["prv", "val"]
            }},
            "reason": {"type": "string", "title": "Reason"},
            "copy_tax": {"type": "boolean", "title": "Copy Tax Totals"}
        },
        "required": ["type"],
        "recommended": ["series"]
    })
}

fn describe(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "credit-note" => (
            "Credit Note",
            "Refunds all or part of the preceding invoice, which stays in force.",
        ),
        "corrective" => ("Corrective", "Replaces the preceding invoice completely."),
        "debit-note" => ("Debit Note", "Adds charges to the preceding invoice."),
        _ => ("", ""),
    }
}

/// The correction of `invoice`: a new document (no uuid, no code; the caller builds it) whose
/// `preceding` is the invoice. `today` is the issue date when the options give none.
pub fn correct(
    invoice: &Obj,
    opts: &CorrectionOptions,
    today: &str,
) -> Result<Obj, CorrectionError> {
    if super::norm::short_schema(invoice) != "bill/invoice" {
        return Err(error("$schema", "only an invoice can be corrected"));
    }
    let code = string(invoice, "code")
        .filter(|c| !c.is_empty())
        .ok_or_else(|| error("code", "cannot correct an invoice without a code"))?;
    let kind = opts
        .kind
        .as_deref()
        .filter(|k| !k.is_empty())
        .ok_or_else(|| error("type", "missing correction type"))?;
    let allowed = correction_types(invoice);
    if !allowed.contains(&kind) {
        return Err(error(
            "type",
            format!(
                "invalid correction type {kind}: one of {}",
                allowed.join(", ")
            ),
        ));
    }
    if let Some(d) = &opts.issue_date
        && chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err()
    {
        return Err(error("issue_date", "a date as YYYY-MM-DD is required"));
    }

    let mut doc = invoice.clone();
    doc.remove("uuid");
    doc.insert("type".into(), json!(kind));
    if let Some(series) = opts.series.as_deref().filter(|s| !s.is_empty()) {
        doc.insert("series".into(), json!(series));
    }
    doc.remove("code");
    let issue_date = opts.issue_date.as_deref().unwrap_or(today);
    doc.insert("issue_date".into(), json!(issue_date));
    doc.insert("preceding".into(), json!([preceding(invoice, code, opts)]));
    normalize_correction(&mut doc, opts);
    Ok(doc)
}

/// The correction normalisers of the regime and the add-ons, given the options' extensions.
fn normalize_correction(doc: &mut Obj, opts: &CorrectionOptions) {
    let regime = string(doc, "$regime").and_then(regimes::get);
    let defs = regime.map(|r| &r.corrections).into_iter();
    let addons = crate::addons::active(doc);
    let normalizers: Vec<_> = defs
        .chain(addons.iter().map(|a| &a.corrections))
        .filter_map(|c| c.normalize)
        .collect();
    let ext = opts.ext.clone().unwrap_or_default();
    for f in normalizers {
        f(doc, &ext);
    }
}

/// The reference to the corrected invoice.
fn preceding(invoice: &Obj, code: &str, opts: &CorrectionOptions) -> Value {
    let mut pre = Map::new();
    for key in ["uuid", "type", "issue_date", "series"] {
        if let Some(v) = invoice.get(key) {
            pre.insert(key.into(), v.clone());
        }
    }
    pre.insert("code".into(), json!(code));
    if let Some(reason) = opts.reason.as_deref().filter(|r| !r.is_empty()) {
        pre.insert("reason".into(), json!(reason));
    }
    if let Some(ext) = opts.ext.as_ref().filter(|e| !e.is_empty()) {
        pre.insert("ext".into(), Value::Object(ext.clone()));
    }
    if opts.copy_tax
        && let Some(taxes) = invoice.get("totals").and_then(|t| t.get("taxes"))
    {
        pre.insert("tax".into(), taxes.clone());
    }
    Value::Object(pre)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invoice(regime: &str) -> Obj {
        json!({
            "$schema": "https://gobl.org/draft-0/bill/invoice",
            "$regime": regime,
            "uuid": "0190c6a0-0000-7000-8000-000000000001",
            "type": "standard",
            "series": "F",
            "code": "0007",
            "issue_date": "2026-01-05",
            "totals": {"taxes": {"sum": "21.00"}}
        })
        .as_object()
        .unwrap()
        .clone()
    }

    fn opts(kind: &str) -> CorrectionOptions {
        CorrectionOptions {
            kind: Some(kind.into()),
            ..Default::default()
        }
    }

    #[test]
    fn the_invoice_becomes_the_preceding_document() {
        let mut o = opts("credit-note");
        o.reason = Some("returned goods".into());
        o.copy_tax = true;
        let doc = correct(&invoice("ES"), &o, "2026-02-01").unwrap();
        assert_eq!(doc["type"], "credit-note");
        assert_eq!(doc["issue_date"], "2026-02-01");
        assert_eq!(doc["series"], "F");
        assert!(doc.get("uuid").is_none() && doc.get("code").is_none());
        let pre = &doc["preceding"][0];
        assert_eq!(pre["uuid"], "0190c6a0-0000-7000-8000-000000000001");
        assert_eq!(pre["code"], "0007");
        assert_eq!(pre["type"], "standard");
        assert_eq!(pre["issue_date"], "2026-01-05");
        assert_eq!(pre["reason"], "returned goods");
        assert_eq!(pre["tax"]["sum"], "21.00");
    }

    #[test]
    fn the_regime_limits_the_types() {
        let err = correct(&invoice("DE"), &opts("corrective"), "2026-02-01").unwrap_err();
        assert_eq!(err.field, "type");
        assert!(correct(&invoice("ES"), &opts("corrective"), "2026-02-01").is_ok());
        let mut no_code = invoice("ES");
        no_code.remove("code");
        let err = correct(&no_code, &opts("credit-note"), "2026-02-01").unwrap_err();
        assert_eq!(err.field, "code");
        let err = correct(&invoice("ES"), &CorrectionOptions::default(), "x").unwrap_err();
        assert_eq!(err.field, "type");
    }

    #[test]
    fn the_schema_offers_the_regimes_types_with_the_first_as_default() {
        let s = options_schema(&invoice("IT"));
        assert_eq!(s["properties"]["type"]["default"], "credit-note");
        let consts: Vec<_> = s["properties"]["type"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["const"].as_str().unwrap())
            .collect();
        assert_eq!(consts, ["credit-note", "debit-note"]);
        assert_eq!(s["properties"]["series"]["default"], "F");
    }

    /// The regimes' correction types are GOBL's (the shared regime data).
    #[test]
    fn correction_types_match_the_gobl_regime_data() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/gobl/data/regimes");
        for regime in regimes::ALL {
            let path = dir.join(format!("{}.json", regime.country.to_ascii_lowercase()));
            let data: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let types: Vec<_> = data["corrections"]
                .as_array()
                .and_then(|a| a.iter().find(|c| c["schema"] == "bill/invoice"))
                .and_then(|def| def["types"].as_array())
                .into_iter()
                .flatten()
                .map(|t| t.as_str().unwrap())
                .collect();
            assert_eq!(types, regime.corrections.types, "{}", regime.country);
        }
    }
}
