//! Creating, fetching, listing and waiting for jobs.

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use folio_store::{Backend, from_millis, millis};
use serde_json::Value;
use sha2::{Digest, Sha256};
use sqlx::Row;
use sqlx::any::AnyRow;
use tokio::sync::broadcast::error::RecvError;
use uuid::Uuid;

use crate::error::{TransformError, TransformResult};
use crate::model::{Intent, Job, NewJob, Page, status};
use crate::workflow::{Phase, canonical};
use crate::{Notice, Transform, rows};

const COLUMNS: &str = "id, created_at, updated_at, completed_at, workflow_id, workflow_version, \
                       silo_entry_id, job_key, args, tags, status, faults, request_hash";

impl Transform {
    /// Creates a job on the workflow's current published version (`created` is false when the
    /// same request was already made with this id). Unknown, draft-only or disabled workflows
    /// are 422; a different request with this id, or a key already used, is 409.
    pub async fn create_job(
        &self,
        workspace_id: Uuid,
        mut new: NewJob,
    ) -> TransformResult<(Job, bool)> {
        let hash = request_hash(&new);
        if let Some(existing) = self.find_job(workspace_id, new.id).await? {
            return same_or_conflict(existing, &hash);
        }
        let wf = match self.workflow(workspace_id, new.workflow_id).await {
            Ok(wf) => wf,
            Err(TransformError::NotFound(_)) => {
                return Err(TransformError::invalid("workflow_id", "no such workflow"));
            }
            Err(e) => return Err(e),
        };
        if wf.disabled {
            return Err(TransformError::invalid(
                "workflow_id",
                "the workflow is disabled",
            ));
        }
        if wf.version == 0 {
            return Err(TransformError::invalid(
                "workflow_id",
                "the workflow is a draft that was never published",
            ));
        }
        if let Some(key) = new.key.as_deref()
            && key.trim().is_empty()
        {
            return Err(TransformError::invalid("key", "must not be empty"));
        }
        // an e-invoice given as text waits in the job for an import step to read it
        let mut input = None;
        match (new.silo_entry_id, new.data.take()) {
            (Some(_), Some(_)) => {
                return Err(TransformError::invalid(
                    "data",
                    "send either data or silo_entry_id, not both",
                ));
            }
            (Some(id), None) => self.check_envelope(workspace_id, id).await?,
            (None, Some(Value::String(xml))) => input = Some(checked_input(xml)?),
            (None, Some(data)) => {
                new.silo_entry_id = Some(self.store_document(workspace_id, data).await?);
            }
            (None, None) => {}
        }
        let def = self.definition(workspace_id, wf.id, wf.version).await?;
        let first = def
            .first(Phase::Main)
            .ok_or_else(|| TransformError::Internal("published workflow without steps".into()))?;
        let now = folio_store::now();
        let insert = "INSERT INTO transform_jobs (workspace_id, id, created_at, updated_at, \
             workflow_id, workflow_version, silo_entry_id, job_key, args, tags, request_hash, status, \
             faults, phase, step_id, intent_id, intent_seq, attempt, ready_at, claims, input) \
             VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11, '[]', 'main', $12, $13, 0, 0, $3, 0, $14) \
             ON CONFLICT DO NOTHING";
        let postgres = self.store().backend() == Backend::Postgres;
        // on PostgreSQL the other nodes' workers hear of the new job in the same statement
        // (`NOTIFY` is sent when it commits, only if a row was inserted); `SELECT n` says n rows
        let sql = if postgres {
            format!("WITH job AS ({insert} RETURNING id) SELECT pg_notify($15, '') FROM job")
        } else {
            insert.to_string()
        };
        let inserted = sqlx::query(&sql)
            .bind(workspace_id.to_string())
            .bind(new.id.to_string())
            .bind(millis(now))
            .bind(wf.id.to_string())
            .bind(wf.version)
            .bind(new.silo_entry_id.map(|id| id.to_string()))
            .bind(new.key.clone())
            .bind(serde_json::to_string(&new.args)?)
            .bind(serde_json::to_string(&new.tags)?)
            .bind(hash.clone())
            .bind(status::QUEUED)
            .bind(first.id.clone())
            .bind(Uuid::now_v7().to_string())
            .bind(input)
            .bind(crate::engine::READY_CHANNEL)
            .execute(self.store().pool())
            .await?;
        if inserted.rows_affected() == 0 {
            return match self.find_job(workspace_id, new.id).await? {
                Some(existing) => same_or_conflict(existing, &hash),
                None => Err(TransformError::Conflict(
                    "the key is already used by another job in this workspace".into(),
                )),
            };
        }
        self.inner.wake.notify_one();
        let job = Job {
            id: new.id,
            created_at: now,
            updated_at: now,
            completed_at: None,
            workflow_id: wf.id,
            workflow_version: wf.version,
            silo_entry_id: new.silo_entry_id,
            key: new.key,
            args: new.args,
            tags: new.tags,
            status: status::QUEUED.into(),
            faults: Vec::new(),
            intents: Vec::new(),
        };
        Ok((job, true))
    }

