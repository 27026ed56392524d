//! The e-invoice actions: `ubl.generate` and `cii.generate` write the job's GOBL invoice as
//! UBL or CII and attach it to the envelope; `ubl.import` and `cii.import` read a UBL or CII
//! file attached to the envelope, or the XML the job was given as `data`, into a new GOBL
//! envelope (which a job without an envelope then works on).
//!
//! Configuration follows Invopop's workflows: `doc_type` names the profile (`bis-invoice-v3`,
//! `xrechnung-invoice-v2`; `facturx-v1`, `zugferd-v2`, `xrechnung-v3`), and `validate_ubl` /
//! `validate_cii` turn a document that fails its profile's rules into a `KO` (without it the
//! document is attached and the failed rules are reported in the event). Unknown keys are
//! ignored. Both are idempotent: the file and envelope ids derive from the step's intent id.

use folio_api::FieldError;
use folio_einvoice::{Finding, Format, Generated, Imported, Severity, Syntax};
use folio_silo::{Entry, FileInfo, NewEnvelope, NewFile, SiloError};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::{Action, Outcome, Report, StepCx, check_config, parse_config, silo_outcome};

/// Files written by the generate actions share this category; with the syntax as `key`, a
/// later run replaces the earlier file (which stays downloadable by its id).
pub(super) const CATEGORY: &str = "einvoice";

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

    fn check(&self, config: &Value) -> Vec<FieldError> {
        let mut errors = check_config::<GenerateConfig>(config);
        if let Ok(c) = parse_config::<GenerateConfig>(config)
            && self.format(&c).is_none()
        {
            errors.push(FieldError::new(
                "doc_type",
                "not a document type this action writes",
            ));
        }
        errors
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: GenerateConfig = match cx.config() {
            Ok(c) => c,
            Err(o) => return o,
        };
        let Some(format) = self.format(&config) else {
            return Outcome::Ko(Report::new("config", "unknown doc_type"));
        };
        let (entry, data) = match cx.envelope_entry().await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let envelope_id = entry.id;
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
        self.attach(cx, envelope_id, format, generated).await
    }
}

impl Generate {
    /// Attaches the generated XML to the envelope (one file per step run: its id derives from
    /// the intent), reporting the rules it breaks when it was not required to pass them.
    async fn attach(
        &self,
        cx: &mut StepCx<'_>,
        envelope_id: Uuid,
        format: Format,
        generated: Generated,
    ) -> Outcome {
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
        let info = match cx.attach(envelope_id, file_id, file).await {
            Ok(info) => info,
            Err(o) => return o,
        };
        let message = format!("attached {} ({}, {} bytes)", info.name, ctx.name, info.size);
        let mut report = Report::attached("generated", message, &info);
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

/// What an import step reads: UBL or CII as XML, or CII embedded in a hybrid PDF.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Carrier {
    /// An XML document of this syntax.
    Xml(Syntax),
    /// A Factur-X / ZUGFeRD / XRechnung PDF.
    Pdf,
}

impl Carrier {
    /// The syntax of the invoice read.
    fn syntax(self) -> Syntax {
        match self {
            Carrier::Xml(s) => s,
            Carrier::Pdf => Syntax::Cii,
        }
    }

    /// The silo file key of the source kept with the imported envelope.
    fn key(self) -> &'static str {
        match self {
            Carrier::Xml(s) => s.as_str(),
            Carrier::Pdf => "pdf",
        }
    }

    /// Whether an attachment is one this carrier reads, when the step names none.
    fn reads(self, file: &FileInfo) -> bool {
        let (mime, name) = (file.mime.as_str(), file.name.to_ascii_lowercase());
        match self {
            Carrier::Xml(_) => mime.contains("xml") || name.ends_with(".xml"),
            Carrier::Pdf => mime == "application/pdf" || name.ends_with(".pdf"),
        }
    }
}

/// `ubl.import`, `cii.import` and `cii.pdf.import`.
pub struct Import(pub Carrier);

#[async_trait::async_trait]
impl Action for Import {
    fn name(&self) -> &'static str {
        match self.0 {
            Carrier::Xml(Syntax::Ubl) => "ubl.import",
            Carrier::Xml(Syntax::Cii) => "cii.import",
            Carrier::Pdf => "cii.pdf.import",
        }
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check_config::<ImportConfig>(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: ImportConfig = match cx.config() {
            Ok(c) => c,
            Err(o) => return o,
        };
        let (name, xml) = match source(cx, self.0, config.file.as_deref()).await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let imported = match self.read(&name, &xml).await {
            Ok(imported) => imported,
            Err(o) => return o,
        };
        let entry = match self.store(cx, &name, xml, &imported).await {
            Ok(entry) => entry,
            Err(o) => return o,
        };
        Outcome::Ok(imported_report(name, entry.id, &imported))
    }
}

