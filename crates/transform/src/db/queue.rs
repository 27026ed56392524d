//! `transform_jobs` as a queue: claim with a lease, renew, release, and move a job on with
//! its step's intent.
//!
//! A job is claimable when `ready_at <= now`. Claiming sets `lease_owner` to a fresh claim id
//! and moves `ready_at` to the lease's expiry, so an expired lease makes the job claimable again
//! with no extra condition. Every later write by the worker is fenced by `lease_owner`: a worker
//! that lost its lease (it stalled past the expiry and another node took the job) writes nothing.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use folio_api::Fault;
use folio_store::rows::{json, json_opt, uuid, uuid_opt};
use folio_store::{Backend, Query, Scope, Store, WriteQuery, WriteTx, millis};
use serde_json::Value;
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::error::TransformResult;
use crate::model::Intent;

/// The claim that fences a worker's writes to a job.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lease {
    /// The job.
    pub job_id: Uuid,
    /// The claim id, in `lease_owner` while the claim holds.
    pub owner: Uuid,
}

/// A job as a claim answers it: what a worker needs to run it.
#[derive(Debug)]
pub(crate) struct ClaimedRow {
    pub workspace_id: Uuid,
    pub id: Uuid,
    pub workflow_id: Uuid,
    pub workflow_version: i64,
    pub silo_entry_id: Option<Uuid>,
    pub key: Option<String>,
    pub args: BTreeMap<String, String>,
    pub faults: Vec<Fault>,
    /// The stored phase name (`main`, `rescue`).
    pub phase: String,
    pub step_id: String,
    pub intent_id: Uuid,
    pub intent_seq: i64,
    pub attempt: i64,
    pub step_state: Option<Value>,
}

/// Where a job goes after a step, as [`advance`] writes it.
#[derive(Debug)]
pub(crate) struct Position<'a> {
    /// The stored phase name (`main`, `rescue`).
    pub phase: &'static str,
    pub step_id: &'a str,
    pub intent_id: Uuid,
    pub intent_seq: i64,
    pub attempt: u32,
    pub step_state: Option<&'a Value>,
    /// `None`: not to be claimed again (the job is over).
    pub ready_at: Option<DateTime<Utc>>,
    /// The claim kept by the worker, if it carries on at once.
    pub owner: Option<Uuid>,
    pub status: &'static str,
    pub completed_at: Option<DateTime<Utc>>,
    pub updated_at: DateTime<Utc>,
    pub faults: &'a [Fault],
    /// An envelope an import step made, for the job to adopt (one the job had stays). `None`
    /// leaves the column out of the statement: on SQLite, a column set, even to its value,
    /// rewrites the job's entry in each index holding it (here the envelope's jobs).
    pub silo_entry_id: Option<Uuid>,
}

/// Claims up to `limit` jobs of any workspace, those ready longest, for `owner` until `until`.
/// Unscoped on purpose: a worker serves every workspace. The jobs of one claim share its
/// owner: each write to a job is fenced by the job and the owner together.
pub(crate) async fn claim(
    store: &Store,
    owner: Uuid,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
    limit: usize,
) -> TransformResult<Vec<ClaimedRow>> {
    let rows = sqlx::query(&claim_sql(store.backend(), limit.max(1)))
        .bind(owner.to_string())
        .bind(millis(until))
        .bind(millis(now))
        .write_returning(store)
        .await?;
    rows.iter().map(claimed).collect()
}

