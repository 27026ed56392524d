//! Browsing envelopes as a person does (the web console): newest first, filtered by type, state,
//! storage date and search words together, with keyset paging that stays fast however many
//! envelopes there are, and each row's headline facts (number, parties, total) read from its
//! current version. The SQL is in `db/browse.rs`.

use chrono::{DateTime, Utc};
use folio_api::page::{Page, Position};
use folio_store::Scope;

use crate::{Entry, Silo, SiloResult, db};

/// What to browse.
#[derive(Debug, Clone, Default)]
pub struct BrowseQuery {
    /// Every word must match (key, series-code, parties' names and tax ids); none: all.
    pub words: Vec<String>,
    /// Only this document type (`bill/invoice`).
    pub doc_type: Option<String>,
    /// Only envelopes whose latest state is this.
    pub state: Option<String>,
    /// Stored at or after.
    pub from: Option<DateTime<Utc>>,
    /// Stored before.
    pub until: Option<DateTime<Utc>>,
    /// Continue after this envelope (the previous page's last).
    pub cursor: Option<Position>,
    /// Page size.
    pub limit: i64,
}

/// One browsed envelope: its entry (without data and files) and its headline facts.
#[derive(Debug, Clone)]
pub struct Browsed {
    /// The envelope.
    pub entry: Entry,
    /// Series and code.
    pub number: Option<String>,
    /// Supplier's name.
    pub supplier: Option<String>,
    /// Customer's name.
    pub customer: Option<String>,
    /// Currency.
    pub currency: Option<String>,
    /// Amount payable.
    pub payable: Option<String>,
}

impl Silo {
    /// A page of envelopes matching `q`, newest first; `next` is set when another follows.
    pub async fn browse(&self, ws: Scope, q: &BrowseQuery) -> SiloResult<Page<Browsed>> {
        let limit = q.limit.max(1);
        let items = db::browse::page(self.store(), ws, q, limit + 1).await?;
        Ok(Page::cut(items, limit, |b| b.entry.position()))
    }
}
