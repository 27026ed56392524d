//! `sequence_entries` rows.

use folio_store::rows::{json, uuid, uuid_opt};
use folio_store::{Scope, Store, from_millis, millis};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::{Entry, SequenceResult};

const COLUMNS: &str = "id, series_id, idx, code, previous_id, meta, sigs, created_at";

/// Stores an entry in the transaction that locked its series.
pub(crate) async fn insert(
    tx: &mut folio_store::WriteTx,
    scope: Scope,
    e: &Entry,
) -> SequenceResult<()> {
    let q = scope
        .query(
            "INSERT INTO sequence_entries (workspace_id, series_id, id, idx, code, previous_id, \
             meta, sigs, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(e.series_id.to_string())
        .bind(e.id.to_string())
        .bind(e.index)
        .bind(e.code.clone())
        .bind(e.previous_id.map(|id| id.to_string()))
        .bind(serde_json::to_string(&e.meta).unwrap_or_else(|_| "{}".into()))
        .bind(serde_json::to_string(&e.sigs).unwrap_or_else(|_| "[]".into()))
        .bind(millis(e.created_at));
    tx.write(q).await?;
    Ok(())
}

/// One entry, read through the pool or inside a transaction.
pub(crate) async fn get<'c, E: sqlx::Executor<'c, Database = sqlx::Any>>(
    exec: E,
    scope: Scope,
    series_id: Uuid,
    id: Uuid,
) -> SequenceResult<Option<Entry>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM sequence_entries WHERE workspace_id = $1 AND series_id = $2 AND id = $3"
    );
    let row = scope
        .query(&sql)
        .bind(series_id.to_string())
        .bind(id.to_string())
        .fetch_optional(exec)
        .await?;
    row.as_ref().map(decode).transpose()
}

/// Up to `limit` entries of a series below index `before` (all when `None`), newest first.
pub(crate) async fn list(
    store: &Store,
    scope: Scope,
    series_id: Uuid,
    before: Option<i64>,
    limit: i64,
) -> SequenceResult<Vec<Entry>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM sequence_entries WHERE workspace_id = $1 AND series_id = $2 \
         AND idx < $3 ORDER BY idx DESC LIMIT $4"
    );
    let rows = scope
        .query(&sql)
        .bind(series_id.to_string())
        .bind(before.unwrap_or(i64::MAX))
        .bind(limit)
        .fetch_all(store.pool())
        .await?;
    rows.iter().map(decode).collect()
}

fn decode(row: &AnyRow) -> SequenceResult<Entry> {
    Ok(Entry {
        id: uuid(row, "id")?,
        series_id: uuid(row, "series_id")?,
        index: row.try_get("idx")?,
        code: row.try_get("code")?,
        previous_id: uuid_opt(row, "previous_id")?,
        meta: json(row, "meta")?,
        sigs: json(row, "sigs")?,
        created_at: from_millis(row.try_get("created_at")?),
    })
}