    /// The e-invoice text the job was given as `data`, if any.
    pub async fn job_input(&self, workspace_id: Uuid, id: Uuid) -> TransformResult<Option<String>> {
        let row =
            sqlx::query("SELECT input FROM transform_jobs WHERE workspace_id = $1 AND id = $2")
                .bind(workspace_id.to_string())
                .bind(id.to_string())
                .fetch_optional(self.store().pool())
                .await?;
        Ok(match row {
            Some(row) => row.try_get("input")?,
            None => None,
        })
    }

    /// Makes `envelope_id` the envelope of a job that had none (a step imported it).
    pub async fn adopt_envelope(
        &self,
        workspace_id: Uuid,
        id: Uuid,
        envelope_id: Uuid,
    ) -> TransformResult<()> {
        sqlx::query(
            "UPDATE transform_jobs SET silo_entry_id = $1 \
             WHERE workspace_id = $2 AND id = $3 AND silo_entry_id IS NULL",
        )
        .bind(envelope_id.to_string())
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .execute(self.store().pool())
        .await?;
        Ok(())
    }

    /// A job with its intents.
    pub async fn job(&self, workspace_id: Uuid, id: Uuid) -> TransformResult<Job> {
        self.find_job(workspace_id, id)
            .await?
            .map(|(job, _)| job)
            .ok_or(TransformError::NotFound("job"))
    }

    /// A job by its key.
    pub async fn job_by_key(&self, workspace_id: Uuid, key: &str) -> TransformResult<Job> {
        let id: Option<String> = sqlx::query_scalar(
            "SELECT id FROM transform_jobs WHERE workspace_id = $1 AND job_key = $2",
        )
        .bind(workspace_id.to_string())
        .bind(key.to_string())
        .fetch_optional(self.store().pool())
        .await?;
        let id = id
            .and_then(|s| Uuid::parse_str(&s).ok())
            .ok_or(TransformError::NotFound("job"))?;
        self.job(workspace_id, id).await
    }

    /// Jobs newest first, created at or before `created_at`, continuing after `cursor` (the
    /// `(created_at, id)` of the last job of the previous page).
    pub async fn list_jobs(
        &self,
        workspace_id: Uuid,
        created_at: Option<DateTime<Utc>>,
        cursor: Option<(DateTime<Utc>, Uuid)>,
        limit: i64,
    ) -> TransformResult<Page<Job>> {
        let before = created_at.map(millis).unwrap_or(i64::MAX);
        let (c_at, c_id) = cursor
            .map(|(t, id)| (millis(t), id.to_string()))
            .unwrap_or((i64::MAX, String::new()));
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM transform_jobs WHERE workspace_id = $1 AND created_at <= $2 \
             AND (created_at < $3 OR (created_at = $3 AND id < $4) OR $4 = '') \
             ORDER BY created_at DESC, id DESC LIMIT $5"
        ))
        .bind(workspace_id.to_string())
        .bind(before)
        .bind(c_at)
        .bind(c_id)
        .bind(limit + 1)
        .fetch_all(self.store().pool())
        .await?;
        let mut jobs = rows
            .iter()
            .map(|r| job_row(r).map(|(j, _)| j))
            .collect::<TransformResult<Vec<_>>>()?;
        let next = if jobs.len() as i64 > limit {
            jobs.truncate(limit as usize);
            jobs.last().map(|j| (j.created_at, j.id))
        } else {
            None
        };
        self.attach_intents(workspace_id, &mut jobs).await?;
        Ok(Page { items: jobs, next })
    }

    /// The job once it has completed, or as it is when `timeout` passes. Wakes on the
    /// completion notice (in-process, or from another node through PostgreSQL), not by polling;
    /// when notices may have been lost (the PostgreSQL listener reconnected, or this waiter fell
    /// behind) it reads the job again.
    pub async fn wait_job(
        &self,
        workspace_id: Uuid,
        id: Uuid,
        timeout: Duration,
    ) -> TransformResult<Job> {
        let mut done = self.inner.done.subscribe();
        // a look at the job's row alone (its intents are read once, at the end)
        if self.completed(workspace_id, id).await? || timeout.is_zero() {
            return self.job(workspace_id, id).await;
        }
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            tokio::select! {
                got = done.recv() => match got {
                    Ok(Notice::Done(done_id)) if done_id == id => break,
                    Ok(Notice::Done(_)) => {}
                    // notices may have been missed: look at the job itself
                    Ok(Notice::Recheck) | Err(RecvError::Lagged(_)) => {
                        if self.completed(workspace_id, id).await? {
                            break;
                        }
                    }
                    Err(RecvError::Closed) => break,
                },
                _ = tokio::time::sleep_until(deadline) => break,
                _ = self.inner.stopping.cancelled() => break,
            }
        }
        self.job(workspace_id, id).await
    }

    /// Whether the job has completed; 404 when there is no such job.
    async fn completed(&self, workspace_id: Uuid, id: Uuid) -> TransformResult<bool> {
        let completed_at: Option<Option<i64>> = sqlx::query_scalar(
            "SELECT completed_at FROM transform_jobs WHERE workspace_id = $1 AND id = $2",
        )
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .fetch_optional(self.store().pool())
        .await?;
        Ok(completed_at
            .ok_or(TransformError::NotFound("job"))?
            .is_some())
    }

    async fn find_job(
        &self,
        workspace_id: Uuid,
        id: Uuid,
    ) -> TransformResult<Option<(Job, String)>> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM transform_jobs WHERE workspace_id = $1 AND id = $2"
        ))
        .bind(workspace_id.to_string())
        .bind(id.to_string())
        .fetch_optional(self.store().pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let (job, hash) = job_row(&row)?;
        let mut jobs = vec![job];
        self.attach_intents(workspace_id, &mut jobs).await?;
        Ok(jobs.pop().map(|j| (j, hash)))
    }

    async fn attach_intents(&self, workspace_id: Uuid, jobs: &mut [Job]) -> TransformResult<()> {
        if jobs.is_empty() {
            return Ok(());
        }
        let marks = (0..jobs.len())
            .map(|i| format!("${}", i + 2))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT job_id, id, created_at, updated_at, step_id, name, provider, completed, events \
             FROM transform_intents WHERE workspace_id = $1 AND job_id IN ({marks}) \
             ORDER BY job_id, seq"
        );
        let mut q = sqlx::query(&sql).bind(workspace_id.to_string());
        for job in jobs.iter() {
            q = q.bind(job.id.to_string());
        }
        let rows = q.fetch_all(self.store().pool()).await?;
        let mut by_job: HashMap<Uuid, Vec<Intent>> = HashMap::new();
        for row in &rows {
            by_job
                .entry(rows::uuid(row, "job_id")?)
                .or_default()
                .push(intent_row(row)?);
        }
        for job in jobs.iter_mut() {
            job.intents = by_job.remove(&job.id).unwrap_or_default();
        }
        Ok(())
    }
}

