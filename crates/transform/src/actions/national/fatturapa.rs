//! `sdi-it.generate`: the envelope as FatturaPA 1.2.2, attached under the name SDI expects
//! (`IT01234567890_abcde.xml`); nothing is sent. `sdi-it.import`: a received FatturaPA file
//! (plain XML or signed `.xml.p7m`) read into one new envelope per invoice it holds; a
//! `.p7m` whose signature does not verify ends the step `KO`, since its content cannot be
//! trusted to be what the supplier sent.

use folio_api::FieldError;
use folio_national::fatturapa::{self, p7m::SignatureStatus};
use folio_silo::FileInfo;
use serde_json::Value;

use super::super::received::{self, Source, Wanted};
use super::super::{Action, Outcome, Report, StepCx, check_config};
use super::{FileConfig, Written, convert, generate, unreadable};

const FORMAT: &str = "FatturaPA 1.2.2";
const KEY: &str = "fatturapa";

/// `sdi-it.generate`.
pub(super) struct Generate;

#[async_trait::async_trait]
impl Action for Generate {
    fn name(&self) -> &'static str {
        "sdi-it.generate"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check_config::<FileConfig>(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        generate(cx, |data| {
            let opts = fatturapa::Options::default();
            let xml = fatturapa::from_envelope(&data, &opts).map_err(|e| e.to_string())?;
            let name = fatturapa::file_name(&data, &opts).map_err(|e| e.to_string())?;
            Ok(Written {
                format: FORMAT,
                key: KEY,
                name,
                xml,
                meta: None,
            })
        })
        .await
    }
}

/// `sdi-it.import`.
pub(super) struct Import;

/// Whether an attachment may be a FatturaPA file (XML, or a `.p7m` around it).
fn reads(file: &FileInfo) -> bool {
    let name = file.name.to_ascii_lowercase();
    super::super::einvoice::is_xml(file) || name.ends_with(".p7m") || file.mime.contains("pkcs7")
}

#[async_trait::async_trait]
impl Action for Import {
    fn name(&self) -> &'static str {
        "sdi-it.import"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check_config::<FileConfig>(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: FileConfig = match cx.config() {
            Ok(c) => c,
            Err(o) => return o,
        };
        let wanted = Wanted {
            name: config.file.as_deref(),
            reads,
            what: "FatturaPA file",
        };
        let (name, bytes) = match received::source(cx, &wanted).await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let input = bytes.clone();
        let read = convert(move || fatturapa::receive(&input).map_err(|e| e.to_string())).await;
        let got = match read {
            Ok(got) => got,
            Err(o) => return unreadable(&name, o),
        };
        if let Some(broken) = broken_signature(got.signers.as_deref()) {
            return Outcome::Ko(Report::new(
                "signature",
                format!("{name}: the .p7m signature does not verify: {broken}"),
            ));
        }
        let signed = got.signers.is_some();
        let source = Source {
            name: name.clone(),
            bytes,
            mime: if signed {
                "application/pkcs7-mime"
            } else {
                "application/xml"
            },
            key: KEY,
        };
        let mut ids = Vec::new();
        for (n, invoice) in got.invoices.iter().enumerate() {
            let doc = invoice.envelope["doc"].to_string();
            match received::store(cx, n, doc, &source).await {
                Ok(entry) => ids.push(entry.id.to_string()),
                Err(o) => return o,
            }
        }
        let mut report = Report::new(
            "imported",
            format!("{name} imported as envelope {}", ids.join(", ")),
        );
        if let Some(first) = ids.first() {
            report.args.insert("silo_entry_id".into(), first.clone());
        }
        report.args.insert("file_name".into(), name);
        report.args.insert("invoices".into(), ids.len().to_string());
        if signed {
            report.args.insert("signature".into(), "intact".into());
        }
        Outcome::Ok(report)
    }
}

/// Why a `.p7m`'s signature cannot be trusted, if it cannot.
fn broken_signature(signers: Option<&[fatturapa::p7m::Signer]>) -> Option<String> {
    let signers = signers?;
    if signers.is_empty() {
        return Some("the file has no signer".into());
    }
    signers.iter().find_map(|s| match &s.status {
        SignatureStatus::Intact => None,
        SignatureStatus::Broken(why) | SignatureStatus::Unverifiable(why) => Some(why.clone()),
    })
}
