//! Corrections of an invoice, as GOBL's `Correct`: the invoice becomes the preceding document
//! of a new credit note, corrective invoice or debit note, of a type its regime allows. The
//! result is a document to build (calculate, validate, envelope) like any other.

use crate::json;
use crate::json::{Map, Value};
use serde::Deserialize;

use super::val::{Obj, string};
use crate::tax::defs::CorrectionDef;
use crate::{addons, regimes};

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
    pub stamps: Vec<serde_json::Value>,
    /// Why the invoice is corrected.
    #[serde(default)]
    pub reason: Option<String>,
    /// Extensions for the preceding reference.
    #[serde(default)]
    pub ext: Option<serde_json::Map<String, serde_json::Value>>,
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

/// An invoice's correction definition: its regime's merged with each of its add-ons'.
#[derive(Debug, Default)]
pub struct Definition {
    /// The types a correction may produce, the default first (empty: any).
    pub types: Vec<&'static str>,
    /// Extensions the options should give for the preceding reference.
    pub extensions: Vec<&'static str>,
    /// Providers of the stamps the preceding reference must carry.
    pub stamps: Vec<&'static str>,
    /// Whether a reason is required.
    pub reason_required: bool,
    /// Whether copying the tax totals is recommended.
    pub copy_tax: bool,
    normalizers: Vec<crate::tax::defs::CorrectionNormalize>,
}

impl Definition {
    /// The definition for `doc` (an invoice with its `$regime` and `$addons`).
    pub fn of(doc: &Obj) -> Definition {
        let mut d = Definition::default();
        let regime = string(doc, "$regime").and_then(regimes::get);
        for c in regime
            .map(|r| &r.corrections)
            .into_iter()
            .chain(addons::active(doc).into_iter().map(|a| &a.corrections))
        {
            d.merge(c);
        }
        d
    }

    fn merge(&mut self, c: &CorrectionDef) {
        let add = |into: &mut Vec<&'static str>, from: &[&'static str]| {
            for x in from {
                if !into.contains(x) {
                    into.push(x);
                }
            }
        };
        add(&mut self.types, c.types);
        add(&mut self.extensions, c.extensions);
        add(&mut self.stamps, c.stamps);
        self.reason_required |= c.reason_required;
        self.copy_tax |= c.copy_tax;
        self.normalizers.extend(c.normalize);
    }
}

/// The correction types the invoice's regime and add-ons allow, the default first.
pub fn correction_types(doc: &Obj) -> Vec<&'static str> {
    let types = Definition::of(doc).types;
    if types.is_empty() {
        ANY_CORRECTION.to_vec()
    } else {
        types
    }
}

/// A JSON Schema of the options a correction of this invoice accepts.
pub fn options_schema(doc: &Obj) -> Value {
    let def = Definition::of(doc);
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
    let mut schema = json!({
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
    });
    let mut recommended = vec!["series"];
    if !def.extensions.is_empty() {
        schema["properties"]["ext"] = extensions_schema(&def.extensions);
        recommended.push("ext");
    }
    if def.reason_required {
        schema["required"] = json!(["type", "reason"]);
    }
    if def.copy_tax {
        recommended.push("copy_tax");
    }
    schema["recommended"] = json!(recommended);
    schema
}

