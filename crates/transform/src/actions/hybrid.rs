//! `cii.pdf.embed`: turns the envelope's PDF (from the `pdf` step) and CII file (from
//! `cii.generate`) into a Factur-X / ZUGFeRD / XRechnung hybrid. No configuration, as in
//! Invopop's workflows: the CII file's profile decides the embedded file's name and metadata.
//! The hybrid replaces the PDF (same key and category; the plain one stays downloadable by its
//! id); a rerun of the step finds its own output and does not embed twice.

use folio_api::FieldError;
use folio_einvoice::Format;
use folio_silo::{Entry, FileInfo, NewFile};
use serde_json::Value;
use uuid::Uuid;

use super::category::CATEGORY;
use super::{Action, Outcome, Report, StepCx, silo_outcome};

/// The silo key and category of the invoice PDF (plain or hybrid).
pub const PDF_KEY: &str = "pdf";

/// `cii.pdf.embed`.
pub struct Embed;

#[async_trait::async_trait]
impl Action for Embed {
    fn name(&self) -> &'static str {
        "cii.pdf.embed"
    }

    fn check(&self, _config: &Value) -> Vec<FieldError> {
        // no options; unknown keys are ignored as for every action
        Vec::new()
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let (entry, data) = match cx.envelope_entry().await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let envelope_id = entry.id;
        let output_id = Uuid::new_v5(&cx.intent_id, b"hybrid");
        let (Some(pdf), Some(cii)) = (
            latest(&entry, PDF_KEY, PDF_KEY),
            latest(&entry, "cii", CATEGORY),
        ) else {
            return Outcome::Ko(Report::new(
                "no-file",
                "the envelope needs a PDF (pdf step) and a CII file (cii.generate) to embed",
            ));
        };
        if pdf.id == output_id {
            // a rerun after the hybrid was stored
            return done(pdf, "already embedded");
        }
        // the CII's profile names the carrier; a plain EN 16931 CII travels as Factur-X
        let format = match Format::from_file_name(&cii.name) {
            Some(f @ (Format::CiiXrechnung | Format::CiiZugferd)) => f,
            _ => Format::CiiFacturx,
        };
        let silo = cx.transform.silo();
        let (pdf_bytes, cii_bytes) = match (
            silo.get_file(cx.scope(), envelope_id, pdf.id).await,
            silo.get_file(cx.scope(), envelope_id, cii.id).await,
        ) {
            (Ok((_, p)), Ok((_, c))) => (p.to_vec(), c.to_vec()),
            (Err(e), _) | (_, Err(e)) => return silo_outcome(e),
        };
        let hybrid = match tokio::task::spawn_blocking(move || {
            folio_einvoice::embed(&pdf_bytes, &data, format, None)
        })
        .await
        {
            Ok(Ok(h)) => h,
            Ok(Err(e)) => return Outcome::Ko(Report::new("embed", e.to_string())),
            Err(e) => return Outcome::Err(Report::new("internal", e.to_string()), None),
        };
        let same_payload = hybrid.xml == cii_bytes;
        let file = NewFile {
            name: pdf.name.clone(),
            bytes: hybrid.pdf,
            mime: Some("application/pdf".into()),
            desc: Some(format!("{} with {} embedded", pdf.name, hybrid.file_name)),
            key: Some(PDF_KEY.into()),
            category: Some(PDF_KEY.into()),
            meta: None,
        };
        let info = match cx.attach(envelope_id, output_id, file).await {
            Ok(info) => info,
            Err(o) => return o,
        };
        let mut outcome = done(&info, &format!("embedded {}", hybrid.file_name));
        if let Outcome::Ok(report) = &mut outcome {
            report.args.insert("embedded".into(), hybrid.file_name);
            report
                .args
                .insert("format".into(), format.context().name.into());
            // the payload is written from the GOBL document; it differs from the attached CII
            // only when the document changed after cii.generate ran
            report
                .args
                .insert("same_as_cii_file".into(), same_payload.to_string());
        }
        outcome
    }
}

/// The envelope's current file with this key and category.
fn latest<'e>(entry: &'e Entry, key: &str, category: &str) -> Option<&'e FileInfo> {
    entry.attachments.iter().rev().find(|f| {
        f.replaced_by.is_none()
            && f.key.as_deref() == Some(key)
            && f.category.as_deref() == Some(category)
    })
}

fn done(file: &FileInfo, message: &str) -> Outcome {
    Outcome::Ok(Report::attached(
        "embedded",
        format!("{message}: {}", file.name),
        file,
    ))
}
