//! The transform domain's error type and its mapping to the API error.

use folio_api::{ApiError, FieldError};
use folio_store::StoreError;

/// What can go wrong in the transform domain.
#[derive(Debug, thiserror::Error)]
pub enum TransformError {
    /// Unknown (or another workspace's) workflow or job.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// An id or key reused with different content.
    #[error("conflict: {0}")]
    Conflict(String),
    /// Invalid input, with what is wrong where.
    #[error("invalid: {}", FieldError::describe(.0))]
    Invalid(Vec<FieldError>),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Something that should not happen.
    #[error("internal: {0}")]
    Internal(String),
}

/// Result of domain calls.
pub type TransformResult<T> = Result<T, TransformError>;

impl TransformError {
    /// One invalid field.
    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        TransformError::Invalid(vec![FieldError::new(path, message)])
    }
}

impl From<sqlx::Error> for TransformError {
    fn from(e: sqlx::Error) -> Self {
        TransformError::Store(StoreError::from(e))
    }
}

/// Encoding a value as JSON for storage (stored JSON that does not decode is
/// `StoreError::Corrupt`).
impl From<serde_json::Error> for TransformError {
    fn from(e: serde_json::Error) -> Self {
        TransformError::Internal(format!("encoding JSON: {e}"))
    }
}

impl From<TransformError> for ApiError {
    fn from(err: TransformError) -> Self {
        match err {
            TransformError::NotFound(what) => ApiError::not_found(format!("{what} not found")),
            TransformError::Conflict(what) => ApiError::conflict(what),
            TransformError::Invalid(fields) => ApiError::invalid_fields(fields),
            TransformError::Store(e) => ApiError::from(e),
            TransformError::Internal(e) => ApiError::internal(e),
        }
    }
}
