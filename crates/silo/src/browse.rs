//! Browsing envelopes as a person does (the web console): newest first, filtered by type, state,
//! storage date and search words together, with keyset paging that stays fast however many
//! envelopes there are, and each row's headline facts (number, parties, total) as stored with
//! its current version (`summary.rs`). The SQL is in `db/browse.rs`; the query and its rows are plain data in
//! `query.rs`, which both this file and the SQL import.

use folio_api::page::Page;
use folio_store::Scope;

use crate::query::{BrowseQuery, Browsed};
use crate::{Silo, SiloResult, db};

impl Silo {
    /// A page of envelopes matching `q`, newest first; `next` is set when another follows.
    pub async fn browse(&self, ws: Scope, q: &BrowseQuery) -> SiloResult<Page<Browsed>> {
        let limit = q.limit.max(1);
        let items = db::browse::page(self.store(), ws, q, limit + 1).await?;
        Ok(Page::cut(items, limit, |b| b.entry.position()))
    }
}
