//! `transform_workflows` rows: each workflow's current definition (published versions are in
//! `workflow_versions`).

use folio_store::rows::{json, uuid};
use folio_store::{Scope, Store, WriteTx, from_millis, millis};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::error::TransformResult;
use crate::model::Workflow;

const COLUMNS: &str = "id, created_at, updated_at, definition, hash, draft, disabled, version";

/// A workflow, read through the pool or inside a transaction.
pub(crate) async fn get<'c, E: sqlx::Executor<'c, Database = sqlx::Any>>(
    exec: E,
    scope: Scope,
    id: Uuid,
) -> TransformResult<Option<Workflow>> {
    let sql =
        format!("SELECT {COLUMNS} FROM transform_workflows WHERE workspace_id = $1 AND id = $2");
    let row = scope
        .query(&sql)
        .bind(id.to_string())
        .fetch_optional(exec)
        .await?;
    row.as_ref().map(decode).transpose()
}

/// A workflow, read and locked for the rest of the transaction (PostgreSQL; SQLite's write
/// transaction holds the whole database already).
pub(crate) async fn lock(
    tx: &mut WriteTx,
    postgres: bool,
    scope: Scope,
    id: Uuid,
) -> TransformResult<Option<Workflow>> {
    let lock = if postgres { " FOR UPDATE" } else { "" };
    let sql = format!(
        "SELECT {COLUMNS} FROM transform_workflows WHERE workspace_id = $1 AND id = $2{lock}"
    );
    let row = scope
        .query(&sql)
        .bind(id.to_string())
        .fetch_optional(&mut *tx)
        .await?;
    row.as_ref().map(decode).transpose()
}

/// Inserts a workflow unless its id is taken; true when inserted.
pub(crate) async fn insert(tx: &mut WriteTx, scope: Scope, wf: &Workflow) -> TransformResult<bool> {
    let q = scope
        .query(
            "INSERT INTO transform_workflows (workspace_id, id, created_at, updated_at, name, \
             doc_schema, definition, hash, draft, disabled, version) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING",
        )
        .bind(wf.id.to_string())
        .bind(millis(wf.created_at))
        .bind(millis(wf.updated_at))
        .bind(wf.definition.name.clone())
        .bind(wf.definition.schema.clone())
        .bind(serde_json::to_string(&wf.definition)?)
        .bind(wf.hash.clone())
        .bind(i64::from(wf.draft))
        .bind(i64::from(wf.disabled))
        .bind(wf.version);
    let done = tx.write(q).await?;
    Ok(done.rows_affected() == 1)
}

/// Saves a workflow's current definition and state.
pub(crate) async fn update(tx: &mut WriteTx, scope: Scope, wf: &Workflow) -> TransformResult<()> {
    let q = scope
        .query(
            "UPDATE transform_workflows SET updated_at = $3, name = $4, doc_schema = $5, \
             definition = $6, hash = $7, draft = $8, disabled = $9, version = $10 \
             WHERE workspace_id = $1 AND id = $2",
        )
        .bind(wf.id.to_string())
        .bind(millis(wf.updated_at))
        .bind(wf.definition.name.clone())
        .bind(wf.definition.schema.clone())
        .bind(serde_json::to_string(&wf.definition)?)
        .bind(wf.hash.clone())
        .bind(i64::from(wf.draft))
        .bind(i64::from(wf.disabled))
        .bind(wf.version);
    tx.write(q).await?;
    Ok(())
}

/// Workflows created within `[from, to]` (milliseconds) and strictly after `after` (a
/// `(created_at ms, id)` in this order) when given, newest first, of one schema when given, at
/// most `limit` when given.
pub(crate) async fn between(
    store: &Store,
    scope: Scope,
    (from, to): (i64, i64),
    after: Option<(i64, Uuid)>,
    schema: Option<&str>,
    limit: Option<i64>,
) -> TransformResult<Vec<Workflow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM transform_workflows WHERE workspace_id = $1 \
         AND created_at >= $2 AND created_at <= $3 AND ($4 = '' OR doc_schema = $4) \
         AND (created_at < $6 OR (created_at = $6 AND id < $7) OR $7 = '') \
         ORDER BY created_at DESC, id DESC LIMIT $5"
    );
    // no cursor: an empty id, which the statement reads as "from the start"
    let (after_at, after_id) =
        after.map_or((i64::MAX, String::new()), |(at, id)| (at, id.to_string()));
    let rows = scope
        .query(&sql)
        .bind(from)
        .bind(to)
        .bind(schema.unwrap_or("").to_string())
        .bind(limit.unwrap_or(i64::MAX))
        .bind(after_at)
        .bind(after_id)
        .fetch_all(store.pool())
        .await?;
    rows.iter().map(decode).collect()
}

fn decode(row: &AnyRow) -> TransformResult<Workflow> {
    Ok(Workflow {
        id: uuid(row, "id")?,
        created_at: from_millis(row.try_get("created_at")?),
        updated_at: from_millis(row.try_get("updated_at")?),
        definition: json(row, "definition")?,
        hash: row.try_get("hash")?,
        draft: row.try_get::<i64, _>("draft")? != 0,
        disabled: row.try_get::<i64, _>("disabled")? != 0,
        version: row.try_get("version")?,
    })
}
