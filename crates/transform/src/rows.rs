//! Small helpers for decoding rows.

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::error::TransformResult;

pub use folio_store::rows::{uuid, uuid_opt};

/// A JSON column.
pub fn json<T: serde::de::DeserializeOwned>(row: &AnyRow, col: &str) -> TransformResult<T> {
    let text: String = row.try_get(col)?;
    Ok(serde_json::from_str(&text)?)
}