impl Import {
    /// Reads the invoice in `xml` (the file `name`), which must be of this step's carrier and
    /// syntax.
    async fn read(&self, name: &str, xml: &[u8]) -> Result<Imported, Outcome> {
        if (self.0 == Carrier::Pdf) != folio_einvoice::is_pdf(xml) {
            let what = if self.0 == Carrier::Pdf {
                "a PDF"
            } else {
                "XML"
            };
            return Err(Outcome::Ko(Report::new(
                "syntax",
                format!("{name} is not {what}"),
            )));
        }
        let syntax = self.0.syntax();
        let xml = xml.to_vec();
        match tokio::task::spawn_blocking(move || folio_einvoice::import(&xml)).await {
            Ok(Ok(i)) if i.syntax == syntax => Ok(i),
            Ok(Ok(i)) => Err(Outcome::Ko(Report::new(
                "syntax",
                format!("{name} is {}, not {}", i.syntax.as_str(), syntax.as_str()),
            ))),
            Ok(Err(e)) => Err(Outcome::Ko(Report::new("import", format!("{name}: {e}")))),
            Err(e) => Err(Outcome::Err(Report::new("internal", e.to_string()), None)),
        }
    }

    /// Stores the imported document as a new envelope (its id derives from the intent, so a
    /// re-run finds it) with the source file attached.
    async fn store(
        &self,
        cx: &StepCx<'_>,
        name: &str,
        source: Vec<u8>,
        imported: &Imported,
    ) -> Result<Entry, Outcome> {
        let new_id = Uuid::new_v5(&cx.intent_id, b"import");
        // the bare document: the silo envelopes it under the new id, as for any stored document
        let new = NewEnvelope {
            id: Some(new_id),
            data: imported.envelope["doc"].to_string(),
            allow_invalid: true,
            ..NewEnvelope::default()
        };
        let silo = cx.transform.silo();
        let entry = match silo.create(cx.scope(), new).await {
            Ok(e) => e,
            // a re-run after a crash: the envelope is already there
            Err(SiloError::Conflict(_)) => {
                silo.get(cx.scope(), new_id).await.map_err(silo_outcome)?
            }
            Err(e) => return Err(silo_outcome(e)),
        };
        let mime = match self.0 {
            Carrier::Xml(_) => "application/xml",
            Carrier::Pdf => "application/pdf",
        };
        let source_file = NewFile {
            name: name.to_owned(),
            bytes: source,
            mime: Some(mime.into()),
            desc: Some("the e-invoice this envelope was imported from".into()),
            key: Some(self.0.key().into()),
            category: Some(CATEGORY.into()),
            meta: None,
        };
        let file_id = Uuid::new_v5(&cx.intent_id, b"source");
        silo.put_file(cx.scope(), entry.id, file_id, source_file)
            .await
            .map_err(silo_outcome)?;
        Ok(entry)
    }
}

/// What an import step says: the new envelope, the file read, what the reader could not map.
fn imported_report(name: String, entry_id: Uuid, imported: &Imported) -> Report {
    let mut report = Report::new(
        "imported",
        format!("{name} imported as envelope {entry_id}"),
    );
    report
        .args
        .insert("silo_entry_id".into(), entry_id.to_string());
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
    report
}

/// The XML to import: with an envelope, its attachment named `wanted`, else its first XML
/// attachment; without one, the XML the job was given as `data`.
async fn source(
    cx: &StepCx<'_>,
    carrier: Carrier,
    wanted: Option<&str>,
) -> Result<(String, Vec<u8>), Outcome> {
    if let Some(envelope_id) = cx.silo_entry_id {
        return attached(cx, envelope_id, carrier, wanted).await;
    }
    match cx.transform.job_input(cx.scope(), cx.job_id).await {
        Ok(Some(xml)) => Ok((INPUT_NAME.to_string(), xml.into_bytes())),
        Ok(None) => Err(Outcome::Ko(Report::new(
            "no-input",
            "this step needs an envelope with an XML file, or a job given the XML as data",
        ))),
        Err(e) => Err(Outcome::Err(Report::new("storage", e.to_string()), None)),
    }
}

/// The file name kept for XML given as job `data`.
const INPUT_NAME: &str = "einvoice.xml";

/// The attachment named `wanted`, else the envelope's first attachment the carrier reads.
async fn attached(
    cx: &StepCx<'_>,
    envelope_id: Uuid,
    carrier: Carrier,
    wanted: Option<&str>,
) -> Result<(String, Vec<u8>), Outcome> {
    let entry = cx
        .transform
        .silo()
        .get(cx.scope(), envelope_id)
        .await
        .map_err(silo_outcome)?;
    let file = entry
        .attachments
        .iter()
        .find(|f| match wanted {
            Some(name) => f.name == name,
            None => carrier.reads(f),
        })
        .ok_or_else(|| {
            Outcome::Ko(Report::new(
                "no-file",
                match (wanted, carrier) {
                    (Some(name), _) => format!("the envelope has no file named {name}"),
                    (None, Carrier::Xml(_)) => "the envelope has no XML file to import".into(),
                    (None, Carrier::Pdf) => "the envelope has no PDF file to import".into(),
                },
            ))
        })?;
    let (_, bytes) = cx
        .transform
        .silo()
        .get_file(cx.scope(), envelope_id, file.id)
        .await
        .map_err(silo_outcome)?;
    Ok((file.name.clone(), bytes.to_vec()))
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
