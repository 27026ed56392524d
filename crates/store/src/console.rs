//! The web console's sign-ins: sessions (a browser's cookie) and one-time sign-in links. A row
//! is keyed by the SHA-256 of its secret (the caller hashes), so the table alone signs no one
//! in. A session may name the API token it was opened with: it ends when that token does.

use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::WriteQuery;
use crate::workspaces::parse_uuid;
use crate::{Store, StoreError, from_millis, millis, now};

/// What a console sign-in row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignInKind {
    /// A browser's session.
    Session,
    /// A one-time link, used up by its first sign-in.
    Link,
}

impl SignInKind {
    fn as_str(self) -> &'static str {
        match self {
            SignInKind::Session => "session",
            SignInKind::Link => "link",
        }
    }
}

/// One console session or sign-in link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleSignIn {
    /// SHA-256 (lowercase hex) of the secret.
    pub id: String,
    /// Session or link.
    pub kind: SignInKind,
    /// The workspace it signs into.
    pub workspace_id: Uuid,
    /// The API token a session was opened with, if any.
    pub token_id: Option<Uuid>,
    /// Made.
    pub created_at: DateTime<Utc>,
    /// No longer valid from then.
    pub expires_at: DateTime<Utc>,
    /// Signed out (session) or used (link).
    pub revoked_at: Option<DateTime<Utc>>,
}

impl ConsoleSignIn {
    /// Whether it can be used at `at`.
    pub fn is_active(&self, at: DateTime<Utc>) -> bool {
        self.revoked_at.is_none() && at < self.expires_at
    }

    fn from_row(row: &AnyRow) -> Result<ConsoleSignIn, StoreError> {
        let kind = match row.try_get::<String, _>("kind")?.as_str() {
            "link" => SignInKind::Link,
            _ => SignInKind::Session,
        };
        let token: Option<String> = row.try_get("token_id")?;
        Ok(ConsoleSignIn {
            id: row.try_get("id")?,
            kind,
            workspace_id: parse_uuid(row.try_get("workspace_id")?)?,
            token_id: token.map(parse_uuid).transpose()?,
            created_at: from_millis(row.try_get("created_at")?),
            expires_at: from_millis(row.try_get("expires_at")?),
            revoked_at: row
                .try_get::<Option<i64>, _>("revoked_at")?
                .map(from_millis),
        })
    }
}

const COLUMNS: &str = "id, kind, workspace_id, token_id, created_at, expires_at, revoked_at";

impl Store {
    /// Records a session or link; [`StoreError::Conflict`] when the id exists.
    pub async fn insert_console_sign_in(&self, s: &ConsoleSignIn) -> Result<(), StoreError> {
        let sql =
            format!("INSERT INTO console_sessions ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)");
        sqlx::query(&sql)
            .bind(s.id.clone())
            .bind(s.kind.as_str())
            .bind(s.workspace_id.to_string())
            .bind(s.token_id.map(|t| t.to_string()))
            .bind(millis(s.created_at))
            .bind(millis(s.expires_at))
            .bind(s.revoked_at.map(millis))
            .write(self)
            .await
            .map_err(|e| e.unique_as_conflict("console sign-in exists"))?;
        Ok(())
    }

    /// The session with this id (of any state), if there is one.
    pub async fn console_session(&self, id: &str) -> Result<Option<ConsoleSignIn>, StoreError> {
        let sql =
            format!("SELECT {COLUMNS} FROM console_sessions WHERE id = $1 AND kind = 'session'");
        let row = sqlx::query(&sql)
            .bind(id.to_owned())
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(ConsoleSignIn::from_row).transpose()
    }

    /// Ends a session (signing out); ending it again keeps the first time.
    pub async fn revoke_console_session(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE console_sessions SET revoked_at = COALESCE(revoked_at, $2) \
             WHERE id = $1 AND kind = 'session'",
        )
        .bind(id.to_owned())
        .bind(millis(now()))
        .write(self)
        .await?;
        Ok(())
    }

    /// Uses up a sign-in link: its workspace when it was unused and unexpired, in one statement
    /// (two browsers racing with one link: one wins).
    pub async fn use_console_link(&self, id: &str) -> Result<Option<Uuid>, StoreError> {
        let at = millis(now());
        let rows = sqlx::query(
            "UPDATE console_sessions SET revoked_at = $2 \
             WHERE id = $1 AND kind = 'link' AND revoked_at IS NULL AND expires_at > $2 \
             RETURNING workspace_id",
        )
        .bind(id.to_owned())
        .bind(at)
        .write_returning(self)
        .await?;
        rows.first()
            .map(|r| parse_uuid(r.try_get("workspace_id")?))
            .transpose()
    }

    /// Forgets sessions and links that expired before `before`.
    pub async fn prune_console_sign_ins(&self, before: DateTime<Utc>) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM console_sessions WHERE expires_at < $1")
            .bind(millis(before))
            .write(self)
            .await?;
        Ok(done.rows_affected())
    }
}
