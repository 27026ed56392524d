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

/// The columns of [`COLUMNS`] of the intents `i` joined to another table's rows, each named
/// with an `i_` prefix (see [`decode_joined`]).
pub(crate) const JOINED: &str = "i.id AS i_id, i.created_at AS i_created_at, \
     i.updated_at AS i_updated_at, i.step_id AS i_step_id, i.name AS i_name, \
     i.provider AS i_provider, i.completed AS i_completed, i.events AS i_events";

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
    decode_named(row, |column| column.to_string())
}

/// The intent of a row of [`JOINED`] columns; `None` when the row has none (an outer join).
pub(crate) fn decode_joined(row: &AnyRow) -> TransformResult<Option<Intent>> {
    if row.try_get::<Option<String>, _>("i_id")?.is_none() {
        return Ok(None);
    }
    decode_named(row, |column| format!("i_{column}")).map(Some)
}

/// An intent from the row's columns, as `name` names them.
fn decode_named(row: &AnyRow, name: impl Fn(&str) -> String) -> TransformResult<Intent> {
    Ok(Intent {
        id: uuid(row, &name("id"))?,
        created_at: from_millis(row.try_get(name("created_at").as_str())?),
        updated_at: from_millis(row.try_get(name("updated_at").as_str())?),
        step_id: row.try_get(name("step_id").as_str())?,
        name: row.try_get(name("name").as_str())?,
        provider: row.try_get(name("provider").as_str())?,
        completed: row.try_get::<i64, _>(name("completed").as_str())? != 0,
        events: json(row, &name("events"))?,
    })
}
