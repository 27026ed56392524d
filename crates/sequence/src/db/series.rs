//! `sequence_series` rows.

use folio_store::rows::{uuid, uuid_opt};
use folio_store::{Scope, Store, WriteQuery, from_millis, millis};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::{NewSeries, SequenceResult, Series};

const COLUMNS: &str = "id, created_at, updated_at, name, code, description, prefix, suffix, \
                       padding, start, last_index, last_entry_id";

/// Inserts a series unless the id is taken; true when inserted.
pub(crate) async fn insert(store: &Store, scope: Scope, s: &Series) -> SequenceResult<bool> {
    let done = scope
        .query(
            "INSERT INTO sequence_series (workspace_id, id, created_at, updated_at, name, code, \
             description, prefix, suffix, padding, start) \
             VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING",
        )
        .bind(s.id.to_string())
        .bind(millis(s.created_at))
        .bind(s.def.name.clone())
        .bind(s.def.code.clone())
        .bind(s.def.description.clone())
        .bind(s.def.prefix.clone())
        .bind(s.def.suffix.clone())
        .bind(s.def.padding)
        .bind(s.def.start)
        .write(store)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// One series.
pub(crate) async fn get(store: &Store, scope: Scope, id: Uuid) -> SequenceResult<Option<Series>> {
    let sql = format!("SELECT {COLUMNS} FROM sequence_series WHERE workspace_id = $1 AND id = $2");
    let row = scope
        .query(&sql)
        .bind(id.to_string())
        .fetch_optional(store.pool())
        .await?;
    row.as_ref().map(decode).transpose()
}

/// One series, read and locked for the rest of the transaction (PostgreSQL; SQLite's write
/// transaction holds the whole database already).
pub(crate) async fn lock(
    tx: &mut folio_store::WriteTx,
    postgres: bool,
    scope: Scope,
    id: Uuid,
) -> SequenceResult<Option<Series>> {
    let lock = if postgres { " FOR UPDATE" } else { "" };
    let sql =
        format!("SELECT {COLUMNS} FROM sequence_series WHERE workspace_id = $1 AND id = $2{lock}");
    let rows = tx.fetch_all(scope.query(&sql).bind(id.to_string())).await?;
    rows.first().map(decode).transpose()
}

/// Moves a series to its next entry.
pub(crate) async fn advance(
    tx: &mut folio_store::WriteTx,
    scope: Scope,
    s: &Series,
) -> SequenceResult<()> {
    let q = scope
        .query(
            "UPDATE sequence_series SET last_index = $3, last_entry_id = $4, updated_at = $5 \
             WHERE workspace_id = $1 AND id = $2",
        )
        .bind(s.id.to_string())
        .bind(s.last_index)
        .bind(s.last_entry_id.map(|id| id.to_string()))
        .bind(millis(s.updated_at));
    tx.write(q).await?;
    Ok(())
}

/// Every series of the workspace, oldest first.
pub(crate) async fn list(store: &Store, scope: Scope) -> SequenceResult<Vec<Series>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM sequence_series WHERE workspace_id = $1 ORDER BY created_at, id"
    );
    let rows = scope.query(&sql).fetch_all(store.pool()).await?;
    rows.iter().map(decode).collect()
}

/// The first series with this name.
pub(crate) async fn by_name(
    store: &Store,
    scope: Scope,
    name: &str,
) -> SequenceResult<Option<Series>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM sequence_series WHERE workspace_id = $1 AND name = $2 \
         ORDER BY created_at, id LIMIT 1"
    );
    let row = scope
        .query(&sql)
        .bind(name.to_string())
        .fetch_optional(store.pool())
        .await?;
    row.as_ref().map(decode).transpose()
}

fn decode(row: &AnyRow) -> SequenceResult<Series> {
    Ok(Series {
        id: uuid(row, "id")?,
        created_at: from_millis(row.try_get("created_at")?),
        updated_at: from_millis(row.try_get("updated_at")?),
        def: NewSeries {
            name: row.try_get("name")?,
            code: row.try_get("code")?,
            description: row.try_get("description")?,
            prefix: row.try_get("prefix")?,
            suffix: row.try_get("suffix")?,
            padding: row.try_get("padding")?,
            start: row.try_get("start")?,
        },
        last_index: row.try_get("last_index")?,
        last_entry_id: uuid_opt(row, "last_entry_id")?,
    })
}