/// The statement of [`claim`] for up to `limit` jobs (tests read its query plan).
///
/// How the claimed rows are picked differs. SQLite picks them by their whole key, workspace
/// and id (by `id` alone, not a prefix of the key, a scan of the whole table). PostgreSQL
/// picks them by `ctid` (where the row stands, unchanged while the claim holds its lock), and
/// the limit is written into the statement: picked by key, or with the limit a parameter,
/// the plan for any values (a join to a scan of the table; hundreds of rows guessed for the
/// limit) cost more than one planned for the call's values, so PostgreSQL planned the claim
/// anew on every call (0.34 ms of planning for 0.03 ms of work, and a worker polls every few
/// milliseconds). This one is planned once a connection for each limit (a few: the limit is
/// at most the node's workers).
pub(crate) fn claim_sql(backend: Backend, limit: usize) -> String {
    let picked = match backend {
        Backend::Sqlite => format!(
            "(workspace_id, id) IN (SELECT workspace_id, id FROM transform_jobs \
             WHERE ready_at <= $3 ORDER BY ready_at LIMIT {limit})"
        ),
        Backend::Postgres => format!(
            "ctid = ANY (ARRAY (SELECT ctid FROM transform_jobs \
             WHERE ready_at <= $3 ORDER BY ready_at LIMIT {limit} FOR UPDATE SKIP LOCKED))"
        ),
    };
    format!(
        "UPDATE transform_jobs SET lease_owner = $1, ready_at = $2, claims = claims + 1, \
         status = CASE WHEN status = 'QUEUED' THEN 'RUN' ELSE status END, updated_at = $3 \
         WHERE {picked} \
         RETURNING workspace_id, id, workflow_id, workflow_version, silo_entry_id, job_key, args, \
                   faults, phase, step_id, intent_id, intent_seq, attempt, step_state"
    )
}

fn claimed(row: &AnyRow) -> TransformResult<ClaimedRow> {
    Ok(ClaimedRow {
        workspace_id: uuid(row, "workspace_id")?,
        id: uuid(row, "id")?,
        workflow_id: uuid(row, "workflow_id")?,
        workflow_version: row.try_get("workflow_version")?,
        silo_entry_id: uuid_opt(row, "silo_entry_id")?,
        key: row.try_get("job_key")?,
        args: json(row, "args")?,
        faults: json(row, "faults")?,
        phase: row.try_get("phase")?,
        step_id: row
            .try_get::<Option<String>, _>("step_id")?
            .unwrap_or_default(),
        intent_id: uuid(row, "intent_id")?,
        intent_seq: row.try_get("intent_seq")?,
        attempt: row.try_get("attempt")?,
        step_state: json_opt(row, "step_state")?,
    })
}

/// Extends a lease to `until`; false when it was lost.
pub(crate) async fn renew(
    store: &Store,
    scope: Scope,
    lease: Lease,
    until: DateTime<Utc>,
) -> TransformResult<bool> {
    let done = scope
        .query(
            "UPDATE transform_jobs SET ready_at = $4 \
             WHERE workspace_id = $1 AND id = $2 AND lease_owner = $3",
        )
        .bind(lease.job_id.to_string())
        .bind(lease.owner.to_string())
        .bind(millis(until))
        .write(store)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives a job back to the queue, ready at `ready_at`.
pub(crate) async fn release(
    store: &Store,
    scope: Scope,
    lease: Lease,
    ready_at: DateTime<Utc>,
) -> TransformResult<()> {
    scope
        .query(
            "UPDATE transform_jobs SET ready_at = $4, lease_owner = NULL \
             WHERE workspace_id = $1 AND id = $2 AND lease_owner = $3",
        )
        .bind(lease.job_id.to_string())
        .bind(lease.owner.to_string())
        .bind(millis(ready_at))
        .write(store)
        .await?;
    Ok(())
}

/// The intents one [`advance`] saves at most: the statement has a row (nine placeholders) for
/// each, and SQLite takes 500 rows in one.
pub(crate) const MAX_INTENTS: usize = 32;

/// Moves a job `to` its next position and saves the intents of the steps it ran (each with its
/// number in the job; at most [`MAX_INTENTS`]), all or nothing, fenced by the lease, as one
/// statement of its own or in `tx`; false when the lease was lost (nothing is written then).
pub(crate) async fn advance(
    store: &Store,
    tx: Option<&mut WriteTx>,
    scope: Scope,
    lease: Lease,
    to: &Position<'_>,
    intents: &[(&Intent, i64)],
) -> TransformResult<bool> {
    let faults = serde_json::to_string(to.faults)?;
    let adopt = to.silo_entry_id.is_some();
    let sql = advance_sql(store.backend(), adopt, intents.len());
    let mut q = bind_move(scope.query(&sql), lease, to, faults);
    for (intent, seq) in intents {
        q = bind_intent(q, intent, *seq)?;
    }
    let done = match tx {
        Some(tx) => tx.write(q).await?,
        None => q.write(store).await?,
    };
    Ok(done.rows_affected() > 0)
}

/// The statement of an [`advance`] with `n` intents, adopting an envelope or not: built once
/// for each backend, form and count (every step's save runs one).
fn advance_sql(backend: Backend, adopt: bool, n: usize) -> Cow<'static, str> {
    type Built = [OnceLock<String>; MAX_INTENTS];
    static BUILT: [[Built; 2]; 2] =
        [const { [const { [const { OnceLock::new() }; MAX_INTENTS] }; 2] }; 2];
    let build = || {
        let first = if adopt { 17 } else { 16 };
        let rows: Vec<String> = (0..n).map(|i| intent_values(first + 9 * i)).collect();
        let rows = rows.iter().map(String::as_str);
        let update = if adopt { ADOPT_ENVELOPE } else { "" };
        let update = format!("{UPDATE_JOB}{update} {JOB_FENCE}");
        backend.then_insert_rows(&update, INTENT_INTO, rows, UPSERT_INTENT)
    };
    let per_count = &BUILT[usize::from(backend == Backend::Postgres)][usize::from(adopt)];
    match n.checked_sub(1).and_then(|i| per_count.get(i)) {
        Some(cell) => Cow::Borrowed(cell.get_or_init(build)),
        None => Cow::Owned(build()),
    }
}

