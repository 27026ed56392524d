//! `verifactu.generate`: the envelope's VERI*FACTU issue record (`RegistroAlta` in a
//! `RegFactuSistemaFacturacion`), chained to the issuer's previous record in this workspace
//! (the chain is kept in the database: see `crate::chains`), attached as `verifactu.xml`
//! with its fingerprint and QR URL in the file's meta (which the `pdf` step prints).
//!
//! `verifactu.cancel`: the record that cancels the envelope's invoice (`RegistroAnulacion`),
//! in the same chain, attached as `verifactu-cancel.xml`. Invopop's step also sends it to
//! AEAT, which folio does not reach: having written and attached the record, the step ends
//! `KO` saying so, as `verifactu.send` does. It needs the envelope's issue record (an
//! invoice AEAT never received cannot be cancelled there) and cancels an invoice once.
//!
//! The invoicing system (`SistemaInformatico`) is folio, produced by the issuer itself
//! unless the step's config names a producer (`producer_name`, `producer_nif`): a company
//! that runs its own folio is its own system's producer. `environment` (`production`, the
//! default, or `sandbox`) picks the AEAT host of the QR URL.

use std::collections::BTreeMap;

use folio_api::FieldError;
use folio_national::verifactu::{self, Environment, Issue, Software};
use folio_silo::FileInfo;
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::super::{Action, Outcome, Report, StepCx, check_config};
use super::authority::needs_service;
use super::{Chained, append_and_attach, convert};
use crate::chains::Written as Record;

const FORMAT: &str = "VERI*FACTU record";
const KEY: &str = "verifactu";
const CANCEL_KEY: &str = "verifactu-cancel";
const SERVICE: &str = "AEAT's VERI*FACTU service";

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

/// Which record a step writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Issue,
    Cancellation,
}

/// `verifactu.generate`.
pub(super) struct Generate;

/// `verifactu.cancel`.
pub(super) struct Cancel;

fn check(config: &Value) -> Vec<FieldError> {
    let mut errors = check_config::<Config>(config);
    if let Ok(c) = super::super::parse_config::<Config>(config)
        && let Err(e) = c.environment()
    {
        errors.push(FieldError::new("environment", e));
    }
    errors
}

#[async_trait::async_trait]
impl Action for Generate {
    fn name(&self) -> &'static str {
        "verifactu.generate"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let (entry, data) = match cx.envelope_entry().await {
            Ok(found) => found,
            Err(o) => return o,
        };
        write(cx, entry.id, data, Kind::Issue).await
    }
}

#[async_trait::async_trait]
impl Action for Cancel {
    fn name(&self) -> &'static str {
        "verifactu.cancel"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let (entry, data) = match cx.envelope_entry().await {
            Ok(found) => found,
            Err(o) => return o,
        };
        if let Some(refused) = cancellable(cx, &entry.attachments) {
            return refused;
        }
        match write(cx, entry.id, data, Kind::Cancellation).await {
            Outcome::Ok(written) => {
                let done = format!("{}; ", written.message.unwrap_or_default());
                let mut report = needs_service("verifactu.cancel", SERVICE, &done);
                report.args = written.args;
                Outcome::Ko(report)
            }
            other => other,
        }
    }
}

/// Why the envelope's invoice cannot be cancelled: it has no issue record, or another run
/// cancelled it already (this run's own earlier attempt is not a refusal).
fn cancellable(cx: &StepCx<'_>, files: &[FileInfo]) -> Option<Outcome> {
    let current = |key: &str| super::super::current_file(files, key);
    if current(KEY).is_none() {
        return Some(Outcome::Ko(Report::new(
            "not-recorded",
            "the envelope has no VERI*FACTU issue record (verifactu.xml) to cancel: \
             run verifactu.generate on it first",
        )));
    }
    let ours = Uuid::new_v5(&cx.intent_id, CANCEL_KEY.as_bytes());
    match current(CANCEL_KEY) {
        Some(f) if f.id != ours => Some(Outcome::Ko(Report::new(
            "cancelled",
            format!("the invoice is cancelled already ({})", f.name),
        ))),
        _ => None,
    }
}

/// Writes the envelope's record of `kind`, chained to the issuer's last one, and attaches it.
async fn write(cx: &StepCx<'_>, envelope_id: Uuid, data: Value, kind: Kind) -> Outcome {
    let config: Config = match cx.config() {
        Ok(c) => c,
        Err(o) => return o,
    };
    let issue = match convert(move || Issue::from_envelope(&data).map_err(|e| e.to_string())).await
    {
        Ok(issue) => issue,
        Err(o) => return o,
    };
    let opts = match config.options(&issue, &cx.workspace_id.to_string()) {
        Ok(o) => o,
        Err(e) => return Outcome::Ko(Report::new("config", e)),
    };
    let make = |previous: Option<verifactu::ChainLink>| {
        let now = folio_store::now();
        let r = match kind {
            Kind::Issue => issue.record(previous.as_ref(), now, &opts)?,
            Kind::Cancellation => issue.cancellation(previous.as_ref(), now, &opts)?,
        };
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
    let (key, name) = match kind {
        Kind::Issue => (KEY, "verifactu.xml"),
        Kind::Cancellation => (CANCEL_KEY, "verifactu-cancel.xml"),
    };
    let chained = Chained {
        format: FORMAT,
        chain: KEY,
        key,
        name,
        issuer: issue.issuer(),
    };
    append_and_attach(cx, envelope_id, chained, make).await
}
