//! API token records. The JWT itself is made and checked elsewhere; the store keeps each token's
//! id so tokens can be listed and revoked.

use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::WriteQuery;
use crate::workspaces::parse_uuid;
use crate::{Store, StoreError, from_millis, millis, now};

/// One issued API token (its `jti`), bound to one workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRecord {
    /// The token id (the JWT `jti`).
    pub id: Uuid,
    /// The workspace the token grants access to.
    pub workspace_id: Uuid,
    /// When it was issued (millisecond precision).
    pub created_at: DateTime<Utc>,
    /// When it stops being valid, if ever.
    pub expires_at: Option<DateTime<Utc>>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<DateTime<Utc>>,
}

impl TokenRecord {
    /// Whether the token is usable at `at`: not revoked and not expired.
    pub fn is_active(&self, at: DateTime<Utc>) -> bool {
        self.revoked_at.is_none() && self.expires_at.is_none_or(|exp| at < exp)
    }

    fn from_row(row: &AnyRow) -> Result<TokenRecord, StoreError> {
        let opt = |col: &str| -> Result<Option<DateTime<Utc>>, StoreError> {
            Ok(row.try_get::<Option<i64>, _>(col)?.map(from_millis))
        };
        Ok(TokenRecord {
            id: parse_uuid(row.try_get("id")?)?,
            workspace_id: parse_uuid(row.try_get("workspace_id")?)?,
            created_at: from_millis(row.try_get("created_at")?),
            expires_at: opt("expires_at")?,
            revoked_at: opt("revoked_at")?,
        })
    }
}

impl Store {
    /// Record an issued token. [`StoreError::Conflict`] if the id exists;
    /// [`StoreError::NotFound`] if the workspace does not.
    pub async fn insert_token(&self, t: &TokenRecord) -> Result<(), StoreError> {
        // Checked up front because foreign-key errors are not reported portably.
        if self.workspace(t.workspace_id).await?.is_none() {
            return Err(StoreError::NotFound);
        }
        sqlx::query(
            "INSERT INTO tokens (id, workspace_id, created_at, expires_at, revoked_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(t.id.to_string())
        .bind(t.workspace_id.to_string())
        .bind(millis(t.created_at))
        .bind(t.expires_at.map(millis))
        .bind(t.revoked_at.map(millis))
        .write(self)
        .await
        .map_err(|e| e.unique_as_conflict(format!("token {} exists", t.id)))?;
        Ok(())
    }

    /// The token record with this id, if any (revoked or expired ones included).
    pub async fn token(&self, id: Uuid) -> Result<Option<TokenRecord>, StoreError> {
        let row = sqlx::query(
            "SELECT id, workspace_id, created_at, expires_at, revoked_at FROM tokens WHERE id = $1",
        )
        .bind(id.to_string())
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(TokenRecord::from_row).transpose()
    }

    /// All token records with their workspace's name, oldest first.
    pub async fn list_tokens(&self) -> Result<Vec<(TokenRecord, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT t.id, t.workspace_id, t.created_at, t.expires_at, t.revoked_at, \
                    w.name AS workspace_name \
             FROM tokens t JOIN workspaces w ON w.id = t.workspace_id \
             ORDER BY t.created_at, t.id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((TokenRecord::from_row(row)?, row.try_get("workspace_name")?)))
            .collect()
    }

    /// Revoke a token: `false` if the id is unknown. Revoking again is harmless and keeps the
    /// first revocation time.
    pub async fn revoke_token(&self, id: Uuid) -> Result<bool, StoreError> {
        let done =
            sqlx::query("UPDATE tokens SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1")
                .bind(id.to_string())
                .bind(millis(now()))
                .write(self)
                .await?;
        Ok(done.rows_affected() > 0)
    }
}
