//! `pdf`: renders the envelope's invoice as a PDF/A-3b file and attaches it (key and category
//! `pdf`: a re-render replaces the earlier file, which stays downloadable by its id).
//!
//! Options are Invopop's (`locale`, `layout`, `date_format`, `decimal_mark`,
//! `thousands_separator`, `logo_height`, `label`, `watermark`, `duplicate`) plus `logo`, a
//! PNG, JPEG or SVG image as a `data:` URI or plain base64; unknown options are ignored. An
//! envelope with a VERI*FACTU record or a TicketBAI file attached (by their steps) gets its
//! QR code and legend where the law places them.

use base64::Engine as _;
use folio_api::FieldError;
use folio_pdf::FiscalMark;
use folio_silo::{FileInfo, NewFile};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::hybrid::PDF_KEY;
use super::{Action, Outcome, Report, StepCx, check_config, parse_config};

#[derive(Debug, Default, Deserialize)]
struct Config {
    #[serde(flatten)]
    options: folio_pdf::Options,
    #[serde(default)]
    logo: Option<String>,
}

impl Config {
    /// The render options with the logo decoded.
    fn options(self) -> Result<folio_pdf::Options, String> {
        let mut options = self.options;
        if let Some(logo) = self.logo.filter(|l| !l.is_empty()) {
            let data = logo
                .split_once(";base64,")
                .map_or(logo.as_str(), |(_, d)| d);
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(data.trim())
                .map_err(|_| "logo: not base64 (or a data: URI)".to_string())?;
            options.logo = Some(bytes);
        }
        Ok(options)
    }
}

/// `pdf`.
pub struct Pdf;

#[async_trait::async_trait]
impl Action for Pdf {
    fn name(&self) -> &'static str {
        "pdf"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        let mut errors = check_config::<Config>(config);
        if errors.is_empty()
            && let Ok(c) = parse_config::<Config>(config)
            && let Err(e) = c.options()
        {
            errors.push(FieldError::new("logo", e));
        }
        errors
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let mut options = match cx.config::<Config>().map(Config::options) {
            Ok(Ok(o)) => o,
            Ok(Err(e)) => return Outcome::Ko(Report::new("config", e)),
            Err(o) => return o,
        };
        let (entry, data) = match cx.envelope_entry().await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let envelope_id = entry.id;
        options.fiscal = fiscal_mark(&entry.attachments);
        let name = file_name(&data);
        let rendered =
            tokio::task::spawn_blocking(move || folio_pdf::render(&data, &options)).await;
        let bytes = match rendered {
            Ok(Ok(b)) => b,
            Ok(Err(e)) => return Outcome::Ko(Report::new("render", e.to_string())),
            Err(e) => return Outcome::Err(Report::new("internal", e.to_string()), None),
        };
        let file = NewFile {
            name,
            bytes,
            mime: Some("application/pdf".into()),
            desc: Some("the invoice as PDF/A-3b".into()),
            key: Some(PDF_KEY.into()),
            category: Some(PDF_KEY.into()),
            meta: None,
        };
        let file_id = Uuid::new_v5(&cx.intent_id, b"pdf");
        let info = match cx.attach(envelope_id, file_id, file).await {
            Ok(info) => info,
            Err(o) => return o,
        };
        let message = format!("attached {} ({} bytes)", info.name, info.size);
        let report = Report::attached("rendered", message, &info);
        Outcome::Ok(report)
    }
}

/// The QR code the law wants printed on the invoice, from the envelope's current
/// TicketBAI file or VERI*FACTU record (their steps keep the URL and identifier as meta).
fn fiscal_mark(files: &[FileInfo]) -> Option<FiscalMark> {
    let current = |key: &str| super::current_file(files, key).and_then(|f| f.meta.as_ref());
    if let Some(meta) = current("ticketbai") {
        return Some(FiscalMark::ticketbai(
            meta.get("qr_url")?.clone(),
            meta.get("tbai_id")?.clone(),
        ));
    }
    Some(FiscalMark::verifactu(
        current("verifactu")?.get("qr_url")?.clone(),
    ))
}

/// `<series-code>.pdf`, or `invoice.pdf` for a document without a code.
fn file_name(envelope: &Value) -> String {
    let safe: String = folio_pdf::series_code(&envelope["doc"])
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    if safe.is_empty() {
        "invoice.pdf".into()
    } else {
        format!("{safe}.pdf")
    }
}
