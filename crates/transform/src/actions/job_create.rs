//! `transform.job.create`: start a job of another workflow on the same envelope.
//!
//! Config: `{"workflow_id", "args"?: {..}}`; the new job gets the current job's args merged
//! with these. Its id is derived from this step's intent id, so a re-run after a crash finds
//! the job it already created instead of starting a second one.

use std::collections::BTreeMap;

use folio_api::FieldError;
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::{Action, Outcome, Report, StepCx, check_config, parse_config};
use crate::TransformError;
use crate::model::NewJob;

#[derive(Debug, Deserialize)]
struct Config {
    workflow_id: Uuid,
    #[serde(default)]
    args: BTreeMap<String, String>,
}

/// `transform.job.create`.
pub struct JobCreate;

#[async_trait::async_trait]
impl Action for JobCreate {
    fn name(&self) -> &'static str {
        "transform.job.create"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check_config::<Config>(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: Config = match parse_config(cx.config) {
            Ok(c) => c,
            Err(e) => return Outcome::Ko(Report::new("config", FieldError::describe(&e))),
        };
        let mut args = cx.args.clone();
        args.extend(config.args);
        let new = NewJob {
            id: Uuid::new_v5(&cx.intent_id, b"transform.job.create"),
            workflow_id: config.workflow_id,
            silo_entry_id: cx.silo_entry_id,
            args,
            ..NewJob::default()
        };
        match cx.transform.create_job(cx.scope(), new).await {
            Ok((job, _)) => {
                let mut r = Report::new("created", "job created");
                r.args.insert("transform_job_id".into(), job.id.to_string());
                Outcome::Ok(r)
            }
            Err(TransformError::Store(e)) => {
                Outcome::Err(Report::new("storage", e.to_string()), None)
            }
            Err(e) => Outcome::Ko(Report::new("refused", e.to_string())),
        }
    }
}
