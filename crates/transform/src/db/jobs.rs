//! `transform_jobs` rows as the API sees them (the worker's statements are in `queue`).

use chrono::{DateTime, Utc};
use folio_store::rows::{json, uuid, uuid_opt};
use folio_store::{Scope, Store, WriteQuery, from_millis, millis};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use super::intents;
use crate::error::TransformResult;
use crate::model::Job;

const COLUMNS: &str = "id, created_at, updated_at, completed_at, workflow_id, workflow_version, \
                       silo_entry_id, job_key, args, tags, status, faults, request_hash";

/// Where a new job starts, besides what its [`Job`] says.
pub(crate) struct Start<'a> {
    /// Hash of the request: a repeat of it answers the job, another request is a conflict.
    pub request_hash: &'a str,
    /// The first step.
    pub step_id: String,
    /// The first step's intent.
    pub intent_id: Uuid,
    /// An e-invoice given as text, kept for an import step.
    pub input: Option<String>,
    /// The claim of a worker of this node that the job is handed to (see `engine::handoff`):
    /// the job is inserted claimed, as if that worker had claimed it.
    pub claim: Option<Claim>,
}

/// A worker's claim on a job: its claim id, and when its lease runs out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Claim {
    pub owner: Uuid,
    pub until: DateTime<Utc>,
}

/// What a job insert checks besides its id and key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// Nothing: the caller has read the workflow and the envelope.
    Read,
    /// In the statement itself: the job's workflow version is still the workflow's current
    /// one, the workflow is enabled and the job's envelope, if it names one, is in the silo.
    Runnable,
}

const INSERT_INTO: &str = "INSERT INTO transform_jobs (workspace_id, id, created_at, \
     updated_at, workflow_id, workflow_version, silo_entry_id, job_key, args, tags, request_hash, \
     status, faults, phase, step_id, intent_id, intent_seq, attempt, ready_at, claims, input, \
     lease_owner)";
const VALUES: &str = "$1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11, '[]', 'main', $12, \
     $13, 0, 0, $15, $16, $14, $17";

/// Inserts a queued job unless its id or key is taken (or, with [`Check::Runnable`], the
/// check fails); true when inserted.
pub(crate) async fn insert(
    store: &Store,
    scope: Scope,
    job: &Job,
    start: Start<'_>,
    check: Check,
) -> TransformResult<bool> {
    let insert = match check {
        Check::Read => format!("{INSERT_INTO} VALUES ({VALUES}) ON CONFLICT DO NOTHING"),
        Check::Runnable => {
            let envelope = match job.silo_entry_id {
                Some(_) => format!(" AND {}", folio_silo::envelope_exists_condition("$6")),
                None => String::new(),
            };
            format!(
                "{INSERT_INTO} SELECT {VALUES} WHERE EXISTS (SELECT 1 FROM transform_workflows \
                 WHERE workspace_id = $1 AND id = $4 AND version = $5 AND disabled = 0){envelope} \
                 ON CONFLICT DO NOTHING"
            )
        }
    };
    let done = scope
        .query(&insert)
        .bind(job.id.to_string())
        .bind(millis(job.created_at))
        .bind(job.workflow_id.to_string())
        .bind(job.workflow_version)
        .bind(job.silo_entry_id.map(|id| id.to_string()))
        .bind(job.key.clone())
        .bind(serde_json::to_string(&job.args)?)
        .bind(serde_json::to_string(&job.tags)?)
        .bind(start.request_hash.to_string())
        .bind(job.status.clone())
        .bind(start.step_id)
        .bind(start.intent_id.to_string())
        .bind(start.input)
        // a handed job is ready again when its claim's lease runs out, like a claimed one
        .bind(
            start
                .claim
                .map_or(millis(job.created_at), |c| millis(c.until)),
        )
        .bind(i64::from(start.claim.is_some()))
        .bind(start.claim.map(|c| c.owner.to_string()))
        .write(store)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// A job with its intents in order, and the hash of the request that created it, in one
/// statement (the job's columns repeat on each intent's row).
pub(crate) async fn get_with_intents(
    store: &Store,
    scope: Scope,
    id: Uuid,
) -> TransformResult<Option<(Job, String)>> {
    let rows = scope
        .query(with_intents_sql())
        .bind(id.to_string())
        .fetch_all(store.pool())
        .await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let (mut job, hash) = decode(first)?;
    for row in &rows {
        job.intents.extend(intents::decode_joined(row)?);
    }
    Ok(Some((job, hash)))
}

/// The statement of [`get_with_intents`] (tests read its query plan): the intents come in
/// `seq` order by a sort of the job's few (no index keeps that order). Built once: every read
/// of a job runs it.
pub(crate) fn with_intents_sql() -> &'static str {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| {
        let job_columns = COLUMNS
            .split(", ")
            .map(|c| format!("j.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "SELECT {job_columns}, {} FROM transform_jobs j LEFT JOIN transform_intents i \
             ON i.workspace_id = j.workspace_id AND i.job_id = j.id \
             WHERE j.workspace_id = $1 AND j.id = $2 ORDER BY i.seq",
            intents::JOINED
        )
    })
}

