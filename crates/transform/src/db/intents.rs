//! `transform_intents` rows: one per step run of a job. They are written with the job's move
//! to its next step, in one statement or transaction: see [`super::queue::advance`].

use folio_store::rows::{json, uuid};
use folio_store::{Scope, Store, from_millis};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::error::TransformResult;
use crate::model::Intent;

const COLUMNS: &str = "id, created_at, updated_at, step_id, name, provider, completed, events";

/// One intent of a job.
pub(crate) async fn get(
    store: &Store,
    scope: Scope,
    job_id: Uuid,
    id: Uuid,
) -> TransformResult<Option<Intent>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM transform_intents WHERE workspace_id = $1 AND job_id = $2 AND id = $3"
    );
    let row = scope
        .query(&sql)
        .bind(job_id.to_string())
        .bind(id.to_string())
        .fetch_optional(store.pool())
        .await?;
    row.as_ref().map(decode).transpose()
}

/// The intents of these jobs, with their job's id; each job's in order.
pub(crate) async fn of_jobs(
    store: &Store,
    scope: Scope,
    job_ids: &[Uuid],
) -> TransformResult<Vec<(Uuid, Intent)>> {
    if job_ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks = (0..job_ids.len())
        .map(|i| format!("${}", i + 2))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT job_id, {COLUMNS} FROM transform_intents \
         WHERE workspace_id = $1 AND job_id IN ({marks}) ORDER BY job_id, seq"
    );
    let mut q = scope.query(&sql);
    for id in job_ids {
        q = q.bind(id.to_string());
    }
    let rows = q.fetch_all(store.pool()).await?;
    rows.iter()
        .map(|row| Ok((uuid(row, "job_id")?, decode(row)?)))
        .collect()
}

fn decode(row: &AnyRow) -> TransformResult<Intent> {
    Ok(Intent {
        id: uuid(row, "id")?,
        created_at: from_millis(row.try_get("created_at")?),
        updated_at: from_millis(row.try_get("updated_at")?),
        step_id: row.try_get("step_id")?,
        name: row.try_get("name")?,
        provider: row.try_get("provider")?,
        completed: row.try_get::<i64, _>("completed")? != 0,
        events: json(row, "events")?,
    })
}
