//! The job queue as the workers use it: claim a job with a lease, renew, release, and save a
//! step's result. The statements, and how leases fence them, are in `db::queue`.

use chrono::{DateTime, Utc};
use folio_store::{Scope, Store, WriteTx};
use serde_json::Value;
use uuid::Uuid;

use crate::db;
use crate::db::queue::{ClaimedRow, Lease, Position};
use crate::error::TransformResult;
use crate::model::{Intent, status};
use crate::workflow::Phase;

/// A claimed job: where it is and what it is.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub workspace_id: Uuid,
    pub id: Uuid,
    pub owner: Uuid,
    pub workflow_id: Uuid,
    pub workflow_version: i64,
    pub silo_entry_id: Option<Uuid>,
    /// `silo_entry_id` was made by an import step of this claim: the job's row takes it at
    /// the next save (the rows of the others keep theirs, unwritten).
    pub adopted: bool,
    pub key: Option<String>,
    pub args: std::collections::BTreeMap<String, String>,
    pub faults: Vec<folio_api::Fault>,
    pub phase: Phase,
    pub step_id: String,
    pub intent_id: Uuid,
    pub intent_seq: i64,
    pub attempt: u32,
    pub step_state: Value,
}

impl Claimed {
    /// The job a claim by `owner` answered.
    fn of(row: ClaimedRow, owner: Uuid) -> Claimed {
        Claimed {
            workspace_id: row.workspace_id,
            id: row.id,
            owner,
            workflow_id: row.workflow_id,
            workflow_version: row.workflow_version,
            silo_entry_id: row.silo_entry_id,
            adopted: false,
            key: row.key,
            args: row.args,
            faults: row.faults,
            phase: if row.phase == Phase::Rescue.as_str() {
                Phase::Rescue
            } else {
                Phase::Main
            },
            step_id: row.step_id,
            intent_id: row.intent_id,
            intent_seq: row.intent_seq,
            attempt: row.attempt.max(0) as u32,
            step_state: row.step_state.unwrap_or(Value::Null),
        }
    }

    /// The job's workspace.
    pub fn scope(&self) -> Scope {
        Scope::new(self.workspace_id)
    }

    fn lease(&self) -> Lease {
        Lease {
            job_id: self.id,
            owner: self.owner,
        }
    }
}

/// Claims the job that has been ready longest, if any (as the tests stand in for a worker).
#[cfg(test)]
pub async fn claim(store: &Store, lease_ms: u64) -> TransformResult<Option<Claimed>> {
    Ok(claim_some(store, lease_ms, 1).await?.0.pop())
}

/// Claims up to `limit` jobs, those ready longest, with one lease that lasts until the time
/// returned.
pub async fn claim_some(
    store: &Store,
    lease_ms: u64,
    limit: usize,
) -> TransformResult<(Vec<Claimed>, DateTime<Utc>)> {
    let now = folio_store::now();
    let until = now + lease(lease_ms);
    let owner = Uuid::new_v4();
    let rows = db::queue::claim(store, owner, now, until, limit).await?;
    let jobs = rows
        .into_iter()
        .map(|row| Claimed::of(row, owner))
        .collect();
    Ok((jobs, until))
}

/// Extends a lease; false when it was lost.
pub async fn renew(store: &Store, job: &Claimed, lease_ms: u64) -> TransformResult<bool> {
    let until = folio_store::now() + lease(lease_ms);
    db::queue::renew(store, job.scope(), job.lease(), until).await
}

/// Gives a job back to the queue, ready at once (shutdown) or later.
pub async fn release(store: &Store, job: &Claimed, ready_at: DateTime<Utc>) -> TransformResult<()> {
    db::queue::release(store, job.scope(), job.lease(), ready_at).await
}

/// The intent of the current step, when an earlier attempt recorded it.
pub async fn load_intent(store: &Store, job: &Claimed) -> TransformResult<Option<Intent>> {
    db::intents::get(store, job.scope(), job.id, job.intent_id).await
}

/// Where the job goes after a step result is saved.
#[derive(Debug, Clone)]
pub enum Then {
    /// Same step again at this time (retry or wait), keeping the lease released.
    Again {
        ready_at: DateTime<Utc>,
        attempt: u32,
        state: Value,
    },
    /// On to another step, now (the worker keeps the lease unless `release`).
    Step {
        phase: Phase,
        step_id: String,
        intent_id: Uuid,
        release: bool,
    },
    /// The job is over.
    Done { status: &'static str },
}

/// A write transaction that a run of local steps keeps open from one step to the next, with
/// the intents of the steps it saved: their move of the job is left to the last step's save,
/// which writes the job's row once, with every intent, in one statement.
pub struct Open {
    tx: WriteTx,
    /// The steps run in `tx`, each its intent and number.
    saved: Vec<(Intent, i64)>,
}

impl Open {
    /// A run's transaction, no step saved in it yet.
    pub fn new(tx: WriteTx) -> Open {
        Open {
            tx,
            saved: Vec::new(),
        }
    }

    /// The transaction, for a step's change.
    pub fn tx(&mut self) -> &mut WriteTx {
        &mut self.tx
    }

