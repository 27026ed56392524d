//! The workspaces' ES256 signing keys.
//!
//! Each workspace gets one key when it is created ([`ensure_workspace_key`], idempotent and also
//! called lazily). Keys are ranked: the highest rank signs, every key verifies, so a later
//! rotation only adds a row. The private JWK is kept in the database.

use folio_store::{Store, StoreError, millis, now};
use gobl::sign::{PrivateKey, PublicKey};
use sqlx::Row;
use uuid::Uuid;

/// Makes sure `workspace_id` has a signing key; does nothing when it has one. Safe to call
/// concurrently (from several nodes too): one key wins.
pub async fn ensure_workspace_key(store: &Store, workspace_id: Uuid) -> Result<(), StoreError> {
    let key = PrivateKey::generate();
    let jwk = serde_json::to_string(&key.to_jwk())
        .map_err(|e| StoreError::Invalid(format!("cannot write key: {e}")))?;
    sqlx::query(
        "INSERT INTO silo_keys (workspace_id, kid, rank, created_at, private_jwk) \
         VALUES ($1, $2, 0, $3, $4) ON CONFLICT (workspace_id, rank) DO NOTHING",
    )
    .bind(workspace_id.to_string())
    .bind(key.kid())
    .bind(millis(now()))
    .bind(jwk)
    .execute(store.pool())
    .await?;
    Ok(())
}

/// A workspace's keys, highest rank (the signing key) first.
#[derive(Debug, Clone)]
pub struct WorkspaceKeys {
    /// Signs new signatures.
    pub signing: PrivateKey,
    /// Public keys of every key of the workspace.
    pub public: Vec<PublicKey>,
}

/// Loads a workspace's keys, creating its first key when it has none.
pub async fn load(store: &Store, workspace_id: Uuid) -> Result<WorkspaceKeys, StoreError> {
    for _ in 0..2 {
        let rows = sqlx::query(
            "SELECT private_jwk FROM silo_keys WHERE workspace_id = $1 ORDER BY rank DESC",
        )
        .bind(workspace_id.to_string())
        .fetch_all(store.pool())
        .await?;
        let mut keys = Vec::with_capacity(rows.len());
        for row in rows {
            let text: String = row.try_get("private_jwk")?;
            keys.push(
                PrivateKey::from_jwk_json(&text)
                    .map_err(|e| StoreError::Invalid(format!("stored key: {e}")))?,
            );
        }
        if let Some(signing) = keys.first().cloned() {
            return Ok(WorkspaceKeys {
                signing,
                public: keys.iter().map(PrivateKey::public).collect(),
            });
        }
        ensure_workspace_key(store, workspace_id).await?;
    }
    Err(StoreError::Invalid(
        "workspace key could not be created".into(),
    ))
}
