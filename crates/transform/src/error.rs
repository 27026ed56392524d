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
    #[error("{0}")]
    Conflict(String),
    /// Invalid input, with what is wrong where.
    #[error("{}", FieldError::describe(.0))]
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

// `invalid`, `From<sqlx::Error>` and the common answers: one shape across services.
folio_api::service_error!(TransformError {
    TransformError::Internal(e) => ApiError::internal(e),
});

/// Encoding a value as JSON for storage (stored JSON that does not decode is
/// `StoreError::Corrupt`).
impl From<serde_json::Error> for TransformError {
    fn from(e: serde_json::Error) -> Self {
        TransformError::Internal(format!("encoding JSON: {e}"))
    }
}
