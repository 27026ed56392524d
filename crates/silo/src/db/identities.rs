//! `silo_identities` rows: the workspaces' signing identities. The PKCS#12 file and its
//! password are bound here already sealed and come back sealed; only `identities.rs` opens them.

use folio_store::{Scope, Store, WriteQuery, from_millis, millis};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::SiloResult;
use crate::model::IdentityInfo;

/// The public columns, in [`info`]'s order.
const INFO: &str = "id, name, subject, issuer, serial, not_before, not_after, created_at";

/// An identity row's sealed secrets: the file and its password.
pub(crate) struct SealedIdentity {
    pub pkcs12: String,
    pub password: String,
}

/// Stores a new identity.
pub(crate) async fn insert(
    store: &Store,
    ws: Scope,
    info: &IdentityInfo,
    sealed: &SealedIdentity,
) -> SiloResult<()> {
    ws.query(
        "INSERT INTO silo_identities (workspace_id, id, name, subject, issuer, serial, \
         not_before, not_after, created_at, pkcs12, password) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(info.id.to_string())
    .bind(info.name.clone())
    .bind(info.subject.clone())
    .bind(info.issuer.clone())
    .bind(info.serial.clone())
    .bind(millis(info.not_before))
    .bind(millis(info.not_after))
    .bind(millis(info.created_at))
    .bind(sealed.pkcs12.clone())
    .bind(sealed.password.clone())
    .write(store)
    .await?;
    Ok(())
}

/// The workspace's identities, newest first.
pub(crate) async fn list(store: &Store, ws: Scope) -> SiloResult<Vec<IdentityInfo>> {
    let sql = format!(
        "SELECT {INFO} FROM silo_identities WHERE workspace_id = $1 \
         ORDER BY created_at DESC, id DESC"
    );
    let rows = ws.query(&sql).fetch_all(store.pool()).await?;
    rows.iter().map(info).collect()
}

/// One identity of the workspace.
pub(crate) async fn get(store: &Store, ws: Scope, id: Uuid) -> SiloResult<Option<IdentityInfo>> {
    let sql = format!("SELECT {INFO} FROM silo_identities WHERE workspace_id = $1 AND id = $2");
    let row = ws
        .query(&sql)
        .bind(id.to_string())
        .fetch_optional(store.pool())
        .await?;
    row.as_ref().map(info).transpose()
}

/// Deletes an identity; says whether there was one.
pub(crate) async fn delete(store: &Store, ws: Scope, id: Uuid) -> SiloResult<bool> {
    let done = ws
        .query("DELETE FROM silo_identities WHERE workspace_id = $1 AND id = $2")
        .bind(id.to_string())
        .write(store)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The sealed secrets of the identity `id`, or of the newest one valid at `at` when `id` is
/// `None`.
pub(crate) async fn sealed(
    store: &Store,
    ws: Scope,
    id: Option<Uuid>,
    at: chrono::DateTime<chrono::Utc>,
) -> SiloResult<Option<SealedIdentity>> {
    let query = match id {
        Some(id) => ws
            .query(
                "SELECT pkcs12, password FROM silo_identities \
                 WHERE workspace_id = $1 AND id = $2",
            )
            .bind(id.to_string()),
        None => ws
            .query(
                "SELECT pkcs12, password FROM silo_identities \
                 WHERE workspace_id = $1 AND not_before <= $2 AND not_after > $2 \
                 ORDER BY created_at DESC, id DESC LIMIT 1",
            )
            .bind(millis(at)),
    };
    let row = query.fetch_optional(store.pool()).await?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some(SealedIdentity {
        pkcs12: row.try_get("pkcs12")?,
        password: row.try_get("password")?,
    }))
}

fn info(row: &AnyRow) -> SiloResult<IdentityInfo> {
    let id: String = row.try_get("id")?;
    Ok(IdentityInfo {
        id: id
            .parse()
            .map_err(|e| folio_store::StoreError::Corrupt(format!("identity id {id:?}: {e}")))?,
        name: row.try_get("name")?,
        subject: row.try_get("subject")?,
        issuer: row.try_get("issuer")?,
        serial: row.try_get("serial")?,
        not_before: from_millis(row.try_get("not_before")?),
        not_after: from_millis(row.try_get("not_after")?),
        created_at: from_millis(row.try_get("created_at")?),
    })
}
