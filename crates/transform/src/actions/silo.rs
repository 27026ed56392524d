//! The actions that change the job's envelope in the silo: `silo.state`, `silo.folder`,
//! `silo.close` (sign with the workspace key) and `silo.modify` (RFC 7396 merge patch).
//!
//! `silo.state` and `silo.folder` do not write themselves: they hand a [`Change`] to the runner,
//! which applies it in the transaction that saves the step, so the change and the job's move
//! past the step commit together or not at all (and share one commit). They are local actions
//! (no I/O): a run of them, one after another, shares one transaction.
//!
//! All four are idempotent, so a step re-run after a crash does not apply its effect twice:
//! `silo.state` records the intent id as the state's `src_id` and skips a state it already
//! added; a folder set twice is the same folder; signing a signed envelope changes nothing;
//! a merge patch applied twice gives the same document.

use std::collections::BTreeMap;

use folio_api::FieldError;
use folio_silo::{NewState, Silo};
use folio_store::{Scope, WriteTx};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use folio_silo::STATES;

use super::{Action, Outcome, Report, StepCx, check_config, parse_config, silo_outcome};

/// The `src` of states set by workflows.
const SRC: &str = "transform";

fn done(entry_id: Uuid, code: &str, message: String) -> Outcome {
    let mut report = Report::new(code, message);
    report
        .args
        .insert("silo_entry_id".into(), entry_id.to_string());
    Outcome::Ok(report)
}

#[derive(Debug, Deserialize)]
struct StateConfig {
    state: String,
    #[serde(default)]
    notes: Option<String>,
    #[serde(default)]
    meta: Option<BTreeMap<String, String>>,
}

/// `silo.state`: `{"state", "notes"?, "meta"?}`.
pub struct SetState;

#[async_trait::async_trait]
impl Action for SetState {
    fn name(&self) -> &'static str {
        "silo.state"
    }

    fn local(&self) -> bool {
        true
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        let mut errors = check_config::<StateConfig>(config);
        if let Ok(c) = parse_config::<StateConfig>(config)
            && !STATES.contains(&c.state.as_str())
        {
            errors.push(FieldError::new(
                "state",
                format!("must be one of {}", STATES.join(", ")),
            ));
        }
        errors
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: StateConfig = match parse_config(cx.config) {
            Ok(c) => c,
            Err(e) => return Outcome::Ko(Report::new("config", FieldError::describe(&e))),
        };
        let id = match cx.envelope() {
            Ok(id) => id,
            Err(o) => return o,
        };
        let state = NewState {
            key: config.state,
            notes: config.notes,
            meta: config.meta,
            src: Some(SRC.into()),
            src_id: Some(cx.intent_id.to_string()),
        };
        Outcome::Change(Box::new(Change::State {
            envelope: id,
            state,
        }))
    }
}

#[derive(Debug, Deserialize)]
struct FolderConfig {
    folder: String,
}

/// `silo.folder`: `{"folder"}` (empty: no folder).
pub struct SetFolder;

#[async_trait::async_trait]
impl Action for SetFolder {
    fn name(&self) -> &'static str {
        "silo.folder"
    }

    fn local(&self) -> bool {
        true
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check_config::<FolderConfig>(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: FolderConfig = match parse_config(cx.config) {
            Ok(c) => c,
            Err(e) => return Outcome::Ko(Report::new("config", FieldError::describe(&e))),
        };
        let id = match cx.envelope() {
            Ok(id) => id,
            Err(o) => return o,
        };
        Outcome::Change(Box::new(Change::Folder {
            envelope: id,
            folder: config.folder,
        }))
    }
}

/// A change to the job's envelope that a step hands to the runner (see the module's notes).
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// `silo.state`: the state to set, once per `src_id` (the intent id).
    State {
        /// The job's envelope.
        envelope: Uuid,
        /// The state, its `src_id` the intent id.
        state: NewState,
    },
    /// `silo.folder`: the folder to move to.
    Folder {
        /// The job's envelope.
        envelope: Uuid,
        /// The folder; empty for none.
        folder: String,
    },
}

impl Change {
    /// Applies the change in `tx`, the step's write transaction; the step's outcome.
    pub(crate) async fn apply(self, silo: &Silo, scope: Scope, tx: &mut WriteTx) -> Outcome {
        match self {
            Change::State { envelope, state } => {
                let key = state.key.clone();
                // a re-run finds the state it already added (same intent id as src_id)
                match silo.set_state_once(tx, scope, envelope, state).await {
                    Ok(Some(_)) => done(envelope, "state", format!("state set to {key}")),
                    Ok(None) => done(envelope, "already-set", format!("state {key} already set")),
                    Err(e) => silo_outcome(e),
                }
            }
            Change::Folder { envelope, folder } => {
                let to = Some(folder.clone()).filter(|f| !f.is_empty());
                match silo.move_to_folder(tx, scope, envelope, to).await {
                    Ok(()) => done(envelope, "folder", format!("moved to folder {folder:?}")),
                    Err(e) => silo_outcome(e),
                }
            }
        }
    }
}

/// `silo.close`: signs the envelope with the workspace key (no config).
pub struct Close;

#[async_trait::async_trait]
impl Action for Close {
    fn name(&self) -> &'static str {
        "silo.close"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        if config.is_null() || config.is_object() {
            Vec::new()
        } else {
            vec![FieldError::new("$", "must be an object")]
        }
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let id = match cx.envelope() {
            Ok(id) => id,
            Err(o) => return o,
        };
        match cx.transform.silo().sign(cx.scope(), id).await {
            Ok(entry) => {
                let mut o = done(id, "signed", "envelope signed".into());
                if let Outcome::Ok(r) = &mut o {
                    r.args.insert("version".into(), entry.version);
                }
                o
            }
            Err(e) => silo_outcome(e),
        }
    }
}

#[derive(Debug, Deserialize)]
struct ModifyConfig {
    patch: Value,
}

/// `silo.modify`: `{"patch": <RFC 7396 merge patch of the document>}`; refused (`KO`) on a
/// signed envelope.
pub struct Modify;

#[async_trait::async_trait]
impl Action for Modify {
    fn name(&self) -> &'static str {
        "silo.modify"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        let mut errors = check_config::<ModifyConfig>(config);
        if let Ok(c) = parse_config::<ModifyConfig>(config)
            && !c.patch.is_object()
        {
            errors.push(FieldError::new(
                "patch",
                "must be an object (a merge patch)",
            ));
        }
        errors
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: ModifyConfig = match parse_config(cx.config) {
            Ok(c) => c,
            Err(e) => return Outcome::Ko(Report::new("config", FieldError::describe(&e))),
        };
        let id = match cx.envelope() {
            Ok(id) => id,
            Err(o) => return o,
        };
        match cx
            .transform
            .silo()
            .modify(cx.scope(), id, &config.patch)
            .await
        {
            Ok(entry) => {
                let mut o = done(id, "modified", "document modified".into());
                if let Outcome::Ok(r) = &mut o {
                    r.args.insert("version".into(), entry.version);
                    r.args.insert("digest".into(), entry.digest);
                }
                o
            }
            Err(e) => silo_outcome(e),
        }
    }
}
