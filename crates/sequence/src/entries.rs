//! Taking codes: the one place an index is handed out.

use folio_api::page::{Page, Position};
use folio_store::Scope;
use uuid::Uuid;

use crate::{Entry, NewEntry, Sequence, SequenceError, SequenceResult, db};

impl Sequence {
    /// Makes the entry `id` in a series, taking the series' next index and code. A repeated
    /// request for the same id returns the entry made the first time (its code does not change).
    pub async fn create_entry(
        &self,
        scope: Scope,
        series_id: Uuid,
        id: Uuid,
        new: NewEntry,
    ) -> SequenceResult<Entry> {
        let postgres = self.store.backend() == folio_store::Backend::Postgres;
        let mut tx = self.store.begin_write().await?;
        // the series row is locked before the entry is looked for: a concurrent request for
        // the same id waits here, then finds the entry
        let Some(mut series) = db::series::lock(&mut tx, postgres, scope, series_id).await? else {
            return Err(SequenceError::NotFound("series"));
        };
        if let Some(existing) = db::entries::get(&mut tx, scope, series_id, id).await? {
            tx.commit().await?;
            return Ok(existing);
        }
        let now = folio_store::now();
        let index = series.next_index();
        let entry = Entry {
            id,
            series_id,
            index,
            code: series.code_at(index),
            previous_id: series.last_entry_id,
            meta: new.meta,
            sigs: new.sig.into_iter().collect(),
            created_at: now,
        };
        db::entries::insert(&mut tx, scope, &entry).await?;
        series.last_index = Some(index);
        series.last_entry_id = Some(id);
        series.updated_at = now;
        db::series::advance(&mut tx, scope, &series).await?;
        tx.commit().await?;
        Ok(entry)
    }

    /// One entry.
    pub async fn entry(&self, scope: Scope, series_id: Uuid, id: Uuid) -> SequenceResult<Entry> {
        db::entries::get(self.store.pool(), scope, series_id, id)
            .await?
            .ok_or(SequenceError::NotFound("entry"))
    }

    /// A page of a series' entries, newest first, from `from`; `next` is the last entry's
    /// place when more follow.
    pub async fn entries(
        &self,
        scope: Scope,
        series_id: Uuid,
        from: EntriesFrom,
        limit: i64,
    ) -> SequenceResult<Page<Entry>> {
        self.series(scope, series_id).await?;
        let limit = limit.max(1);
        let before = match from {
            EntriesFrom::First => None,
            EntriesFrom::BelowIndex(index) => Some(index),
            // the cursor names the last entry of the previous page; the list is in index order
            EntriesFrom::After(place) => {
                match db::entries::get(self.store.pool(), scope, series_id, place.id).await? {
                    Some(entry) => Some(entry.index),
                    None => {
                        return Err(SequenceError::invalid(
                            "cursor",
                            "not a cursor of this list",
                        ));
                    }
                }
            }
        };
        let entries = db::entries::list(&self.store, scope, series_id, before, limit + 1).await?;
        Ok(Page::cut(entries, limit, |e| Position {
            created_at: e.created_at,
            id: e.id,
        }))
    }
}

/// Where a page of entries starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntriesFrom {
    /// At the newest entry.
    First,
    /// Below this index (the list's older style of cursor).
    BelowIndex(i64),
    /// After this entry (the opaque cursor: the last entry of the previous page).
    After(Position),
}
