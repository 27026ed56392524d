//! Creating, fetching, listing and waiting for jobs.

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use folio_api::page::{Page, Position};
use folio_store::Scope;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio::sync::broadcast::error::RecvError;
use uuid::Uuid;

use crate::db::jobs::Check;
use crate::error::{TransformError, TransformResult};
use crate::model::{Intent, Job, NewJob, Workflow, status};
use crate::workflow::{Phase, canonical};
use crate::{Notice, Transform, db};

impl Transform {
    /// Creates a job on the workflow's current published version (`created` is false when the
    /// same request was already made with this id). Unknown, draft-only or disabled workflows
    /// are 422; a different request with this id, or a key already used, is 409.
    pub async fn create_job(&self, scope: Scope, mut new: NewJob) -> TransformResult<(Job, bool)> {
        let hash = request_hash(&new);
        // A repeat is answered with the stored job. One with `data` is looked for first, so it
        // does not store its document again; any other is found when its insert meets the id,
        // or when it is refused (its workflow may have been disabled since).
        if new.data.is_some()
            && let Some(existing) = self.find_job(scope, new.id).await?
        {
            return same_or_conflict(existing, &hash);
        }
        if let Some(job) = self.create_on_seen_version(scope, &new, &hash).await? {
            return Ok((job, true));
        }
        let (job, start) = match self.new_job(scope, &mut new, &hash).await {
            Ok(made) => made,
            Err(refused) => return self.repeat_or(scope, new.id, &hash, refused).await,
        };
        if !self.enqueue(scope, &job, start, Check::Read).await? {
            let taken = TransformError::Conflict(
                "the key is already used by another job in this workspace".into(),
            );
            return self.repeat_or(scope, job.id, &hash, taken).await;
        }
        Ok((job, true))
    }

    /// The stored job `id` when the request repeats the one that made it (else a conflict), or
    /// `error` when there is no such job.
    async fn repeat_or(
        &self,
        scope: Scope,
        id: Uuid,
        hash: &str,
        error: TransformError,
    ) -> TransformResult<(Job, bool)> {
        match self.find_job(scope, id).await? {
            Some(existing) => same_or_conflict(existing, hash),
            None => Err(error),
        }
    }

    /// Inserts a new job; once it is in, hands it to the worker it was claimed for, or tells
    /// the workers here and on other nodes that it is ready. False when not inserted.
    async fn enqueue(
        &self,
        scope: Scope,
        job: &Job,
        start: db::jobs::Start<'_>,
        check: Check,
    ) -> TransformResult<bool> {
        let handed = start
            .claim
            .map(|claim| (claim, start.step_id.clone(), start.intent_id));
        if !db::jobs::insert(self.store(), scope, job, start, check).await? {
            return Ok(false);
        }
        match handed {
            Some((claim, step_id, intent_id)) => {
                self.hand_over(scope, job, step_id, intent_id, claim)
            }
            None => {
                self.inner.wake.ring();
                self.inner.notices.ready();
            }
        }
        Ok(true)
    }

    /// The job made in one statement, when this node has seen its workflow runnable before:
    /// the insert itself checks that the version seen is still current and enabled and that
    /// the silo holds the job's envelope. `None` when that does not hold, the id or key is
    /// taken, or the request carries a document: the full path (reads, then the insert)
    /// answers then, with the reason of a refusal.
    async fn create_on_seen_version(
        &self,
        scope: Scope,
        new: &NewJob,
        request_hash: &str,
    ) -> TransformResult<Option<Job>> {
        let key_empty = new.key.as_deref().is_some_and(|k| k.trim().is_empty());
        if new.data.is_some() || key_empty {
            return Ok(None);
        }
        let Some(version) = self.seen_version(scope, new.workflow_id) else {
            return Ok(None);
        };
        let def = self.definition(scope, new.workflow_id, version).await?;
        let Some(first) = def.first(Phase::Main) else {
            return Ok(None);
        };
        let (job, start) = self.queued(new, version, first.id.clone(), None, request_hash);
        let made = self.enqueue(scope, &job, start, Check::Runnable).await?;
        Ok(made.then_some(job))
    }