/// The `ext` option: one property per extension, its codes as `oneOf`.
fn extensions_schema(keys: &[&str]) -> Value {
    let mut props = Map::new();
    for k in keys {
        let mut prop = json!({"type": "string", "title": k});
        if let Some(e) = addons::extension(k).filter(|e| !e.codes.is_empty()) {
            let codes: Vec<Value> = e.codes.iter().map(|c| json!({"const": c})).collect();
            prop["oneOf"] = Value::Array(codes);
        }
        props.insert((*k).into(), prop);
    }
    json!({"type": "object", "title": "Extensions", "properties": props, "recommended": keys})
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
    let def = Definition::of(invoice);
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

    let stamps = required_stamps(&def, opts)?;
    if def.reason_required && opts.reason.as_deref().is_none_or(str::is_empty) {
        return Err(error("reason", "missing corrective reason"));
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
    doc.insert(
        "preceding".into(),
        json!([preceding(invoice, code, opts, stamps)]),
    );
    let ext = opts.ext.as_ref().map(ext_map).unwrap_or_default();
    for normalize in &def.normalizers {
        normalize(&mut doc, &ext);
    }
    Ok(doc)
}

/// The stamps of the options (the caller adds the envelope's own) that the definition
/// requires, one per provider in its order.
fn required_stamps(
    def: &Definition,
    opts: &CorrectionOptions,
) -> Result<Vec<Value>, CorrectionError> {
    def.stamps
        .iter()
        .map(|prv| {
            opts.stamps
                .iter()
                .find(|s| s.get("prv").and_then(serde_json::Value::as_str) == Some(prv))
                .map(Value::from)
                .ok_or_else(|| error("stamps", format!("missing stamp: {prv}")))
        })
        .collect()
}

/// The options' extensions as the document holds them.
fn ext_map(ext: &serde_json::Map<String, serde_json::Value>) -> Map {
    ext.iter()
        .map(|(k, v)| (k.as_str(), Value::from(v)))
        .collect()
}

/// The reference to the corrected invoice.
fn preceding(invoice: &Obj, code: &str, opts: &CorrectionOptions, stamps: Vec<Value>) -> Value {
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
    if !stamps.is_empty() {
        pre.insert("stamps".into(), Value::Array(stamps));
    }
    if let Some(ext) = opts.ext.as_ref().filter(|e| !e.is_empty()) {
        pre.insert("ext".into(), Value::Object(ext_map(ext)));
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

    #[test]
    fn the_schema_asks_for_the_add_ons_correction_extensions() {
        let mut doc = invoice("ES");
        assert!(options_schema(&doc)["properties"].get("ext").is_none());
        doc.insert("$addons".into(), json!(["es-tbai-v1", "es-facturae-v3"]));
        let s = options_schema(&doc);
        let ext = &s["properties"]["ext"];
        assert_eq!(
            ext["recommended"],
            json!(["es-tbai-correction", "es-facturae-correction"])
        );
        assert_eq!(
            ext["properties"]["es-tbai-correction"]["oneOf"][0]["const"],
            "R1"
        );
        assert_eq!(s["recommended"], json!(["series", "ext"]));
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

    fn with_addon(regime: &str, addon: &str) -> Obj {
        let mut inv = invoice(regime);
        inv.insert("$addons".into(), json!([addon]));
        inv
    }

    #[test]
    fn an_addon_adds_its_types_stamps_extensions_and_reason() {
        let inv = with_addon("CO", "co-dian-v2");
        let def = Definition::of(&inv);
        assert_eq!(def.types, ["credit-note", "debit-note"]);
        assert_eq!(def.stamps, ["dian-cude"]);
        assert!(def.extensions.contains(&"co-dian-credit-code"));
        assert!(def.reason_required);

        let mut o = opts("credit-note");
        o.reason = None;
        o.stamps = vec![serde_json::json!({"prv": "dian-cude", "val": "abc"})];
        assert_eq!(correct(&inv, &o, "2026-02-01").unwrap_err().field, "reason");
        o.reason = Some("wrong price".into());
        o.stamps.clear();
        let e = correct(&inv, &o, "2026-02-01").unwrap_err();
        assert_eq!(
            (e.field, e.message.as_str()),
            ("stamps", "missing stamp: dian-cude")
        );
        o.stamps = vec![
            serde_json::json!({"prv": "other", "val": "x"}),
            serde_json::json!({"prv": "dian-cude", "val": "abc"}),
        ];
        let doc = correct(&inv, &o, "2026-02-01").unwrap();
        assert_eq!(
            doc["preceding"][0]["stamps"],
            json!([{"prv": "dian-cude", "val": "abc"}])
        );
    }

    #[test]
    fn the_schema_offers_the_addon_extensions_with_their_codes() {
        let inv = with_addon("ES", "es-verifactu-v1");
        let s = options_schema(&inv);
        let doc_type = &s["properties"]["ext"]["properties"]["es-verifactu-doc-type"];
        let codes: Vec<&str> = doc_type["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["const"].as_str().unwrap())
            .collect();
        assert!(codes.contains(&"R1") && codes.contains(&"F1"), "{codes:?}");
        assert_eq!(s["recommended"], json!(["series", "ext", "copy_tax"]));
        // Without the add-on: no extensions to offer.
        assert!(
            options_schema(&invoice("ES"))["properties"]
                .get("ext")
                .is_none()
        );
    }
}
