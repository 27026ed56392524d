//! Listing envelopes, newest first (or oldest first), with two paging styles.
//!
//! Order is `(created_at, id)`. Both styles are keyset paging, so envelopes stored while a client
//! pages never make it see an envelope twice or miss one that existed when it started:
//!
//! - **cursor** (`cursor` → `next_cursor`): an opaque encoding of the last listed
//!   `(created_at, id)`; the next page starts strictly after it.
//! - **created_at** (`created_at` → `next_created_at`, for older clients): `created_at` is
//!   inclusive (at or before it when newest first, at or after when oldest first). Timestamps
//!   have millisecond precision and several envelopes can share one, so a timestamp alone cannot
//!   mark a place inside such a group. Pages in this style therefore never split a group: a
//!   page ends before the first envelope of the group that would straddle its end, and
//!   `next_created_at` is that group's timestamp. When one millisecond holds more envelopes
//!   than `limit` (bulk imports), that page holds the whole group and is longer than `limit`:
//!   the only way to keep "exactly once" with a timestamp cursor.
//!
//! The first page (neither parameter) answers both `next_cursor` and `next_created_at`.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use chrono::{DateTime, Utc};
use folio_store::{from_millis, millis};
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::Silo;
use crate::error::{SiloError, SiloResult};
use crate::model::Entry;
use crate::rows::{self, ENTRY_COLUMNS};

/// What to list.
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    /// Page size (already capped by the caller).
    pub limit: i64,
    /// Inclusive start timestamp (created_at style).
    pub created_at: Option<DateTime<Utc>>,
    /// Opaque cursor from `next_cursor` (cursor style; wins over `created_at`).
    pub cursor: Option<String>,
    /// Only envelopes in this folder.
    pub folder: Option<String>,
    /// Oldest first instead of newest first.
    pub ascending: bool,
}

/// One page.
#[derive(Debug, Clone, Default)]
pub struct Page {
    /// The envelopes, without data.
    pub entries: Vec<Entry>,
    /// Send back as `created_at` for the next page; `None` on the last page.
    pub next_created_at: Option<DateTime<Utc>>,
    /// Send back as `cursor` for the next page; `None` on the last page.
    pub next_cursor: Option<String>,
}

/// Encodes a position.
pub fn encode_cursor(created_at: DateTime<Utc>, id: Uuid) -> String {
    B64.encode(format!("{}.{}", millis(created_at), id.simple()))
}

/// Decodes a position; `None` when it is not one of ours.
pub fn decode_cursor(cursor: &str) -> Option<(i64, Uuid)> {
    let bytes = B64.decode(cursor.trim()).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let (ms, id) = text.split_once('.')?;
    Some((ms.parse().ok()?, Uuid::parse_str(id).ok()?))
}

