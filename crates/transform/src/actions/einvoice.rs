//! The e-invoice actions: `ubl.generate` and `cii.generate` write the job's GOBL invoice as
//! UBL or CII and attach it to the envelope; `ubl.import` and `cii.import` read a UBL or CII
//! file attached to the envelope into a new GOBL envelope.
//!
//! Configuration follows Invopop's workflows: `doc_type` names the profile (`bis-invoice-v3`,
//! `xrechnung-invoice-v2`; `facturx-v1`, `zugferd-v2`, `xrechnung-v3`), and `validate_ubl` /
//! `validate_cii` turn a document that fails its profile's rules into a `KO` (without it the
//! document is attached and the failed rules are reported in the event). Unknown keys are
//! ignored. Both are idempotent: the file and envelope ids derive from the step's intent id.

use folio_einvoice::{Finding, Format, Severity, Syntax};
use folio_silo::{NewEnvelope, NewFile, SiloError};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::{Action, Outcome, Report, StepCx, check_config, parse_config};

/// Files written by the generate actions share this category; with the syntax as `key`, a
/// later run replaces the earlier file (which stays downloadable by its id).
const CATEGORY: &str = "einvoice";

#[derive(Debug, Default, Deserialize)]
struct GenerateConfig {
    #[serde(default)]
    doc_type: Option<String>,
    #[serde(default)]
    validate_ubl: bool,
    #[serde(default)]
    validate_cii: bool,
}

/// `ubl.generate` and `cii.generate`.
pub struct Generate(pub Syntax);

impl Generate {
    fn format(&self, c: &GenerateConfig) -> Option<Format> {
        Format::from_doc_type(self.0, c.doc_type.as_deref().unwrap_or(""))
    }
}

#[async_trait::async_trait]
impl Action for Generate {
    fn name(&self) -> &'static str {
        match self.0 {
            Syntax::Ubl => "ubl.generate",
            Syntax::Cii => "cii.generate",
        }
    }

    fn check(&self, config: &Value) -> Vec<(String, String)> {
        let mut errors = check_config::<GenerateConfig>(config);
        if let Ok(c) = parse_config::<GenerateConfig>(config)
            && self.format(&c).is_none()
        {
            errors.push((
                "doc_type".into(),
                "not a document type this action writes".into(),
            ));
        }
        errors
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: GenerateConfig = match parse_config(cx.config) {
            Ok(c) => c,
            Err(e) => return Outcome::Ko(Report::new("config", format!("{e:?}"))),
        };
        let Some(format) = self.format(&config) else {
            return Outcome::Ko(Report::new("config", "unknown doc_type"));
        };
        let envelope_id = match cx.envelope() {
            Ok(id) => id,
            Err(o) => return o,
        };
        let entry = match cx.transform.silo().get(cx.workspace_id, envelope_id).await {
            Ok(e) => e,
            Err(e) => return silo_outcome(e),
        };
        let data: Value = match serde_json::from_str(entry.data.as_deref().unwrap_or("null")) {
            Ok(v) => v,
            Err(e) => return Outcome::Ko(Report::new("invalid", e.to_string())),
        };
        let generated = match tokio::task::spawn_blocking(move || {
            folio_einvoice::generate(&data, format)
        })
        .await
        {
            Ok(Ok(g)) => g,
            Ok(Err(e)) => return Outcome::Ko(Report::new("convert", e.to_string())),
            Err(e) => return Outcome::Err(Report::new("internal", e.to_string()), None),
        };
        let validate = match self.0 {
            Syntax::Ubl => config.validate_ubl,
            Syntax::Cii => config.validate_cii,
        };
        if validate && !generated.is_valid() {
            let mut report = Report::new("invalid", summary(&generated.findings));
            report
                .args
                .insert("rules".into(), rule_ids(&generated.findings));
            return Outcome::Ko(report);
        }
        let ctx = format.context();
        let failed = (!generated.is_valid()).then(|| rule_ids(&generated.findings));
        let file_id = Uuid::new_v5(&cx.intent_id, ctx.name.as_bytes());
        let file = NewFile {
            name: ctx.file_name.to_string(),
            bytes: generated.xml.into_bytes(),
            mime: Some("application/xml".into()),
            desc: Some(format!("{} ({})", ctx.name, ctx.customization_id)),
            key: Some(self.0.as_str().into()),
            category: Some(CATEGORY.into()),
            meta: None,
        };
        let info = match cx
            .transform
            .silo()
            .put_file(cx.workspace_id, envelope_id, file_id, file)
            .await
        {
            Ok(info) => info,
            Err(e) => return silo_outcome(e),
        };
        let mut report = Report::new(
            "generated",
            format!("attached {} ({}, {} bytes)", info.name, ctx.name, info.size),
        );
        report.args.insert("file_id".into(), info.id.to_string());
        report.args.insert("file_name".into(), info.name);
        report.args.insert("format".into(), ctx.name.into());
        if let Some(rules) = failed {
            report.args.insert("rules".into(), rules);
        }
        Outcome::Ok(report)
    }
}

#[derive(Debug, Default, Deserialize)]
struct ImportConfig {
    /// The name of the attached file to read; the first XML file when absent.
    #[serde(default)]
    file: Option<String>,
}

/// `ubl.import` and `cii.import`.
pub struct Import(pub Syntax);

