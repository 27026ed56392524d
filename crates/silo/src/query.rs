//! What the browsing and related-entries reads ask for, and the rows browsing answers: plain
//! data, apart from the domain files (`browse.rs`, `related.rs`) so the SQL in `db/` takes it
//! without importing the code that calls the SQL.

use chrono::{DateTime, Utc};
use folio_api::page::Position;
use uuid::Uuid;

use crate::model::Entry;

/// What to browse (`Silo::browse` in `browse.rs`).
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

/// What to list of the entries related to a document (`Silo::related` in `related.rs`).
#[derive(Debug, Clone)]
pub struct RelatedQuery {
    /// The document UUIDs mentioned (one, or an entry's id and its document's `uuid`).
    pub targets: Vec<Uuid>,
    /// Only references in this context.
    pub context: Option<String>,
    /// Page size (already capped).
    pub limit: i64,
    /// Created at or before this time.
    pub created_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Where the previous page ended.
    pub cursor: Option<Position>,
}
