//! The service's records.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use uuid::Uuid;

/// A series: how its codes are written and where it has got to.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Id (client-chosen, any UUID version).
    pub id: Uuid,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed (an entry taken).
    pub updated_at: DateTime<Utc>,
    /// How its codes are written, as created.
    pub def: NewSeries,
    /// The last index handed out, if any.
    pub last_index: Option<i64>,
    /// The entry that took it.
    pub last_entry_id: Option<Uuid>,
}

impl Series {
    /// A series not used yet.
    pub fn fresh(id: Uuid, def: NewSeries) -> Series {
        let now = folio_store::now();
        Series {
            id,
            created_at: now,
            updated_at: now,
            def,
            last_index: None,
            last_entry_id: None,
        }
    }

    /// The code of the entry at `index`: prefix, zero-padded number, suffix.
    pub fn code_at(&self, index: i64) -> String {
        let width = usize::try_from(self.def.padding).unwrap_or(0);
        format!("{}{index:0width$}{}", self.def.prefix, self.def.suffix)
    }

    /// The index the next entry takes.
    pub fn next_index(&self) -> i64 {
        self.last_index.map_or(self.def.start, |i| i + 1)
    }
}

/// How a series writes its codes: what a client creates it with.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewSeries {
    /// Name (required).
    pub name: String,
    /// Internal code (not part of its entries' codes).
    pub code: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Written before the number.
    pub prefix: String,
    /// Written after the number.
    pub suffix: String,
    /// Digits of the number, zero-padded: 0 to [`MAX_PADDING`].
    pub padding: i64,
    /// The first index, 0 or more.
    pub start: i64,
}

/// The widest zero padding.
pub const MAX_PADDING: i64 = 20;

/// An entry: one code handed out.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Id (client-chosen).
    pub id: Uuid,
    /// Its series.
    pub series_id: Uuid,
    /// Its index in the series.
    pub index: i64,
    /// Its code.
    pub code: String,
    /// The entry before it in the series.
    pub previous_id: Option<Uuid>,
    /// String metadata.
    pub meta: BTreeMap<String, String>,
    /// JSON Web Signatures given with it.
    pub sigs: Vec<String>,
    /// When it was made.
    pub created_at: DateTime<Utc>,
}

/// An entry to make.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewEntry {
    /// String metadata.
    pub meta: BTreeMap<String, String>,
    /// A JSON Web Signature of the entry's key properties.
    pub sig: Option<String>,
}