/// Moves a job on: `$1`..`$3` fence it by the lease ([`JOB_FENCE`]), `$4`..`$15` are its new
/// columns, and `$16` an envelope to adopt ([`ADOPT_ENVELOPE`]) when there is one.
const UPDATE_JOB: &str = "UPDATE transform_jobs SET phase = $4, step_id = $5, intent_id = $6, \
     intent_seq = $7, attempt = $8, step_state = $9, ready_at = $10, lease_owner = $11, \
     status = $12, completed_at = $13, updated_at = $14, faults = $15";

/// Adopts the envelope an import step made, in [`UPDATE_JOB`]'s list.
const ADOPT_ENVELOPE: &str = ", silo_entry_id = COALESCE(silo_entry_id, $16)";

/// The job, as long as the lease holds: [`UPDATE_JOB`]'s condition.
const JOB_FENCE: &str = "WHERE workspace_id = $1 AND id = $2 AND lease_owner = $3";

/// The steps' intents, saved with the move: one row of [`intent_values`] each.
const INTENT_INTO: &str = "INSERT INTO transform_intents (workspace_id, job_id, id, seq, \
     step_id, name, provider, completed, created_at, updated_at, events)";

const UPSERT_INTENT: &str = "ON CONFLICT (workspace_id, job_id, id) DO UPDATE SET \
     completed = excluded.completed, updated_at = excluded.updated_at, events = excluded.events";

/// The select list of an intent whose nine placeholders start at `$first`: the job's `$1`,
/// `$2`, then its own.
fn intent_values(first: usize) -> String {
    let own: Vec<String> = (first..first + 9).map(|i| format!("${i}")).collect();
    format!("$1, $2, {}", own.join(", "))
}

/// Binds `$2`..`$15` (the scope is `$1`), and `$16` when there is an envelope to adopt: the
/// lease and the job's new columns of [`UPDATE_JOB`].
fn bind_move<'q>(q: Query<'q>, lease: Lease, to: &Position<'_>, faults: String) -> Query<'q> {
    let q = q
        .bind(lease.job_id.to_string())
        .bind(lease.owner.to_string())
        .bind(to.phase)
        .bind(to.step_id.to_string())
        .bind(to.intent_id.to_string())
        .bind(to.intent_seq)
        .bind(i64::from(to.attempt))
        .bind(to.step_state.map(|s| s.to_string()))
        .bind(to.ready_at.map(millis))
        .bind(to.owner.map(|o| o.to_string()))
        .bind(to.status)
        .bind(to.completed_at.map(millis))
        .bind(millis(to.updated_at))
        .bind(faults);
    match to.silo_entry_id {
        Some(id) => q.bind(id.to_string()),
        None => q,
    }
}

/// Binds an intent's nine columns, numbered `seq` in its job.
fn bind_intent<'q>(q: Query<'q>, intent: &Intent, seq: i64) -> TransformResult<Query<'q>> {
    Ok(q.bind(intent.id.to_string())
        .bind(seq)
        .bind(intent.step_id.clone())
        .bind(intent.name.clone())
        .bind(intent.provider.clone())
        .bind(i64::from(intent.completed))
        .bind(millis(intent.created_at))
        .bind(millis(intent.updated_at))
        .bind(serde_json::to_string(&intent.events)?))
}
