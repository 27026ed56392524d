//! Free-text search over a workspace's envelopes (the SQL is in `db/search.rs`), and the
//! feeding of SQLite's full-text index from the rows its writes leave pending (see
//! `db/search_index.rs`).

use std::sync::atomic::Ordering;
use std::time::Duration;

use folio_api::page::{Page, Position};
use folio_store::{Backend, Scope, millis};

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

    /// Moves every row waiting for SQLite's full-text index into it, a batch a write
    /// transaction; answers how many moved (nothing to do on PostgreSQL). Search finds waiting
    /// rows as well: this changes how fast search is, never what it finds.
    pub async fn index_search(&self) -> SiloResult<u64> {
        db::search_index::index_all(self.store()).await
    }

    /// Rows waiting for SQLite's full-text index, of every workspace.
    pub async fn search_pending(&self) -> SiloResult<i64> {
        match self.store().backend() {
            Backend::Sqlite => db::search_index::pending(self.store()).await,
            Backend::Postgres => Ok(0),
        }
    }

    /// After a write that left rows for the full-text index (SQLite), makes sure a run of
    /// [`Silo::index_search`] follows within [`INDEX_AFTER`]: the writes of that time enter the
    /// index together, in one segment of it.
    pub(crate) fn index_soon(&self) {
        if self.store().backend() != Backend::Sqlite
            || self.inner.indexing.swap(true, Ordering::AcqRel)
        {
            return;
        }
        let silo = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(INDEX_AFTER).await;
            // cleared first: a write from now on asks for the next run
            silo.inner.indexing.store(false, Ordering::Release);
            if silo.store().pool().is_closed() {
                // stopping: the rows wait for the next start's first write
                return;
            }
            match silo.index_search().await {
                Ok(n) => tracing::debug!(rows = n, "search index fed"),
                Err(e) => tracing::warn!(
                    error = %e,
                    "feeding the search index failed; search still finds the waiting rows, \
                     and the next write retries"
                ),
            }
        });
    }
}

/// How long the rows of SQLite's full-text index wait for the next ones before they enter it.
const INDEX_AFTER: Duration = Duration::from_millis(25);
