//! `silo_spool` rows: spooled files (their bytes are temporary blobs).

use chrono::{DateTime, Utc};
use folio_store::rows::uuid;
use folio_store::{Scope, Store, WriteQuery, from_millis, millis};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::SiloResult;
use crate::model::SpoolFile;

const COLUMNS: &str = "key, blob, name, mime, size, hash, created_at, expires_at";

/// Stores a spooled file.
pub(crate) async fn insert(store: &Store, ws: Scope, f: &SpoolFile) -> SiloResult<()> {
    ws.query(
        "INSERT INTO silo_spool (workspace_id, key, blob, name, mime, size, hash, created_at, \
         expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(f.key.clone())
    .bind(f.blob.to_string())
    .bind(f.name.clone())
    .bind(f.mime.clone())
    .bind(f.size)
    .bind(f.hash.clone())
    .bind(millis(f.created_at))
    .bind(millis(f.expires_at))
    .write(store)
    .await?;
    Ok(())
}

/// A spooled file that has not expired at `at`.
pub(crate) async fn get(
    store: &Store,
    ws: Scope,
    key: &str,
    at: DateTime<Utc>,
) -> SiloResult<Option<SpoolFile>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM silo_spool WHERE workspace_id = $1 AND key = $2 AND expires_at > $3"
    );
    let row = ws
        .query(&sql)
        .bind(key.to_string())
        .bind(millis(at))
        .fetch_optional(store.pool())
        .await?;
    Ok(row.as_ref().map(decode).transpose()?)
}

/// Deletes a spooled file that has not expired at `at`; its blob when there was one.
pub(crate) async fn delete(
    store: &Store,
    ws: Scope,
    key: &str,
    at: DateTime<Utc>,
) -> SiloResult<Option<Uuid>> {
    let rows = ws
        .query(
            "DELETE FROM silo_spool WHERE workspace_id = $1 AND key = $2 AND expires_at > $3 \
             RETURNING blob",
        )
        .bind(key.to_string())
        .bind(millis(at))
        .write_returning(store)
        .await?;
    Ok(rows.first().map(|r| uuid(r, "blob")).transpose()?)
}

/// Up to `limit` files of any workspace expired at `at`: (workspace, key, blob). The sweep's
/// one statement across workspaces.
pub(crate) async fn expired(
    store: &Store,
    at: DateTime<Utc>,
    limit: i64,
) -> SiloResult<Vec<(Scope, String, Uuid)>> {
    let rows = sqlx::query(
        "SELECT workspace_id, key, blob FROM silo_spool WHERE expires_at <= $1 \
         ORDER BY expires_at LIMIT $2",
    )
    .bind(millis(at))
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    rows.iter()
        .map(|r| -> SiloResult<(Scope, String, Uuid)> {
            Ok((
                Scope::new(uuid(r, "workspace_id")?),
                r.try_get("key")?,
                uuid(r, "blob")?,
            ))
        })
        .collect()
}

/// Deletes a swept row (its blob is gone already).
pub(crate) async fn forget(store: &Store, ws: Scope, key: &str) -> SiloResult<()> {
    ws.query("DELETE FROM silo_spool WHERE workspace_id = $1 AND key = $2")
        .bind(key.to_string())
        .write(store)
        .await?;
    Ok(())
}

fn decode(row: &AnyRow) -> Result<SpoolFile, folio_store::StoreError> {
    Ok(SpoolFile {
        key: row.try_get("key")?,
        blob: uuid(row, "blob")?,
        name: row.try_get("name")?,
        mime: row.try_get("mime")?,
        size: row.try_get("size")?,
        hash: row.try_get("hash")?,
        created_at: from_millis(row.try_get("created_at")?),
        expires_at: from_millis(row.try_get("expires_at")?),
    })
}
