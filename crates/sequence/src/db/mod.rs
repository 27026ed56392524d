//! Every SQL statement of the service. Functions take the workspace first; no statement runs
//! without it.

pub(crate) mod entries;
pub(crate) mod series;

use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::SequenceError;

/// A UUID column.
fn uuid(row: &AnyRow, col: &str, what: &'static str) -> Result<Uuid, SequenceError> {
    let text: String = row.try_get(col)?;
    Uuid::parse_str(&text).map_err(|e| SequenceError::corrupt(what, e))
}

/// A nullable UUID column.
fn uuid_opt(row: &AnyRow, col: &str, what: &'static str) -> Result<Option<Uuid>, SequenceError> {
    let text: Option<String> = row.try_get(col)?;
    text.map(|t| Uuid::parse_str(&t).map_err(|e| SequenceError::corrupt(what, e)))
        .transpose()
}
