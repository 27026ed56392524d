//! `gov-pl.generate`: the envelope as KSeF FA(3), attached (nothing is sent to KSeF).
//! `gov-pl.import`: a received FA(3) file read into a new envelope.

use folio_api::FieldError;
use folio_national::ksef;
use serde_json::Value;

use super::super::einvoice::is_xml;
use super::super::received::{self, Source, Wanted};
use super::super::{Action, Outcome, Report, StepCx, check_config};
use super::{FileConfig, Written, convert, generate, unreadable};

const FORMAT: &str = "KSeF FA(3)";
const KEY: &str = "ksef";

/// `gov-pl.generate`.
pub(super) struct Generate;

#[async_trait::async_trait]
impl Action for Generate {
    fn name(&self) -> &'static str {
        "gov-pl.generate"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check_config::<FileConfig>(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        generate(cx, |data| {
            let xml =
                ksef::from_envelope(&data, &ksef::Options::default()).map_err(|e| e.to_string())?;
            Ok(Written {
                format: FORMAT,
                key: KEY,
                name: "ksef-fa3.xml".into(),
                xml,
                meta: None,
            })
        })
        .await
    }
}

/// `gov-pl.import`.
pub(super) struct Import;

#[async_trait::async_trait]
impl Action for Import {
    fn name(&self) -> &'static str {
        "gov-pl.import"
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
            reads: is_xml,
            what: "FA(3) XML file",
        };
        let (name, bytes) = match received::source(cx, &wanted).await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let Ok(text) = String::from_utf8(bytes.clone()) else {
            return Outcome::Ko(Report::new("import", format!("{name}: not UTF-8 text")));
        };
        let doc = match convert(move || ksef::read(&text).map_err(|e| e.to_string())).await {
            Ok(doc) => doc,
            Err(o) => return unreadable(&name, o),
        };
        let source = Source {
            name: name.clone(),
            bytes,
            mime: "application/xml",
            key: KEY,
        };
        let entry = match received::store(cx, 0, doc.to_string(), &source).await {
            Ok(entry) => entry,
            Err(o) => return o,
        };
        let mut report = Report::new(
            "imported",
            format!("{name} imported as envelope {}", entry.id),
        );
        report
            .args
            .insert("silo_entry_id".into(), entry.id.to_string());
        report.args.insert("file_name".into(), name);
        Outcome::Ok(report)
    }
}
