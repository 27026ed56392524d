//! The job queue in SQL: claim with a lease, renew, release, and save a step's result.
//!
//! A job is claimable when `ready_at <= now`. Claiming sets `lease_owner` to a fresh claim id
//! and moves `ready_at` to the lease's expiry, so an expired lease makes the job claimable again
//! with no extra condition. Every later write by the worker is fenced by `lease_owner`: a worker
//! that lost its lease (it stalled past the expiry and another node took the job) writes nothing.

use chrono::{DateTime, Utc};
use folio_store::{Backend, Store, millis};
use serde_json::Value;
use sqlx::Row;
use uuid::Uuid;

use crate::error::TransformResult;
use crate::model::Intent;
use crate::rows;
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

/// Claims the job that has been ready longest, if any.
pub async fn claim(store: &Store, lease_ms: u64) -> TransformResult<Option<Claimed>> {
    let now = millis(folio_store::now());
    let owner = Uuid::new_v4();
    let sql = format!(
        "UPDATE transform_jobs SET lease_owner = $1, ready_at = $2, claims = claims + 1, \
         status = CASE WHEN status = 'QUEUED' THEN 'RUN' ELSE status END, updated_at = $3 \
         WHERE id = (SELECT id FROM transform_jobs WHERE ready_at <= $3 \
                     ORDER BY ready_at LIMIT 1{}) \
         RETURNING workspace_id, id, workflow_id, workflow_version, silo_entry_id, job_key, args, \
                   faults, phase, step_id, intent_id, intent_seq, attempt, step_state",
        store.backend().skip_locked()
    );
    // `id` alone picks the row: job ids are uuids, unique in practice across workspaces; the
    // RETURNING clause reports the workspace so nothing is mixed up if two ever collide.
    let row = sqlx::query(&sql)
        .bind(owner.to_string())
        .bind(now + lease_ms as i64)
        .bind(now)
        .fetch_optional(store.pool())
        .await?;
    let Some(row) = row else { return Ok(None) };
    let phase: String = row.try_get("phase")?;
    let state: Option<String> = row.try_get("step_state")?;
    Ok(Some(Claimed {
        workspace_id: rows::uuid(&row, "workspace_id")?,
        id: rows::uuid(&row, "id")?,
        owner,
        workflow_id: rows::uuid(&row, "workflow_id")?,
        workflow_version: row.try_get("workflow_version")?,
        silo_entry_id: rows::uuid_opt(&row, "silo_entry_id")?,
        key: row.try_get("job_key")?,
        args: rows::json(&row, "args")?,
        faults: rows::json(&row, "faults")?,
        phase: if phase == "rescue" {
            Phase::Rescue
        } else {
            Phase::Main
        },
        step_id: row
            .try_get::<Option<String>, _>("step_id")?
            .unwrap_or_default(),
        intent_id: rows::uuid(&row, "intent_id")?,
        intent_seq: row.try_get("intent_seq")?,
        attempt: row.try_get::<i64, _>("attempt")?.max(0) as u32,
        step_state: state
            .map(|s| serde_json::from_str(&s))
            .transpose()?
            .unwrap_or(Value::Null),
    }))
}

