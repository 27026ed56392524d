//! `transform_webhook_secrets` rows: one per workspace. The secrets are stored sealed with the
//! key-encryption key (see `folio_store::keys`) and opened here.

use chrono::{DateTime, Utc};
use folio_store::{Scope, Store, WriteQuery, from_millis, millis};
use sqlx::Row;

use crate::error::TransformResult;
use crate::model::WebhookSecret;

/// The workspace's secrets, if it has any yet.
pub(crate) async fn get(store: &Store, scope: Scope) -> TransformResult<Option<WebhookSecret>> {
    let row = scope
        .query(
            "SELECT secret, created_at, previous, previous_until FROM transform_webhook_secrets \
             WHERE workspace_id = $1",
        )
        .fetch_optional(store.pool())
        .await?;
    let Some(row) = row else { return Ok(None) };
    let previous: Option<String> = row.try_get("previous")?;
    let previous = previous
        .map(|sealed| store.open_sealed_text(&sealed))
        .transpose()?;
    let until: Option<i64> = row.try_get("previous_until")?;
    let secret: String = row.try_get("secret")?;
    Ok(Some(WebhookSecret {
        secret: store.open_sealed_text(&secret)?,
        created_at: from_millis(row.try_get("created_at")?),
        previous: previous.zip(until.map(from_millis)),
    }))
}

/// Stores the workspace's first secret, unless it has one (a racing node stored it first).
pub(crate) async fn insert(
    store: &Store,
    scope: Scope,
    secret: &str,
    at: DateTime<Utc>,
) -> TransformResult<()> {
    scope
        .query(
            "INSERT INTO transform_webhook_secrets (workspace_id, secret, created_at) \
             VALUES ($1, $2, $3) ON CONFLICT (workspace_id) DO NOTHING",
        )
        .bind(store.seal(secret.as_bytes())?)
        .bind(millis(at))
        .write(store)
        .await?;
    Ok(())
}

/// Makes `secret` the current one from `at`; the current one becomes the previous, which
/// signs until `until`.
pub(crate) async fn rotate(
    store: &Store,
    scope: Scope,
    secret: &str,
    at: DateTime<Utc>,
    until: DateTime<Utc>,
) -> TransformResult<()> {
    scope
        .query(
            "UPDATE transform_webhook_secrets SET previous = secret, previous_until = $2, \
             secret = $3, created_at = $4 WHERE workspace_id = $1",
        )
        .bind(millis(until))
        .bind(store.seal(secret.as_bytes())?)
        .bind(millis(at))
        .write(store)
        .await?;
    Ok(())
}
