//! Workspaces: the tenants. Every other row belongs to exactly one.

use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::WriteQuery;
use crate::{Store, StoreError, from_millis, millis, now};

/// A tenant: API tokens, envelopes and workflows belong to one workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workspace {
    /// Stable id.
    pub id: Uuid,
    /// Unique, human-chosen name (e.g. `default`).
    pub name: String,
    /// When it was created (millisecond precision).
    pub created_at: DateTime<Utc>,
}

impl Workspace {
    fn from_row(row: &AnyRow) -> Result<Workspace, StoreError> {
        Ok(Workspace {
            id: parse_uuid(row.try_get("id")?)?,
            name: row.try_get("name")?,
            created_at: from_millis(row.try_get("created_at")?),
        })
    }
}

/// Parse a uuid column (stored as TEXT).
pub(crate) fn parse_uuid(text: String) -> Result<Uuid, StoreError> {
    Uuid::parse_str(&text).map_err(|e| {
        StoreError::Database(sqlx::Error::Decode(
            format!("bad uuid {text:?} in database: {e}").into(),
        ))
    })
}

const COLUMNS: &str = "id, name, created_at";

impl Store {
    /// Create a workspace; [`StoreError::Conflict`] if the name is taken,
    /// [`StoreError::Invalid`] if it is empty or has surrounding whitespace.
    pub async fn create_workspace(&self, name: &str) -> Result<Workspace, StoreError> {
        if name.is_empty() || name.trim() != name {
            return Err(StoreError::Invalid(format!("bad workspace name {name:?}")));
        }
        let ws = Workspace {
            id: Uuid::now_v7(),
            name: name.to_string(),
            created_at: now(),
        };
        sqlx::query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, $2, $3)")
            .bind(ws.id.to_string())
            .bind(&ws.name)
            .bind(millis(ws.created_at))
            .write(self)
            .await
            .map_err(|e| {
                e.unique_as_conflict(format!("workspace name {name:?} is already taken"))
            })?;
        Ok(ws)
    }

    /// The workspace with this id, if any.
    pub async fn workspace(&self, id: Uuid) -> Result<Option<Workspace>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM workspaces WHERE id = $1");
        let row = sqlx::query(&sql)
            .bind(id.to_string())
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(Workspace::from_row).transpose()
    }

    /// The workspace with this name, if any.
    pub async fn workspace_by_name(&self, name: &str) -> Result<Option<Workspace>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM workspaces WHERE name = $1");
        let row = sqlx::query(&sql)
            .bind(name)
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(Workspace::from_row).transpose()
    }

    /// All workspaces, oldest first.
    pub async fn list_workspaces(&self) -> Result<Vec<Workspace>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM workspaces ORDER BY created_at, id");
        let rows = sqlx::query(&sql).fetch_all(self.pool()).await?;
        rows.iter().map(Workspace::from_row).collect()
    }

    /// How many workspaces exist (0 means a fresh database).
    pub async fn count_workspaces(&self) -> Result<i64, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM workspaces")
            .fetch_one(self.pool())
            .await?;
        Ok(n)
    }
}
