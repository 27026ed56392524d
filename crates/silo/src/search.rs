//! Free-text search over a workspace's envelopes (the SQL is in `db/search.rs`).

use folio_api::page::{Page, Position};
use folio_store::{Scope, millis};

use crate::{Entry, Silo, SiloError, SiloResult, db};

/// What to search for.
#[derive(Debug, Clone, Default)]
pub struct SearchQuery {
    /// Words that must all match.
    pub q: String,
    /// Only envelopes in this folder.
    pub folder: Option<String>,
    /// Where the previous page ended (`cursor`).
    pub cursor: Option<Position>,
    /// Page size (already capped by the caller).
    pub limit: i64,
    /// Matches to skip (after `cursor` when given).
    pub offset: i64,
}

impl Silo {
    /// Envelopes (without data, with attachments) matching every word of the query, newest
    /// first; `next` is set when more match.
    pub async fn search(&self, ws: Scope, q: &SearchQuery) -> SiloResult<Page<Entry>> {
        let words: Vec<String> = q.q.split_whitespace().map(str::to_lowercase).collect();
        if words.is_empty() {
            return Err(SiloError::invalid("q", "required"));
        }
        let limit = q.limit.max(1);
        let after = q.cursor.map(|p| (millis(p.created_at), p.id));
        let found = db::search::Found {
            words: &words,
            folder: q.folder.as_deref(),
            after,
        };
        let entries = db::search::matching(self.store(), ws, &found, limit + 1, q.offset).await?;
        let mut page = Page::cut(entries, limit, Entry::position);
        self.attach(ws, &mut page.items).await?;
        Ok(page)
    }
}
