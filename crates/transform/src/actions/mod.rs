//! Actions: what a step does. One [`Action`] trait, one [`Registry`], one file per action.
//!
//! Adding an action is one file with a type implementing [`Action`] and one line in
//! [`Registry::builtin`]. An action checks its configuration at save time ([`Action::check`])
//! and runs with a [`StepCx`] that says which job, step and attempt it is on, and carries a
//! small JSON `state` kept across attempts and crashes (for idempotency keys, retry counters,
//! wake-up times).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use folio_api::FieldError;
use serde::de::DeserializeOwned;
use serde_json::Value;
use uuid::Uuid;

use crate::Transform;
use crate::config::TransformConfig;

mod category;
mod einvoice;
mod enumerate;
mod hybrid;
mod job_create;
mod national;
mod pdf;
mod received;
mod silo;
mod sleep;
mod webhook;

pub use crate::webhook_schedule::WebhookSchedule;
pub use silo::Change;

/// The result of one run of a step.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Done.
    Ok(Report),
    /// Nothing to do; counts as success.
    Skip(Report),
    /// A recoverable failure: the step is tried again after a delay (the action's hint, if
    /// any, else the retry policy), until the policy gives up and it becomes `KO`.
    Err(Report, Option<Duration>),
    /// Failed for good.
    Ko(Report),
    /// Not done yet: run the step again at this time (the worker is free meanwhile).
    Wait(DateTime<Utc>),
    /// Done once this change to the job's envelope is applied, which the runner does in the
    /// transaction that saves the step; applying it gives the step's outcome.
    Change(Box<Change>),
}

/// Code, message and args of an outcome, recorded in the step's event.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// Machine-readable code.
    pub code: Option<String>,
    /// Human text.
    pub message: Option<String>,
    /// Extra values for the event.
    pub args: BTreeMap<String, String>,
}

impl Report {
    /// A report with a code and message.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Report {
            code: Some(code.into()),
            message: Some(message.into()),
            args: BTreeMap::new(),
        }
    }
}

impl Report {
    /// A report naming the file a step wrote (`file_id`, `file_name`).
    pub fn attached(code: &str, message: String, file: &folio_silo::FileInfo) -> Self {
        let mut report = Report::new(code, message);
        report.args.insert("file_id".into(), file.id.to_string());
        report.args.insert("file_name".into(), file.name.clone());
        report
    }
}

impl Outcome {
    /// `OK` with nothing to add.
    pub fn ok() -> Self {
        Outcome::Ok(Report::default())
    }
}

/// The envelope's current (not replaced) file with this key, the newest if several.
pub(crate) fn current_file<'f>(
    files: &'f [folio_silo::FileInfo],
    key: &str,
) -> Option<&'f folio_silo::FileInfo> {
    files
        .iter()
        .rev()
        .find(|f| f.key.as_deref() == Some(key) && f.replaced_by.is_none())
}

/// A silo refusal or failure as a step's outcome: storage failures are retried, the rest
/// end the step.
pub fn silo_outcome(e: folio_silo::SiloError) -> Outcome {
    use folio_silo::SiloError;
    match e {
        SiloError::Store(e) => Outcome::Err(Report::new("storage", e.to_string()), None),
        SiloError::NotFound(what) => {
            Outcome::Ko(Report::new("not-found", format!("{what} not found")))
        }
        SiloError::Conflict(m) => Outcome::Ko(Report::new("conflict", m)),
        other => Outcome::Ko(Report::new("invalid", other.to_string())),
    }
}

/// What a running step can see and keep.
pub struct StepCx<'a> {
    /// The service handle (store, silo, registry...).
    pub transform: &'a Transform,
    /// Workspace of the job.
    pub workspace_id: Uuid,
    /// The job.
    pub job_id: Uuid,
    /// The job's key.
    pub job_key: Option<String>,
    /// The job's args.
    pub args: BTreeMap<String, String>,
    /// The envelope the job works on.
    pub silo_entry_id: Option<Uuid>,
    /// The step id.
    pub step_id: &'a str,
    /// The step's configuration (`null` when absent).
    pub config: &'a Value,
    /// This step run's intent id: stable across attempts and crashes, so a good idempotency key.
    pub intent_id: Uuid,
    /// 0 on the first attempt.
    pub attempt: u32,
    /// When the first attempt started.
    pub first_run_at: DateTime<Utc>,
    /// Faults recorded on the job so far.
    pub faults: &'a [folio_api::Fault],
    /// State kept across attempts; `null` at first.
    pub state: &'a mut Value,
}

