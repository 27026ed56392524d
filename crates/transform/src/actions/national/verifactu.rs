//! `verifactu.generate`: the envelope's VERI*FACTU issue record (`RegistroAlta` in a
//! `RegFactuSistemaFacturacion`), chained to the issuer's previous record in this workspace
//! (the chain is kept in the database: see `crate::chains`), attached as `verifactu.xml`
//! with its fingerprint and QR URL in the file's meta (which the `pdf` step prints).
//!
//! The invoicing system (`SistemaInformatico`) is folio, produced by the issuer itself
//! unless the step's config names a producer (`producer_name`, `producer_nif`): a company
//! that runs its own folio is its own system's producer. `environment` (`production`, the
//! default, or `sandbox`) picks the AEAT host of the QR URL.

use std::collections::BTreeMap;

use folio_api::FieldError;
use folio_national::verifactu::{self, Environment, Issue, Software};
use serde::Deserialize;
use serde_json::Value;

use super::super::{Action, Outcome, Report, StepCx, check_config};
use super::{Chained, append_and_attach, convert, envelope};
use crate::chains::Written as Record;

const FORMAT: &str = "VERI*FACTU record";
const KEY: &str = "verifactu";

#[derive(Debug, Default, Deserialize)]
struct Config {
    #[serde(default)]
    environment: Option<String>,
    #[serde(default)]
    producer_name: Option<String>,
    #[serde(default)]
    producer_nif: Option<String>,
}

impl Config {
    fn environment(&self) -> Result<Environment, String> {
        match self.environment.as_deref() {
            None | Some("production") => Ok(Environment::Production),
            Some("sandbox") | Some("test") => Ok(Environment::Test),
            Some(other) => Err(format!("environment {other:?}: production or sandbox")),
        }
    }

    /// The invoicing system: folio, produced by the configured producer or the issuer.
    fn options(&self, issue: &Issue, installation: &str) -> Result<verifactu::Options, String> {
        let name = self.producer_name.as_deref().unwrap_or(issue.issuer_name());
        let nif = self.producer_nif.as_deref().unwrap_or(issue.issuer());
        Ok(verifactu::Options {
            software: Software::folio(name, nif, installation),
            representative: None,
            environment: self.environment()?,
        })
    }
}

/// `verifactu.generate`.
pub(super) struct Generate;

#[async_trait::async_trait]
impl Action for Generate {
    fn name(&self) -> &'static str {
        "verifactu.generate"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        let mut errors = check_config::<Config>(config);
        if let Ok(c) = super::super::parse_config::<Config>(config)
            && let Err(e) = c.environment()
        {
            errors.push(FieldError::new("environment", e));
        }
        errors
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: Config = match cx.config() {
            Ok(c) => c,
            Err(o) => return o,
        };
        let (envelope_id, data) = match envelope(cx).await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let issue =
            match convert(move || Issue::from_envelope(&data).map_err(|e| e.to_string())).await {
                Ok(issue) => issue,
                Err(o) => return o,
            };
        let opts = match config.options(&issue, &cx.workspace_id.to_string()) {
            Ok(o) => o,
            Err(e) => return Outcome::Ko(Report::new("config", e)),
        };
        let write = |previous: Option<verifactu::ChainLink>| {
            let r = issue.record(previous.as_ref(), folio_store::now(), &opts)?;
            let mut meta = BTreeMap::from([("huella".to_string(), r.link.huella.clone())]);
            if let Some(url) = r.qr_url {
                meta.insert("qr_url".into(), url);
            }
            Ok::<_, verifactu::Error>(Record {
                link: r.link,
                meta,
                xml: r.xml,
            })
        };
        let chained = Chained {
            format: FORMAT,
            key: KEY,
            name: "verifactu.xml",
            issuer: issue.issuer(),
        };
        append_and_attach(cx, envelope_id, chained, write).await
    }
}