/// Extends a lease; false when it was lost.
pub async fn renew(store: &Store, job: &Claimed, lease_ms: u64) -> TransformResult<bool> {
    let until = millis(folio_store::now()) + lease_ms as i64;
    let done = sqlx::query(
        "UPDATE transform_jobs SET ready_at = $1 WHERE workspace_id = $2 AND id = $3 AND lease_owner = $4",
    )
    .bind(until)
    .bind(job.workspace_id.to_string())
    .bind(job.id.to_string())
    .bind(job.owner.to_string())
    .execute(store.pool())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives a job back to the queue, ready at once (shutdown) or later.
pub async fn release(store: &Store, job: &Claimed, ready_at: DateTime<Utc>) -> TransformResult<()> {
    sqlx::query(
        "UPDATE transform_jobs SET ready_at = $1, lease_owner = NULL \
         WHERE workspace_id = $2 AND id = $3 AND lease_owner = $4",
    )
    .bind(millis(ready_at))
    .bind(job.workspace_id.to_string())
    .bind(job.id.to_string())
    .bind(job.owner.to_string())
    .execute(store.pool())
    .await?;
    Ok(())
}

/// The intent of the current step, when an earlier attempt recorded it.
pub async fn load_intent(store: &Store, job: &Claimed) -> TransformResult<Option<Intent>> {
    let row = sqlx::query(
        "SELECT id, created_at, updated_at, step_id, name, provider, completed, events \
         FROM transform_intents WHERE workspace_id = $1 AND job_id = $2 AND id = $3",
    )
    .bind(job.workspace_id.to_string())
    .bind(job.id.to_string())
    .bind(job.intent_id.to_string())
    .fetch_optional(store.pool())
    .await?;
    row.as_ref().map(crate::jobs::intent_row).transpose()
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

/// Saves the intent and moves the job on, in one transaction fenced by the lease; false when
/// the lease was lost (nothing is written then). On PostgreSQL a finished job is announced
/// with `NOTIFY` when the transaction commits.
pub async fn save(
    store: &Store,
    job: &Claimed,
    intent: &Intent,
    faults: &[folio_api::Fault],
    then: &Then,
    lease_ms: u64,
) -> TransformResult<bool> {
    let now = folio_store::now();
    let (phase, step_id, intent_id, seq, attempt, state, ready_at, owner, status, completed_at) =
        match then {
            Then::Again {
                ready_at,
                attempt,
                state,
            } => (
                job.phase.as_str(),
                job.step_id.clone(),
                job.intent_id,
                job.intent_seq,
                *attempt,
                Some(state.to_string()),
                Some(millis(*ready_at)),
                None,
                "RUN",
                None,
            ),
            Then::Step {
                phase,
                step_id,
                intent_id,
                release,
            } => (
                phase.as_str(),
                step_id.clone(),
                *intent_id,
                job.intent_seq + 1,
                0,
                None,
                Some(millis(now) + if *release { 0 } else { lease_ms as i64 }),
                (!release).then(|| job.owner.to_string()),
                "RUN",
                None,
            ),
            Then::Done { status } => (
                job.phase.as_str(),
                job.step_id.clone(),
                job.intent_id,
                job.intent_seq + 1,
                0,
                None,
                None,
                None,
                *status,
                Some(millis(now)),
            ),
        };
    let set = SetJob {
        phase,
        step_id,
        intent_id,
        seq,
        attempt,
        state,
        ready_at,
        owner,
        status,
        completed_at,
        now: millis(now),
        faults: serde_json::to_string(faults)?,
    };
    let events = serde_json::to_string(&intent.events)?;
    let done = matches!(then, Then::Done { .. });
    if store.backend() == Backend::Postgres {
        // one statement, atomic on its own: the fenced update, the intent (only when the update
        // matched) and, for a finished job, the notice (sent when it commits)
        let sql = format!(
            "WITH job AS ({UPDATE_JOB} RETURNING id), \
             intent AS (INSERT INTO transform_intents (workspace_id, job_id, id, seq, step_id, \
             name, provider, completed, created_at, updated_at, events) \
             SELECT $13, $14, $16, $17, $18, $19, $20, $21, $22, $23, $24 FROM job {UPSERT_INTENT}) \
             SELECT {} FROM job",
            if done { "pg_notify($25, job.id)" } else { "1" }
        );
        let q = set.bind(sqlx::query(&sql), job);
        let mut q = bind_intent(q, job, intent, events);
        if done {
            q = q.bind(super::DONE_CHANNEL);
        }
        // (`execute`: the Any driver cannot decode pg_notify's `void`; `SELECT n` says n rows)
        return Ok(q.execute(store.pool()).await?.rows_affected() == 1);
    }
    let mut tx = store.begin_write().await?;
    let updated = set
        .bind(sqlx::query(UPDATE_JOB), job)
        .execute(&mut *tx)
        .await?;
    if updated.rows_affected() != 1 {
        tx.rollback().await?;
        return Ok(false);
    }
    let sql = format!(
        "INSERT INTO transform_intents (workspace_id, job_id, id, seq, step_id, name, provider, \
         completed, created_at, updated_at, events) \
         VALUES ($13, $14, $16, $17, $18, $19, $20, $21, $22, $23, $24) {UPSERT_INTENT}"
    );
    // the same numbering as above: $1..$15 are bound (and unused) so the intent's are $16..
    let q = set.bind(sqlx::query(&sql), job);
    bind_intent(q, job, intent, events)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

type Query<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// Moves a job on; `$1`..`$15`, fenced by the lease.
const UPDATE_JOB: &str = "UPDATE transform_jobs SET phase = $1, step_id = $2, intent_id = $3, \
     intent_seq = $4, attempt = $5, step_state = $6, ready_at = $7, lease_owner = $8, status = $9, \
     completed_at = $10, updated_at = $11, faults = $12 \
     WHERE workspace_id = $13 AND id = $14 AND lease_owner = $15";

const UPSERT_INTENT: &str = "ON CONFLICT (workspace_id, job_id, id) DO UPDATE SET \
     completed = excluded.completed, updated_at = excluded.updated_at, events = excluded.events";

/// The job's new columns, for [`UPDATE_JOB`].
struct SetJob {
    phase: &'static str,
    step_id: String,
    intent_id: Uuid,
    seq: i64,
    attempt: u32,
    state: Option<String>,
    ready_at: Option<i64>,
    owner: Option<String>,
    status: &'static str,
    completed_at: Option<i64>,
    now: i64,
    faults: String,
}

impl SetJob {
    fn bind<'q>(&self, q: Query<'q>, job: &Claimed) -> Query<'q> {
        q.bind(self.phase)
            .bind(self.step_id.clone())
            .bind(self.intent_id.to_string())
            .bind(self.seq)
            .bind(i64::from(self.attempt))
            .bind(self.state.clone())
            .bind(self.ready_at)
            .bind(self.owner.clone())
            .bind(self.status)
            .bind(self.completed_at)
            .bind(self.now)
            .bind(self.faults.clone())
            .bind(job.workspace_id.to_string())
            .bind(job.id.to_string())
            .bind(job.owner.to_string())
    }
}

/// Binds `$16`..`$24`: the intent's columns.
fn bind_intent<'q>(q: Query<'q>, job: &Claimed, intent: &Intent, events: String) -> Query<'q> {
    q.bind(intent.id.to_string())
        .bind(job.intent_seq)
        .bind(intent.step_id.clone())
        .bind(intent.name.clone())
        .bind(intent.provider.clone())
        .bind(i64::from(intent.completed))
        .bind(millis(intent.created_at))
        .bind(millis(intent.updated_at))
        .bind(events)
}