impl StepCx<'_> {
    /// The job's workspace, as the storage layers take it.
    pub fn scope(&self) -> folio_store::Scope {
        folio_store::Scope::new(self.workspace_id)
    }

    /// The envelope id, or a `KO` outcome saying the job has none.
    pub fn envelope(&self) -> Result<Uuid, Outcome> {
        self.silo_entry_id.ok_or_else(|| {
            Outcome::Ko(Report::new(
                "no-envelope",
                "this step needs a job with an envelope (silo_entry_id)",
            ))
        })
    }

    /// The job's envelope as stored, with its data (the GOBL envelope) as JSON.
    pub async fn envelope_entry(&self) -> Result<(folio_silo::Entry, Value), Outcome> {
        let id = self.envelope()?;
        let entry = self
            .transform
            .silo()
            .get(self.scope(), id)
            .await
            .map_err(silo_outcome)?;
        let data = serde_json::from_str(entry.data.as_deref().unwrap_or("null"))
            .map_err(|e| Outcome::Ko(Report::new("invalid", e.to_string())))?;
        Ok((entry, data))
    }

    /// Attaches a file to an envelope (replacing an earlier one of the same key and category).
    pub async fn attach(
        &self,
        envelope_id: Uuid,
        file_id: Uuid,
        file: folio_silo::NewFile,
    ) -> Result<folio_silo::FileInfo, Outcome> {
        self.transform
            .silo()
            .put_file(self.scope(), envelope_id, file_id, file)
            .await
            .map_err(silo_outcome)
    }

    /// The step's configuration, or a `KO` outcome saying what is wrong with it.
    pub fn config<T: DeserializeOwned>(&self) -> Result<T, Outcome> {
        parse_config(self.config)
            .map_err(|e| Outcome::Ko(Report::new("config", FieldError::describe(&e))))
    }
}

/// A kind of step.
#[async_trait::async_trait]
pub trait Action: Send + Sync + 'static {
    /// The name used in workflows (`silo.state`).
    fn name(&self) -> &'static str;

    /// Problems with a configuration, each as (dotted path inside `config`, message); an empty
    /// path means the config as a whole.
    fn check(&self, config: &Value) -> Vec<FieldError>;

    /// Runs the step once.
    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome;

    /// Whether the action only computes its outcome (an [`Outcome::Change`] at most; no I/O,
    /// no wait): its step may then run in the transaction the step before it left open, and
    /// both commit together.
    fn local(&self) -> bool {
        false
    }

    /// The delay before attempt `attempt + 1` after an `ERR`, or `None` to give up (`KO`).
    /// `hint` is the action's own suggestion; `elapsed` runs from the first attempt.
    fn retry_delay(
        &self,
        config: &TransformConfig,
        attempt: u32,
        elapsed: Duration,
        hint: Option<Duration>,
    ) -> Option<Duration> {
        let _ = elapsed;
        config.retry.delay(attempt).map(|d| hint.unwrap_or(d))
    }
}

/// The actions a server knows, by name.
#[derive(Clone, Default)]
pub struct Registry {
    actions: BTreeMap<&'static str, Arc<dyn Action>>,
}

impl crate::workflow::KnownActions for Registry {
    fn check_config(&self, name: &str, config: &Value) -> Option<Vec<FieldError>> {
        self.get(name).map(|action| action.check(config))
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every built-in action, with the default outbound policy.
    pub fn builtin() -> Self {
        Self::builtin_with(&crate::outbound::Policy::default())
    }

    /// Every built-in action; those that make requests check URLs against `outbound`.
    pub fn builtin_with(outbound: &crate::outbound::Policy) -> Self {
        let mut r = Self::new();
        r.add(sleep::Sleep);
        r.add(webhook::WebhookSend::new(outbound.clone()));
        r.add(job_create::JobCreate);
        r.add(silo::SetState);
        r.add(silo::SetFolder);
        r.add(silo::Close);
        r.add(silo::Modify);
        r.add(einvoice::Generate(folio_einvoice::Syntax::Ubl));
        r.add(einvoice::Generate(folio_einvoice::Syntax::Cii));
        r.add(einvoice::Import(einvoice::Carrier::Xml(
            folio_einvoice::Syntax::Ubl,
        )));
        r.add(einvoice::Import(einvoice::Carrier::Xml(
            folio_einvoice::Syntax::Cii,
        )));
        r.add(einvoice::Import(einvoice::Carrier::Pdf));
        r.add(pdf::Pdf);
        r.add(hybrid::Embed);
        r.add(enumerate::Enumerate);
        national::register(&mut r);
        r
    }

    /// Adds (or replaces) an action.
    pub fn add(&mut self, action: impl Action) -> &mut Self {
        self.actions.insert(action.name(), Arc::new(action));
        self
    }

    /// The action of this name.
    pub fn get(&self, name: &str) -> Option<Arc<dyn Action>> {
        self.actions.get(name).cloned()
    }

    /// Names of all actions.
    pub fn names(&self) -> Vec<&'static str> {
        self.actions.keys().copied().collect()
    }
}

/// Parses a config into `T`, serde's complaint as a field error.
pub fn parse_config<T: DeserializeOwned>(config: &Value) -> Result<T, Vec<FieldError>> {
    let value = if config.is_null() {
        Value::Object(Default::default())
    } else {
        config.clone()
    };
    serde_path_to_error::deserialize::<_, T>(value).map_err(|err| vec![folio_api::field_error(err)])
}

/// `check` for actions with a typed config.
pub fn check_config<T: DeserializeOwned>(config: &Value) -> Vec<FieldError> {
    if !(config.is_null() || config.is_object()) {
        return vec![FieldError::new("$", "must be an object")];
    }
    parse_config::<T>(config).err().unwrap_or_default()
}
