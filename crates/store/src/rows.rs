//! Decoding of stored columns every service shares: a value that does not decode is
//! [`StoreError::Corrupt`] (the server's fault, answered 500), never the client's.

use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::StoreError;

/// A UUID column.
pub fn uuid(row: &AnyRow, col: &str) -> Result<Uuid, StoreError> {
    let text: String = row.try_get(col)?;
    parse(col, &text)
}

/// A nullable UUID column.
pub fn uuid_opt(row: &AnyRow, col: &str) -> Result<Option<Uuid>, StoreError> {
    let text: Option<String> = row.try_get(col)?;
    text.map(|t| parse(col, &t)).transpose()
}

fn parse(col: &str, text: &str) -> Result<Uuid, StoreError> {
    Uuid::parse_str(text).map_err(|e| StoreError::Corrupt(format!("{col} {text:?}: {e}")))
}

/// A JSON text column.
pub fn json<T: serde::de::DeserializeOwned>(row: &AnyRow, col: &str) -> Result<T, StoreError> {
    let text: String = row.try_get(col)?;
    serde_json::from_str(&text).map_err(|e| StoreError::Corrupt(format!("{col}: {e}")))
}

/// A nullable JSON text column.
pub fn json_opt<T: serde::de::DeserializeOwned>(
    row: &AnyRow,
    col: &str,
) -> Result<Option<T>, StoreError> {
    let text: Option<String> = row.try_get(col)?;
    text.map(|t| serde_json::from_str(&t).map_err(|e| StoreError::Corrupt(format!("{col}: {e}"))))
        .transpose()
}
