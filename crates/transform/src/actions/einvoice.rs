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
use folio_silo::{FileInfo, NewFile};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::category::CATEGORY;
use super::received::{self, Source, Wanted};
use super::{Action, Outcome, Report, StepCx, check_config, parse_config};

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

    /// The file this carrier reads: the one named in the step's config, else the first
    /// XML (or PDF) attachment.
    fn wanted(self, name: Option<&str>) -> Wanted<'_> {
        match self {
            Carrier::Xml(_) => Wanted {
                name,
                reads: is_xml,
                what: "XML file",
            },
            Carrier::Pdf => Wanted {
                name,
                reads: |f| {
                    f.mime == "application/pdf" || f.name.to_ascii_lowercase().ends_with(".pdf")
                },
                what: "PDF file",
            },
        }
    }
}

/// Whether an attachment is XML, by its media type or name.
pub(super) fn is_xml(file: &FileInfo) -> bool {
    file.mime.contains("xml") || file.name.to_ascii_lowercase().ends_with(".xml")
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
        let wanted = self.0.wanted(config.file.as_deref());
        let (name, xml) = match received::source(cx, &wanted).await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let imported = match self.read(&name, &xml).await {
            Ok(imported) => imported,
            Err(o) => return o,
        };
        let source = Source {
            name: name.clone(),
            bytes: xml,
            mime: match self.0 {
                Carrier::Xml(_) => "application/xml",
                Carrier::Pdf => "application/pdf",
            },
            key: self.0.key(),
        };
        let doc = imported.envelope["doc"].to_string();
        let entry = match received::store(cx, 0, doc, &source).await {
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