#[async_trait::async_trait]
impl Action for Import {
    fn name(&self) -> &'static str {
        match self.0 {
            Syntax::Ubl => "ubl.import",
            Syntax::Cii => "cii.import",
        }
    }

    fn check(&self, config: &Value) -> Vec<(String, String)> {
        check_config::<ImportConfig>(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: ImportConfig = match parse_config(cx.config) {
            Ok(c) => c,
            Err(e) => return Outcome::Ko(Report::new("config", format!("{e:?}"))),
        };
        let envelope_id = match cx.envelope() {
            Ok(id) => id,
            Err(o) => return o,
        };
        let (name, xml) = match source(cx, envelope_id, config.file.as_deref()).await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let syntax = self.0;
        let imported = match tokio::task::spawn_blocking({
            let xml = xml.clone();
            move || folio_einvoice::import(&xml)
        })
        .await
        {
            Ok(Ok(i)) if i.syntax == syntax => i,
            Ok(Ok(i)) => {
                return Outcome::Ko(Report::new(
                    "syntax",
                    format!("{name} is {}, not {}", i.syntax.as_str(), syntax.as_str()),
                ));
            }
            Ok(Err(e)) => return Outcome::Ko(Report::new("import", format!("{name}: {e}"))),
            Err(e) => return Outcome::Err(Report::new("internal", e.to_string()), None),
        };
        let new_id = Uuid::new_v5(&cx.intent_id, b"import");
        // the bare document: the silo envelopes it under the new id, as for any stored document
        let new = NewEnvelope {
            id: Some(new_id),
            data: imported.envelope["doc"].to_string(),
            allow_invalid: true,
            ..NewEnvelope::default()
        };
        let entry = match cx.transform.silo().create(cx.workspace_id, new).await {
            Ok(e) => e,
            Err(SiloError::Conflict(_)) => {
                match cx.transform.silo().get(cx.workspace_id, new_id).await {
                    // a re-run after a crash: the envelope is already there
                    Ok(e) => e,
                    Err(e) => return silo_outcome(e),
                }
            }
            Err(e) => return silo_outcome(e),
        };
        let source_file = NewFile {
            name: name.clone(),
            bytes: xml,
            mime: Some("application/xml".into()),
            desc: Some("the e-invoice this envelope was imported from".into()),
            key: Some(syntax.as_str().into()),
            category: Some(CATEGORY.into()),
            meta: None,
        };
        let file_id = Uuid::new_v5(&cx.intent_id, b"source");
        if let Err(e) = cx
            .transform
            .silo()
            .put_file(cx.workspace_id, entry.id, file_id, source_file)
            .await
        {
            return silo_outcome(e);
        }
        let mut report = Report::new(
            "imported",
            format!("{name} imported as envelope {}", entry.id),
        );
        report
            .args
            .insert("silo_entry_id".into(), entry.id.to_string());
        report.args.insert("file_name".into(), name);
        let unmapped = imported
            .notes
            .iter()
            .filter(|n| n.rule == "folio-unmapped")
            .count();
        report.args.insert("unmapped".into(), unmapped.to_string());
        if !imported.notes.is_empty() {
            report.args.insert("notes".into(), summary(&imported.notes));
        }
        Outcome::Ok(report)
    }
}

/// The XML file to import: the attachment named `wanted`, else the first XML attachment.
async fn source(
    cx: &StepCx<'_>,
    envelope_id: Uuid,
    wanted: Option<&str>,
) -> Result<(String, Vec<u8>), Outcome> {
    let entry = cx
        .transform
        .silo()
        .get(cx.workspace_id, envelope_id)
        .await
        .map_err(silo_outcome)?;
    let file = entry
        .attachments
        .iter()
        .find(|f| match wanted {
            Some(name) => f.name == name,
            None => f.mime.contains("xml") || f.name.to_ascii_lowercase().ends_with(".xml"),
        })
        .ok_or_else(|| {
            Outcome::Ko(Report::new(
                "no-file",
                match wanted {
                    Some(name) => format!("the envelope has no file named {name}"),
                    None => "the envelope has no XML file to import".to_string(),
                },
            ))
        })?;
    let (_, bytes) = cx
        .transform
        .silo()
        .get_file(cx.workspace_id, envelope_id, file.id)
        .await
        .map_err(silo_outcome)?;
    Ok((file.name.clone(), bytes.to_vec()))
}

fn silo_outcome(e: SiloError) -> Outcome {
    match e {
        SiloError::Store(e) => Outcome::Err(Report::new("storage", e.to_string()), None),
        SiloError::NotFound(what) => {
            Outcome::Ko(Report::new("not-found", format!("{what} not found")))
        }
        other => Outcome::Ko(Report::new("invalid", other.to_string())),
    }
}

/// The fatal findings (or, without any, every finding), one per line.
fn summary(findings: &[Finding]) -> String {
    let fatal: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.severity == Severity::Fatal)
        .collect();
    let shown: Vec<&Finding> = if fatal.is_empty() {
        findings.iter().collect()
    } else {
        fatal
    };
    shown
        .iter()
        .map(|f| f.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The ids of the fatal rules, comma-separated.
fn rule_ids(findings: &[Finding]) -> String {
    let mut ids: Vec<&str> = findings
        .iter()
        .filter(|f| f.severity == Severity::Fatal)
        .map(|f| f.rule.as_str())
        .collect();
    ids.dedup();
    ids.join(",")
}
