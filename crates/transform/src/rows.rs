//! Small helpers for decoding rows.

use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::error::{TransformError, TransformResult};

/// A uuid column.
pub fn uuid(row: &AnyRow, col: &str) -> TransformResult<Uuid> {
    let text: String = row.try_get(col)?;
    Uuid::parse_str(&text).map_err(|e| TransformError::Internal(format!("bad uuid in {col}: {e}")))
}

/// A nullable uuid column.
pub fn uuid_opt(row: &AnyRow, col: &str) -> TransformResult<Option<Uuid>> {
    let text: Option<String> = row.try_get(col)?;
    text.map(|t| {
        Uuid::parse_str(&t).map_err(|e| TransformError::Internal(format!("bad uuid in {col}: {e}")))
    })
    .transpose()
}

/// A JSON column.
pub fn json<T: serde::de::DeserializeOwned>(row: &AnyRow, col: &str) -> TransformResult<T> {
    let text: String = row.try_get(col)?;
    Ok(serde_json::from_str(&text)?)
}
