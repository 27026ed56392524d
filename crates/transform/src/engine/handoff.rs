//! Jobs claimed for this node's workers and queued for them: jobs made on this node, and the
//! rest of a claim of several.
//!
//! A job created on this node while fewer jobs wait here than the node runs workers is inserted
//! with a claim of its own (lease owner and expiry, as the claim statement would have set them)
//! and queued here for the next worker to be free, which runs it without claiming it from the
//! database: one write a job less, and no ready notice to other nodes, which would find the
//! job claimed. Its status stays `QUEUED` until its first step is saved. So a node that makes
//! jobs faster than its workers finish them keeps as many waiting as it runs workers, as a
//! claim of several would, and leaves the rest in the database for any node; a node that runs
//! none (its workers stopped, or never started) keeps none.
//!
//! A worker that finds no job queued claims as many as the node has workers (one statement),
//! runs the first and queues the others for the workers here: a busy node claims once for
//! several jobs, rather than once a job.
//!
//! It rests on the lease as any claim does. A handed job no worker takes in time is released
//! (ready for any node) rather than run late: while more than half its lease is left, and, for
//! a job made here, within the poll interval, so that a node whose workers are all busy with
//! long steps does not keep a new job from idle nodes for longer than a worker would take to
//! look for it; the jobs still
//! queued when the workers stop are released; those of a node that crashed, or of a create
//! that ended after the workers stopped, become claimable when their lease runs out.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use chrono::{DateTime, Utc};
use folio_store::Scope;
use serde_json::Value;
use uuid::Uuid;

use super::queue::{self, Claimed};
use crate::Transform;
use crate::db::jobs::Claim;
use crate::error::TransformResult;
use crate::model::Job;
use crate::workflow::Phase;

/// The workers running, and the jobs claimed for them.
#[derive(Default)]
pub(crate) struct Handoff {
    running: AtomicUsize,
    jobs: Mutex<VecDeque<(Claimed, DateTime<Utc>)>>,
}

/// A worker counted in [`Handoff::running`] while it lives.
pub(crate) struct Running<'a>(&'a AtomicUsize);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Handoff {
    /// Counts a worker as running while the guard lives.
    pub(crate) fn running(&self) -> Running<'_> {
        self.running.fetch_add(1, Ordering::SeqCst);
        Running(&self.running)
    }

    /// Whether a new job may wait here: workers run, and fewer jobs wait than they are (a free
    /// worker takes it at once; a busy one when it is done).
    fn has_room(&self) -> bool {
        let running = self.running.load(Ordering::SeqCst);
        self.jobs.lock().is_ok_and(|jobs| jobs.len() < running)
    }

    /// Queues `job`, to be taken before `take_by` (else released).
    fn push(&self, job: Claimed, take_by: DateTime<Utc>) {
        if let Ok(mut jobs) = self.jobs.lock() {
            jobs.push_back((job, take_by));
        }
    }

    fn pop(&self) -> Option<(Claimed, DateTime<Utc>)> {
        self.jobs.lock().ok()?.pop_front()
    }
}

impl Transform {
    /// A claim for a job about to be created, when it may wait here for this node's workers.
    pub(crate) fn handoff_claim(&self) -> Option<Claim> {
        if self.inner.stopping.is_cancelled() || !self.inner.handoff.has_room() {
            return None;
        }
        let now = folio_store::now();
        Some(Claim {
            owner: Uuid::new_v4(),
            until: now + chrono::Duration::milliseconds(self.config().lease_ms as i64),
        })
    }

    /// Queues a job inserted with `claim` (at its first step and intent) for a free worker, and
    /// wakes one.
    pub(crate) fn hand_over(
        &self,
        scope: Scope,
        job: &Job,
        step_id: String,
        intent_id: Uuid,
        claim: Claim,
    ) {
        let claimed = Claimed {
            workspace_id: scope.workspace_id(),
            id: job.id,
            owner: claim.owner,
            workflow_id: job.workflow_id,
            workflow_version: job.workflow_version,
            silo_entry_id: job.silo_entry_id,
            adopted: false,
            key: job.key.clone(),
            args: job.args.clone(),
            faults: Vec::new(),
            phase: Phase::Main,
            step_id,
            intent_id,
            intent_seq: 0,
            attempt: 0,
            step_state: Value::Null,
        };
        // within the poll interval, and never past half its lease
        let poll =
            folio_store::now() + chrono::Duration::milliseconds(self.config().poll_ms as i64);
        let take_by = poll.min(half_lease(claim.until, self.config().lease_ms));
        self.inner.handoff.push(claimed, take_by);
        self.inner.wake.nudge();
    }

    /// The next job handed to this node's workers that is still in time; those that are not
    /// are released on the way.
    pub(crate) async fn take_handed(&self) -> Option<Claimed> {
        while let Some((job, take_by)) = self.inner.handoff.pop() {
            if folio_store::now() < take_by {
                return Some(job);
            }
            self.release_handed(&job).await;
        }
        None
    }

    /// A job for a worker that found none handed to it: it claims as many jobs as this node
    /// has workers, runs the first and queues the others for the workers here, so that a busy
    /// node claims once for several jobs rather than once a job.
    pub(crate) async fn claim_for_workers(&self) -> TransformResult<Option<Claimed>> {
        let limit = self.config().workers;
        let (mut jobs, until) =
            queue::claim_some(self.store(), self.config().lease_ms, limit).await?;
        if jobs.len() == limit {
            // more may be ready: let another free worker look too
            self.inner.wake.ring();
        }
        let first = jobs.pop();
        for job in jobs {
            self.inner
                .handoff
                .push(job, half_lease(until, self.config().lease_ms));
            self.inner.wake.nudge();
        }
        Ok(first)
    }

    /// Releases every job still queued for a worker (the workers have stopped).
    pub(crate) async fn release_all_handed(&self) {
        while let Some((job, _)) = self.inner.handoff.pop() {
            self.release_handed(&job).await;
        }
    }

    async fn release_handed(&self, job: &Claimed) {
        match queue::release(self.store(), job, folio_store::now()).await {
            Ok(()) => self.inner.wake.ring(),
            // its lease runs out instead
            Err(e) => tracing::warn!(job = %job.id, error = %e, "could not release a handed job"),
        }
    }
}

/// When a lease that runs `until` has half of its `lease_ms` left.
fn half_lease(until: DateTime<Utc>, lease_ms: u64) -> DateTime<Utc> {
    until - chrono::Duration::milliseconds(lease_ms as i64 / 2)
}