/// The statement of [`id_by_key`] (tests read its query plan: the key index holds only the
/// jobs that have a key).
pub(crate) const BY_KEY_SQL: &str =
    "SELECT id FROM transform_jobs WHERE workspace_id = $1 AND job_key = $2";

/// The id of the job with this key.
pub(crate) async fn id_by_key(
    store: &Store,
    scope: Scope,
    key: &str,
) -> TransformResult<Option<Uuid>> {
    let row = scope
        .query(BY_KEY_SQL)
        .bind(key.to_string())
        .fetch_optional(store.pool())
        .await?;
    Ok(row.map(|r| uuid(&r, "id")).transpose()?)
}

/// Up to `limit` jobs without their intents, newest first, created at or before `created_at`,
/// strictly after `after` (the `(created_at ms, id)` of the last job of the previous page).
pub(crate) async fn list(
    store: &Store,
    scope: Scope,
    created_at: Option<DateTime<Utc>>,
    after: Option<(i64, Uuid)>,
    limit: i64,
) -> TransformResult<Vec<Job>> {
    let before = created_at.map(millis).unwrap_or(i64::MAX);
    // no cursor: an empty id, which the statement reads as "from the start"
    let (c_at, c_id) = after.map_or((i64::MAX, String::new()), |(at, id)| (at, id.to_string()));
    let rows = scope
        .query(&list_sql())
        .bind(before.min(c_at))
        .bind(c_at)
        .bind(c_id)
        .bind(limit)
        .fetch_all(store.pool())
        .await?;
    rows.iter().map(|r| decode(r).map(|(job, _)| job)).collect()
}

/// The statement of [`list`]: `$2` bounds the index range (the earlier of the page's time and
/// the cursor's), so a later page starts where the last one ended, not at the newest job.
pub(crate) fn list_sql() -> String {
    format!(
        "SELECT {COLUMNS} FROM transform_jobs WHERE workspace_id = $1 AND created_at <= $2 \
         AND (created_at < $3 OR (created_at = $3 AND id < $4) OR $4 = '') \
         ORDER BY created_at DESC, id DESC LIMIT $5"
    )
}

/// The newest `limit` jobs that ran on the envelope `envelope`, newest first (through
/// `transform_jobs_envelope_idx`).
pub(crate) async fn of_envelope(
    store: &Store,
    scope: Scope,
    envelope: Uuid,
    limit: i64,
) -> TransformResult<Vec<Job>> {
    let rows = scope
        .query(&of_envelope_sql())
        .bind(envelope.to_string())
        .bind(limit)
        .fetch_all(store.pool())
        .await?;
    rows.iter().map(|r| decode(r).map(|(job, _)| job)).collect()
}

/// The statement of [`of_envelope`] (tests read its query plan).
pub(crate) fn of_envelope_sql() -> String {
    format!(
        "SELECT {COLUMNS} FROM transform_jobs WHERE workspace_id = $1 AND silo_entry_id = $2 \
         ORDER BY created_at DESC, id DESC LIMIT $3"
    )
}

/// Whether the job has completed; `None` when there is no such job.
pub(crate) async fn completed(
    store: &Store,
    scope: Scope,
    id: Uuid,
) -> TransformResult<Option<bool>> {
    let row = scope
        .query("SELECT completed_at FROM transform_jobs WHERE workspace_id = $1 AND id = $2")
        .bind(id.to_string())
        .fetch_optional(store.pool())
        .await?;
    Ok(match row {
        Some(row) => Some(row.try_get::<Option<i64>, _>("completed_at")?.is_some()),
        None => None,
    })
}

/// The e-invoice text the job was given, if any (`None` also when there is no such job).
pub(crate) async fn input(
    store: &Store,
    scope: Scope,
    id: Uuid,
) -> TransformResult<Option<String>> {
    let row = scope
        .query("SELECT input FROM transform_jobs WHERE workspace_id = $1 AND id = $2")
        .bind(id.to_string())
        .fetch_optional(store.pool())
        .await?;
    Ok(match row {
        Some(row) => row.try_get("input")?,
        None => None,
    })
}

fn decode(row: &AnyRow) -> TransformResult<(Job, String)> {
    let completed_at: Option<i64> = row.try_get("completed_at")?;
    let job = Job {
        id: uuid(row, "id")?,
        created_at: from_millis(row.try_get("created_at")?),
        updated_at: from_millis(row.try_get("updated_at")?),
        completed_at: completed_at.map(from_millis),
        workflow_id: uuid(row, "workflow_id")?,
        workflow_version: row.try_get("workflow_version")?,
        silo_entry_id: uuid_opt(row, "silo_entry_id")?,
        key: row.try_get("job_key")?,
        args: json(row, "args")?,
        tags: json(row, "tags")?,
        status: row.try_get("status")?,
        faults: json(row, "faults")?,
        intents: Vec::new(),
    };
    Ok((job, row.try_get("request_hash")?))
}