    /// Undoes the run: its changes and its steps.
    pub async fn rollback(self) -> TransformResult<()> {
        Ok(self.tx.rollback().await?)
    }
}

/// Saves the intent and moves the job on, in one transaction fenced by the lease; false when
/// the lease was lost (nothing is written then). With `open`, the run the step ran in, the save
/// joins it, writes the intents of the run's earlier steps too, and commits it all; a lost
/// lease rolls the run back (the worker that has the job now runs its steps again).
pub async fn save(
    store: &Store,
    open: Option<Open>,
    job: &Claimed,
    intent: &Intent,
    then: &Then,
    lease_ms: u64,
) -> TransformResult<bool> {
    let to = position(job, then, lease_ms);
    let Some(open) = open else {
        let intents = [(intent, job.intent_seq)];
        return advance(store, None, job, &to, &intents).await;
    };
    commit_with(store, open, job, &to, Some((intent, job.intent_seq))).await
}

/// Keeps the step's intent in `open` for the save of a later step of the run (see [`Open`]),
/// the job moving on as `then` says, to a step of a local action; false when the lease was
/// lost (the caller rolls `open` back). Every [`db::queue::MAX_INTENTS`] steps the run writes
/// where it is, so that no statement grows past that.
pub async fn keep(
    store: &Store,
    open: &mut Open,
    job: &Claimed,
    intent: &Intent,
    then: &Then,
    lease_ms: u64,
) -> TransformResult<bool> {
    open.saved.push((intent.clone(), job.intent_seq));
    if open.saved.len() < db::queue::MAX_INTENTS {
        return Ok(true);
    }
    let to = position(job, then, lease_ms);
    let written = advance(store, Some(&mut open.tx), job, &to, &borrowed(&open.saved)).await?;
    open.saved.clear();
    Ok(written)
}

/// Commits a run that stops before its current step ends (a wait or an `ERR` saved on its
/// own): the job at that step, under its lease, with the intents of the steps before; false
/// when the lease was lost (nothing is written then).
pub async fn commit_run(
    store: &Store,
    open: Open,
    job: &Claimed,
    lease_ms: u64,
) -> TransformResult<bool> {
    if open.saved.is_empty() {
        open.tx.commit().await?;
        return Ok(true);
    }
    let now = folio_store::now();
    let mut to = here(job, now);
    to.ready_at = Some(now + lease(lease_ms));
    to.owner = Some(job.owner);
    commit_with(store, open, job, &to, None).await
}

/// Moves the job `to` its place with the intents of the run's steps (and `last`'s) in the
/// run's transaction, and commits it; rolls it back when the lease was lost (false).
async fn commit_with(
    store: &Store,
    mut open: Open,
    job: &Claimed,
    to: &Position<'_>,
    last: Option<(&Intent, i64)>,
) -> TransformResult<bool> {
    let mut intents = borrowed(&open.saved);
    intents.extend(last);
    if !advance(store, Some(&mut open.tx), job, to, &intents).await? {
        open.tx.rollback().await?;
        return Ok(false);
    }
    open.tx.commit().await?;
    Ok(true)
}

/// The run's saved intents as [`db::queue::advance`] takes them.
fn borrowed(saved: &[(Intent, i64)]) -> Vec<(&Intent, i64)> {
    saved.iter().map(|(intent, n)| (intent, *n)).collect()
}

async fn advance(
    store: &Store,
    tx: Option<&mut WriteTx>,
    job: &Claimed,
    to: &Position<'_>,
    intents: &[(&Intent, i64)],
) -> TransformResult<bool> {
    db::queue::advance(store, tx, job.scope(), job.lease(), to, intents).await
}

/// The job's place after `then`.
fn position<'a>(job: &'a Claimed, then: &'a Then, lease_ms: u64) -> Position<'a> {
    let now = folio_store::now();
    // another step or the end: the next intent's number
    let mut to = Position {
        intent_seq: job.intent_seq + 1,
        attempt: 0,
        ..here(job, now)
    };
    match then {
        Then::Again {
            ready_at,
            attempt,
            state,
        } => {
            to.intent_seq = job.intent_seq;
            to.attempt = *attempt;
            to.step_state = Some(state);
            to.ready_at = Some(*ready_at);
        }
        Then::Step {
            phase,
            step_id,
            intent_id,
            release,
        } => {
            to.phase = phase.as_str();
            to.step_id = step_id;
            to.intent_id = *intent_id;
            // a kept lease runs on as after a claim; a released job is ready at once
            to.ready_at = Some(now + lease(if *release { 0 } else { lease_ms }));
            to.owner = (!release).then_some(job.owner);
        }
        Then::Done { status } => {
            to.status = *status;
            to.completed_at = Some(now);
        }
    }
    to
}

/// The job where it is, at its current step and intent, not to be claimed (the caller sets
/// `ready_at` and `owner` when it is).
fn here(job: &Claimed, now: DateTime<Utc>) -> Position<'_> {
    Position {
        phase: job.phase.as_str(),
        step_id: &job.step_id,
        intent_id: job.intent_id,
        intent_seq: job.intent_seq,
        attempt: job.attempt,
        step_state: None,
        ready_at: None,
        owner: None,
        status: status::RUN,
        completed_at: None,
        updated_at: now,
        faults: &job.faults,
        silo_entry_id: job.silo_entry_id.filter(|_| job.adopted),
    }
}

fn lease(ms: u64) -> chrono::Duration {
    chrono::Duration::milliseconds(ms as i64)
}