    /// The job a create request makes and where it starts, once its workflow, key and document
    /// are found fit.
    async fn new_job<'h>(
        &self,
        scope: Scope,
        new: &mut NewJob,
        request_hash: &'h str,
    ) -> TransformResult<(Job, db::jobs::Start<'h>)> {
        // the workflow and the envelope the job names are read at the same time (their
        // refusals still come in this order)
        let named = async {
            match (new.silo_entry_id, &new.data) {
                (Some(id), None) => self.check_envelope(scope, id).await,
                _ => Ok(()),
            }
        };
        let (wf, named) = tokio::join!(self.runnable_workflow(scope, new.workflow_id), named);
        let wf = wf?;
        if let Some(key) = new.key.as_deref()
            && key.trim().is_empty()
        {
            return Err(TransformError::invalid("key", "must not be empty"));
        }
        named?;
        let input = self.take_document(scope, new).await?;
        let def = self.definition(scope, wf.id, wf.version).await?;
        let first = def
            .first(Phase::Main)
            .ok_or_else(|| TransformError::Internal("published workflow without steps".into()))?;
        self.saw_version(scope, wf.id, wf.version);
        Ok(self.queued(new, wf.version, first.id.clone(), input, request_hash))
    }

    /// A new job on `version` of the request's workflow, queued at its first step `step_id`,
    /// claimed when a worker here waits for it.
    fn queued<'h>(
        &self,
        new: &NewJob,
        version: i64,
        step_id: String,
        input: Option<String>,
        request_hash: &'h str,
    ) -> (Job, db::jobs::Start<'h>) {
        let now = folio_store::now();
        let job = Job {
            id: new.id,
            created_at: now,
            updated_at: now,
            completed_at: None,
            workflow_id: new.workflow_id,
            workflow_version: version,
            silo_entry_id: new.silo_entry_id,
            key: new.key.clone(),
            args: new.args.clone(),
            tags: new.tags.clone(),
            status: status::QUEUED.into(),
            faults: Vec::new(),
            intents: Vec::new(),
        };
        let start = db::jobs::Start {
            request_hash,
            step_id,
            intent_id: Uuid::now_v7(),
            input,
            claim: self.handoff_claim(),
        };
        (job, start)
    }

    /// The workflow a new job names: it exists, is enabled and has a published version.
    async fn runnable_workflow(&self, scope: Scope, id: Uuid) -> TransformResult<Workflow> {
        let wf = match self.workflow(scope, id).await {
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
        Ok(wf)
    }

    /// The job's document: an envelope of the silo it names (found already, see `new_job`), a
    /// GOBL document it sends (stored now, the job then names it), or an e-invoice as text,
    /// returned to wait in the job for an import step to read it.
    async fn take_document(
        &self,
        scope: Scope,
        new: &mut NewJob,
    ) -> TransformResult<Option<String>> {
        match (new.silo_entry_id, new.data.take()) {
            (Some(_), Some(_)) => Err(TransformError::invalid(
                "data",
                "send either data or silo_entry_id, not both",
            )),
            (Some(_), None) => Ok(None),
            (None, Some(Value::String(xml))) => checked_input(xml).map(Some),
            (None, Some(data)) => {
                new.silo_entry_id = Some(self.store_document(scope, data).await?);
                Ok(None)
            }
            (None, None) => Ok(None),
        }
    }

    /// The e-invoice text the job was given as `data`, if any.
    pub async fn job_input(&self, scope: Scope, id: Uuid) -> TransformResult<Option<String>> {
        db::jobs::input(self.store(), scope, id).await
    }

    /// A job with its intents.
    pub async fn job(&self, scope: Scope, id: Uuid) -> TransformResult<Job> {
        self.find_job(scope, id)
            .await?
            .map(|(job, _)| job)
            .ok_or(TransformError::NotFound("job"))
    }

    /// A job by its key.
    pub async fn job_by_key(&self, scope: Scope, key: &str) -> TransformResult<Job> {
        let id = db::jobs::id_by_key(self.store(), scope, key)
            .await?
            .ok_or(TransformError::NotFound("job"))?;
        self.job(scope, id).await
    }

    /// The newest `limit` jobs that ran on the envelope `envelope`, newest first, without
    /// their intents.
    pub async fn jobs_of_envelope(
        &self,
        scope: Scope,
        envelope: Uuid,
        limit: i64,
    ) -> TransformResult<Vec<Job>> {
        db::jobs::of_envelope(self.store(), scope, envelope, limit.max(1)).await
    }

    /// Jobs newest first, created at or before `created_at`, continuing after `cursor` (the
    /// `(created_at, id)` of the last job of the previous page).
    pub async fn list_jobs(
        &self,
        scope: Scope,
        created_at: Option<DateTime<Utc>>,
        cursor: Option<Position>,
        limit: i64,
    ) -> TransformResult<Page<Job>> {
        // one more than the page tells whether there is a next page
        let after = cursor.map(|p| (folio_store::millis(p.created_at), p.id));
        let jobs = db::jobs::list(self.store(), scope, created_at, after, limit + 1).await?;
        let mut page = Page::cut(jobs, limit, |j| Position {
            created_at: j.created_at,
            id: j.id,
        });
        self.attach_intents(scope, &mut page.items).await?;
        Ok(page)
    }

    /// The job once it has completed, or as it is when `timeout` passes. Wakes on the
    /// completion notice (in-process, or from another node through PostgreSQL), not by polling;
    /// when notices may have been lost (the PostgreSQL listener reconnected, or this waiter fell
    /// behind) it reads the job again.
    pub async fn wait_job(
        &self,
        scope: Scope,
        id: Uuid,
        timeout: Duration,
    ) -> TransformResult<Job> {
        let mut done = self.inner.done.subscribe();
        let job = self.job(scope, id).await?;
        if job.completed_at.is_some() || timeout.is_zero() {
            return Ok(job);
        }
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            tokio::select! {
                got = done.recv() => match got {
                    Ok(Notice::Done(done_id)) if done_id == id => break,
                    Ok(Notice::Done(_)) => {}
                    // notices may have been missed: look at the job itself
                    Ok(Notice::Recheck) | Err(RecvError::Lagged(_)) => {
                        if self.completed(scope, id).await? {
                            break;
                        }
                    }
                    Err(RecvError::Closed) => break,
                },
                _ = tokio::time::sleep_until(deadline) => break,
                _ = self.inner.stopping.cancelled() => break,
            }
        }
        self.job(scope, id).await
    }

    /// Whether the job has completed; 404 when there is no such job.
    async fn completed(&self, scope: Scope, id: Uuid) -> TransformResult<bool> {
        db::jobs::completed(self.store(), scope, id)
            .await?
            .ok_or(TransformError::NotFound("job"))
    }

    /// A job with its intents, and the hash of the request that created it.
    async fn find_job(&self, scope: Scope, id: Uuid) -> TransformResult<Option<(Job, String)>> {
        db::jobs::get_with_intents(self.store(), scope, id).await
    }

    async fn attach_intents(&self, scope: Scope, jobs: &mut [Job]) -> TransformResult<()> {
        let ids: Vec<Uuid> = jobs.iter().map(|j| j.id).collect();
        let mut by_job: HashMap<Uuid, Vec<Intent>> = HashMap::new();
        for (job_id, intent) in db::intents::of_jobs(self.store(), scope, &ids).await? {
            by_job.entry(job_id).or_default().push(intent);
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

/// Short sha256 of what a job request asks for (everything but the id).
fn request_hash(new: &NewJob) -> String {
    let mut value = serde_json::to_value(new).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.remove("id");
    }
    let mut text = String::new();
    canonical(&value, &mut text);
    hex::encode(&Sha256::digest(text.as_bytes())[..16])
}

#[cfg(test)]
mod tests;
