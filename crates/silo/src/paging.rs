//! Listing envelopes, newest first (or oldest first), with two paging styles.
//!
//! Order is `(created_at, id)`. Both styles are keyset paging, so envelopes stored while a client
//! pages never make it see an envelope twice or miss one that existed when it started:
//!
//! - **cursor** (`cursor` → `next_cursor`): the last listed `(created_at, id)` as
//!   [`Position::cursor`] encodes it; the next page starts strictly after it.
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

use chrono::{DateTime, Utc};
use folio_api::page::{Page, Position};
use folio_store::{Scope, millis};

use crate::db::list::Start;
use crate::error::SiloResult;
use crate::model::Entry;
use crate::{Silo, db};

/// What to list.
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    /// Page size (already capped by the caller).
    pub limit: i64,
    /// Inclusive start timestamp (created_at style).
    pub created_at: Option<DateTime<Utc>>,
    /// Where the previous page ended (cursor style; wins over `created_at`).
    pub cursor: Option<Position>,
    /// Only envelopes in this folder.
    pub folder: Option<String>,
    /// Oldest first instead of newest first.
    pub ascending: bool,
}

impl Silo {
    /// Lists envelopes (without data, with attachments).
    pub async fn list(&self, ws: Scope, q: &ListQuery) -> SiloResult<Page<Entry>> {
        let limit = q.limit.max(1);
        let folder = q.folder.as_deref();
        let start = match (q.cursor, q.created_at) {
            (Some(p), _) => Start::After(millis(p.created_at), p.id),
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
            page.next = entries.last().map(Entry::position);
        }
        self.attach(ws, &mut entries).await?;
        page.items = entries;
        Ok(page)
    }
}