impl Silo {
    /// Lists envelopes (without data, with attachments).
    pub async fn list(&self, workspace_id: Uuid, q: &ListQuery) -> SiloResult<Page> {
        let limit = q.limit.max(1);
        let (cmp, dir) = if q.ascending {
            (">", "ASC")
        } else {
            ("<", "DESC")
        };
        let mut sql =
            format!("SELECT {ENTRY_COLUMNS} FROM silo_envelopes e WHERE e.workspace_id = $1");
        let folder = q.folder.clone();
        if folder.is_some() {
            sql.push_str(" AND e.folder = $2");
        }
        let position = match (&q.cursor, q.created_at) {
            (Some(cursor), _) => {
                let (ms, id) = decode_cursor(cursor).ok_or_else(|| {
                    SiloError::invalid("cursor", "not a cursor given by this API")
                })?;
                sql.push_str(&format!(
                    " AND (e.created_at {cmp} $3 OR (e.created_at = $3 AND e.id {cmp} $4))"
                ));
                Some((ms, Some(id.to_string())))
            }
            (None, Some(t)) => {
                sql.push_str(&format!(" AND e.created_at {cmp}= $3"));
                Some((millis(t), None))
            }
            (None, None) => None,
        };
        sql.push_str(&format!(
            " ORDER BY e.created_at {dir}, e.id {dir} LIMIT {}",
            limit + 1
        ));
        let rows = self.query(&sql, workspace_id, &folder, &position).await?;
        let mut entries: Vec<Entry> = rows
            .iter()
            .map(|r| rows::entry(r).map(|(e, _)| e))
            .collect::<Result<_, _>>()?;
        let mut page = Page::default();
        let cursor_style = q.cursor.is_some();
        if entries.len() as i64 > limit {
            let boundary = entries[limit as usize].created_at;
            entries.truncate(limit as usize);
            if cursor_style {
                let last = &entries[entries.len() - 1];
                page.next_cursor = Some(encode_cursor(last.created_at, last.id));
            } else {
                // Keep timestamp groups whole (see the module docs).
                while entries.last().is_some_and(|e| e.created_at == boundary) {
                    entries.pop();
                }
                if entries.is_empty() {
                    entries = self.group(workspace_id, &folder, boundary, dir).await?;
                    let next = if q.ascending {
                        boundary + chrono::Duration::milliseconds(1)
                    } else {
                        boundary - chrono::Duration::milliseconds(1)
                    };
                    page.next_created_at = Some(next);
                } else {
                    page.next_created_at = Some(boundary);
                }
                let last = &entries[entries.len() - 1];
                page.next_cursor = Some(encode_cursor(last.created_at, last.id));
            }
        }
        self.attach(workspace_id, &mut entries).await?;
        page.entries = entries;
        Ok(page)
    }

    /// Every envelope created in one millisecond.
    async fn group(
        &self,
        workspace_id: Uuid,
        folder: &Option<String>,
        at: DateTime<Utc>,
        dir: &str,
    ) -> SiloResult<Vec<Entry>> {
        let mut sql = format!(
            "SELECT {ENTRY_COLUMNS} FROM silo_envelopes e WHERE e.workspace_id = $1 AND e.created_at = $3"
        );
        if folder.is_some() {
            sql.push_str(" AND e.folder = $2");
        }
        sql.push_str(&format!(" ORDER BY e.id {dir}"));
        let rows = self
            .query(&sql, workspace_id, folder, &Some((millis(at), None)))
            .await?;
        Ok(rows
            .iter()
            .map(|r| rows::entry(r).map(|(e, _)| e))
            .collect::<Result<_, _>>()?)
    }

    /// Runs a list query; placeholders: $1 workspace, $2 folder, $3 ms, $4 id (when used).
    async fn query(
        &self,
        sql: &str,
        workspace_id: Uuid,
        folder: &Option<String>,
        position: &Option<(i64, Option<String>)>,
    ) -> SiloResult<Vec<AnyRow>> {
        // Placeholders must be bound up to the highest number used: bind the unused ones with
        // neutral values and reference them harmlessly.
        let uses_folder = folder.is_some();
        let mut sql = sql.to_owned();
        if !uses_folder && position.is_some() {
            sql = sql.replacen(" WHERE ", " WHERE ($2 = $2) AND ", 1);
        }
        let mut query = sqlx::query(&sql).bind(workspace_id.to_string());
        if uses_folder || position.is_some() {
            query = query.bind(folder.clone().unwrap_or_default());
        }
        if let Some((ms, id)) = position {
            query = query.bind(*ms);
            if let Some(id) = id {
                query = query.bind(id.clone());
            }
        }
        Ok(query.fetch_all(self.store().pool()).await?)
    }
}

/// Parses a `created_at` query value.
pub fn parse_time(text: &str) -> Option<DateTime<Utc>> {
    folio_api::time::parse(text).map(|t| from_millis(millis(t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let id = Uuid::now_v7();
        let t = from_millis(1_780_000_000_123);
        assert_eq!(
            decode_cursor(&encode_cursor(t, id)),
            Some((1_780_000_000_123, id))
        );
        assert_eq!(decode_cursor("nope"), None);
        assert_eq!(decode_cursor(""), None);
    }
}
