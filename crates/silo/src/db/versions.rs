//! `silo_versions` rows: every document an envelope has had.

use chrono::{DateTime, Utc};
use folio_store::{Scope, Store, WriteTx, millis};
use uuid::Uuid;

use super::rows;
use crate::SiloResult;
use crate::model::Version;

/// Stores a version (nothing when the envelope has it already).
pub(crate) async fn insert(
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
    version: &str,
    at: DateTime<Utc>,
    text: &str,
) -> SiloResult<()> {
    let q = ws
        .query(
            "INSERT INTO silo_versions (workspace_id, envelope_id, version, created_at, data) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(envelope_id.to_string())
        .bind(version.to_owned())
        .bind(millis(at))
        .bind(text.to_owned());
    tx.write(q).await?;
    Ok(())
}

/// One version of an envelope.
pub(crate) async fn get(
    store: &Store,
    ws: Scope,
    envelope_id: Uuid,
    version: &str,
) -> SiloResult<Option<Version>> {
    let row = ws
        .query(
            "SELECT version, created_at, data FROM silo_versions \
             WHERE workspace_id = $1 AND envelope_id = $2 AND version = $3",
        )
        .bind(envelope_id.to_string())
        .bind(version.to_owned())
        .fetch_optional(store.pool())
        .await?;
    Ok(row.as_ref().map(rows::version).transpose()?)
}

/// Every version of an envelope, oldest first.
pub(crate) async fn list(store: &Store, ws: Scope, envelope_id: Uuid) -> SiloResult<Vec<Version>> {
    let rows = ws
        .query(
            "SELECT version, created_at, data FROM silo_versions \
             WHERE workspace_id = $1 AND envelope_id = $2 ORDER BY created_at, version",
        )
        .bind(envelope_id.to_string())
        .fetch_all(store.pool())
        .await?;
    Ok(rows.iter().map(rows::version).collect::<Result<_, _>>()?)
}