fn same_or_conflict((job, stored): (Job, String), hash: &str) -> TransformResult<(Job, bool)> {
    if stored == hash {
        Ok((job, false))
    } else {
        Err(TransformError::Conflict(
            "a different job already has this id".into(),
        ))
    }
}

/// Short sha256 of what a job request asks for (everything but the id).
/// An e-invoice given as job `data`: XML text within the converters' size limit.
fn checked_input(xml: String) -> TransformResult<String> {
    if !xml.trim_start().starts_with('<') {
        return Err(TransformError::invalid(
            "data",
            "must be a GOBL document or envelope, or an e-invoice as XML text",
        ));
    }
    if xml.len() > folio_einvoice::MAX_XML_BYTES {
        return Err(TransformError::invalid(
            "data",
            format!("the XML is over {} bytes", folio_einvoice::MAX_XML_BYTES),
        ));
    }
    Ok(xml)
}

fn request_hash(new: &NewJob) -> String {
    let mut value = serde_json::to_value(new).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.remove("id");
    }
    let mut text = String::new();
    canonical(&value, &mut text);
    hex::encode(&Sha256::digest(text.as_bytes())[..16])
}

fn job_row(row: &AnyRow) -> TransformResult<(Job, String)> {
    let completed_at: Option<i64> = row.try_get("completed_at")?;
    Ok((
        Job {
            id: rows::uuid(row, "id")?,
            created_at: from_millis(row.try_get("created_at")?),
            updated_at: from_millis(row.try_get("updated_at")?),
            completed_at: completed_at.map(from_millis),
            workflow_id: rows::uuid(row, "workflow_id")?,
            workflow_version: row.try_get("workflow_version")?,
            silo_entry_id: rows::uuid_opt(row, "silo_entry_id")?,
            key: row.try_get("job_key")?,
            args: rows::json(row, "args")?,
            tags: rows::json(row, "tags")?,
            status: row.try_get("status")?,
            faults: rows::json(row, "faults")?,
            intents: Vec::new(),
        },
        row.try_get("request_hash")?,
    ))
}

pub(crate) fn intent_row(row: &AnyRow) -> TransformResult<Intent> {
    Ok(Intent {
        id: rows::uuid(row, "id")?,
        created_at: from_millis(row.try_get("created_at")?),
        updated_at: from_millis(row.try_get("updated_at")?),
        step_id: row.try_get("step_id")?,
        name: row.try_get("name")?,
        provider: row.try_get("provider")?,
        completed: row.try_get::<i64, _>("completed")? != 0,
        events: rows::json(row, "events")?,
    })
}
