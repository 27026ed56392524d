//! The workspaces' ES256 signing keys.
//!
//! Each workspace gets one key when it is created ([`ensure_workspace_key`], idempotent and also
//! called lazily). Keys are ranked: the highest rank signs, every key verifies, so a later
//! rotation only adds a row. The private JWK is kept in the database, sealed with the
//! key-encryption key.

use folio_store::{Scope, Store, StoreError};
use gobl::sign::{PrivateKey, PublicKey};

use crate::{SiloResult, db};

/// Makes sure the workspace has a signing key; does nothing when it has one. Safe to call
/// concurrently (from several nodes too): one key wins.
pub async fn ensure_workspace_key(store: &Store, ws: Scope) -> SiloResult<()> {
    let key = PrivateKey::generate();
    let jwk = serde_json::to_string(&key.to_jwk())
        .map_err(|e| StoreError::Invalid(format!("cannot write key: {e}")))?;
    db::keys::insert_first(store, ws, key.kid().to_owned(), jwk).await
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
pub async fn load(store: &Store, ws: Scope) -> SiloResult<WorkspaceKeys> {
    for _ in 0..2 {
        let keys = db::keys::private_jwks(store, ws)
            .await?
            .iter()
            .map(|text| {
                PrivateKey::from_jwk_json(text)
                    .map_err(|e| StoreError::Corrupt(format!("stored key of {ws}: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(signing) = keys.first().cloned() {
            return Ok(WorkspaceKeys {
                signing,
                public: keys.iter().map(PrivateKey::public).collect(),
            });
        }
        ensure_workspace_key(store, ws).await?;
    }
    Err(StoreError::Corrupt(format!("the key of {ws} could not be created")).into())
}
