//! The `sequence` service: series that hand out consecutive codes (invoice numbers) with no gap
//! and no repeat, also under concurrent requests and with several nodes on one PostgreSQL
//! database.
//!
//! [`Sequence`] is the version-independent domain API (used by `v1` and by transform's
//! `sequence.enumerate`); its SQL lives in `db/`. An entry takes the next index of its series in
//! one transaction that locks the series row, so two entries never share an index and an index
//! is only used when its entry is stored. A repeated request for an entry id returns the entry
//! already made. `v1` is the HTTP layer of version 1.

use folio_store::Store;

mod db;
mod entries;
mod error;
mod model;
mod series;
pub mod v1;

pub use entries::EntriesFrom;
pub use error::{SequenceError, SequenceResult};
pub use model::{Entry, NewEntry, NewSeries, Series};

/// The sequence service's domain API; cheap to clone.
#[derive(Clone, Debug)]
pub struct Sequence {
    store: Store,
}

impl Sequence {
    /// A sequence service over a store.
    pub fn new(store: Store) -> Sequence {
        Sequence { store }
    }
}
