//! Domain types of workflows and jobs (version-independent; `v1` converts them to wire DTOs).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use folio_api::Fault;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use crate::workflow::Definition;

/// A stored workflow: its current definition and publication state.
#[derive(Debug, Clone, PartialEq)]
pub struct Workflow {
    /// Id.
    pub id: Uuid,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last saved.
    pub updated_at: DateTime<Utc>,
    /// The current definition (the draft when `draft`).
    pub definition: Definition,
    /// Hash of `definition`.
    pub hash: String,
    /// The current definition is an unpublished draft.
    pub draft: bool,
    /// New jobs are refused.
    pub disabled: bool,
    /// Latest published version (0: never published).
    pub version: i64,
}

/// A published version of a workflow.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkflowVersion {
    /// Version number.
    pub version: i64,
    /// Hash of its definition.
    pub hash: String,
    /// Name at publication.
    pub name: String,
    /// Published.
    pub created_at: DateTime<Utc>,
}

/// Saving a workflow (create or update).
#[derive(Debug, Clone)]
pub struct SaveWorkflow {
    /// The definition.
    pub definition: Definition,
    /// Save without publishing.
    pub draft: bool,
    /// Refuse new jobs.
    pub disabled: bool,
}

/// Which workflows to list.
#[derive(Debug, Clone, Default)]
pub struct WorkflowQuery {
    /// Only those created at or before this time (the `created_at` style).
    pub created_at: Option<DateTime<Utc>>,
    /// Only those after this place (the cursor style).
    pub cursor: Option<folio_api::page::Position>,
    /// Only those for this document type.
    pub schema: Option<String>,
    /// Page size (already capped by the caller).
    pub limit: i64,
}

/// A job status: `QUEUED`, `RUN`, `OK`, `KO`.
pub mod status {
    /// Waiting for a worker.
    pub const QUEUED: &str = "QUEUED";
    /// Running (or waiting between attempts).
    pub const RUN: &str = "RUN";
    /// Succeeded.
    pub const OK: &str = "OK";
    /// Skipped (a step outcome).
    pub const SKIP: &str = "SKIP";
    /// Recoverable failure (a step outcome, retried).
    pub const ERR: &str = "ERR";
    /// Failed.
    pub const KO: &str = "KO";
}

/// A job with its intents.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Id.
    pub id: Uuid,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
    /// Finished (OK or KO).
    pub completed_at: Option<DateTime<Utc>>,
    /// The workflow.
    pub workflow_id: Uuid,
    /// The pinned published version.
    pub workflow_version: i64,
    /// The envelope.
    pub silo_entry_id: Option<Uuid>,
    /// Client key, unique per workspace.
    pub key: Option<String>,
    /// Arguments.
    pub args: BTreeMap<String, String>,
    /// Tags.
    pub tags: Vec<String>,
    /// `QUEUED`, `RUN`, `OK`, `KO`.
    pub status: String,
    /// Faults from failed steps.
    pub faults: Vec<Fault>,
    /// One per step run, in order.
    pub intents: Vec<Intent>,
}

/// One run of one step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Intent {
    /// Id (stable across retries of the step).
    pub id: Uuid,
    /// First attempt.
    pub created_at: DateTime<Utc>,
    /// Last event.
    pub updated_at: DateTime<Utc>,
    /// The step.
    pub step_id: String,
    /// The step's name (its action when unnamed).
    pub name: String,
    /// The action.
    pub provider: String,
    /// Reached `OK`, `SKIP` or `KO`.
    pub completed: bool,
    /// What happened, in order.
    pub events: Vec<Event>,
}

/// Something that happened to an intent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Position in the intent, from 0.
    pub index: i64,
    /// `RUN`, `OK`, `SKIP`, `ERR`, `KO`.
    pub status: String,
    /// When.
    pub at: DateTime<Utc>,
    /// Code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Extra values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub args: BTreeMap<String, String>,
    /// The envelope concerned, when the step produced or changed one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub silo_entry_id: Option<Uuid>,
}

/// A request to create a job.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct NewJob {
    /// Id (client- or server-chosen).
    pub id: Uuid,
    /// The workflow.
    pub workflow_id: Uuid,
    /// The envelope to work on.
    pub silo_entry_id: Option<Uuid>,
    /// A document or envelope to store in the silo first (instead of `silo_entry_id`).
    pub data: Option<Value>,
    /// Arguments.
    pub args: BTreeMap<String, String>,
    /// Client key.
    pub key: Option<String>,
    /// Tags.
    pub tags: Vec<String>,
}

/// A workspace's signing secrets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookSecret {
    /// The current secret, `whsec_<base64>`.
    pub secret: String,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// The previous secret and until when it still signs, after a rotation.
    pub previous: Option<(String, DateTime<Utc>)>,
}
