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
use folio_store::{Scope, from_millis, millis};
use uuid::Uuid;

use crate::db::list::Start;
use crate::error::{SiloError, SiloResult};
use crate::model::Entry;
use crate::{Silo, db};

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
    pub async fn list(&self, ws: Scope, q: &ListQuery) -> SiloResult<Page> {
        let limit = q.limit.max(1);
        let folder = q.folder.as_deref();
        let start = match (&q.cursor, q.created_at) {
            (Some(cursor), _) => {
                let (ms, id) = decode_cursor(cursor).ok_or_else(|| {
                    SiloError::invalid("cursor", "not a cursor given by this API")
                })?;
                Start::After(ms, id)
            }
            (None, Some(t)) => Start::From(millis(t)),
            (None, None) => Start::First,
        };
        let mut entries =
            db::list::page(self.store(), ws, folder, start, q.ascending, limit + 1).await?;
        let mut page = Page::default();
        if entries.len() as i64 > limit {
            let boundary = entries[limit as usize].created_at;
            entries.truncate(limit as usize);
            if q.cursor.is_none() {
                // Keep timestamp groups whole (see the module docs).
                while entries.last().is_some_and(|e| e.created_at == boundary) {
                    entries.pop();
                }
                page.next_created_at = Some(boundary);
                if entries.is_empty() {
                    entries = db::list::created_at(
                        self.store(),
                        ws,
                        folder,
                        millis(boundary),
                        q.ascending,
                    )
                    .await?;
                    let step = chrono::Duration::milliseconds(if q.ascending { 1 } else { -1 });
                    page.next_created_at = Some(boundary + step);
                }
            }
            let last = &entries[entries.len() - 1];
            page.next_cursor = Some(encode_cursor(last.created_at, last.id));
        }
        self.attach(ws, &mut entries).await?;
        page.entries = entries;
        Ok(page)
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
