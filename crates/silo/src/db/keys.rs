//! `silo_keys` rows: the workspaces' signing keys, ranked. The private JWK is stored sealed with
//! the key-encryption key (see `folio_store::keys`).

use folio_store::{Scope, Store, WriteQuery, millis, now};
use sqlx::Row;

use crate::SiloResult;

/// Stores a workspace's first key (rank 0) unless it has one.
pub(crate) async fn insert_first(
    store: &Store,
    ws: Scope,
    kid: String,
    private_jwk: String,
) -> SiloResult<()> {
    ws.query(
        "INSERT INTO silo_keys (workspace_id, kid, rank, created_at, private_jwk) \
         VALUES ($1, $2, 0, $3, $4) ON CONFLICT (workspace_id, rank) DO NOTHING",
    )
    .bind(kid)
    .bind(millis(now()))
    .bind(store.seal(private_jwk.as_bytes())?)
    .write(store)
    .await?;
    Ok(())
}

/// The workspace's private keys as JWK text, highest rank first.
pub(crate) async fn private_jwks(store: &Store, ws: Scope) -> SiloResult<Vec<String>> {
    let rows = ws
        .query("SELECT private_jwk FROM silo_keys WHERE workspace_id = $1 ORDER BY rank DESC")
        .fetch_all(store.pool())
        .await?;
    rows.iter()
        .map(|r| {
            let sealed: String = r.try_get("private_jwk")?;
            Ok(store.open_sealed_text(&sealed)?)
        })
        .collect()
}
