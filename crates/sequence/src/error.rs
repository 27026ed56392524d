//! The service's error type; the HTTP layer maps it to the one API error body.

use folio_api::{ApiError, FieldError};
use folio_store::StoreError;

/// Everything a sequence operation can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum SequenceError {
    /// No such series or entry in this workspace.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// An id reused with other content.
    #[error("{0}")]
    Conflict(String),
    /// A field of the request is wrong.
    #[error("{0}")]
    Invalid(FieldError),
    /// Storage failed, or a stored row does not decode (`StoreError::Corrupt`: 500, logged).
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl SequenceError {
    /// An invalid field.
    pub fn invalid(path: &str, message: impl Into<String>) -> Self {
        SequenceError::Invalid(FieldError::new(path, message))
    }
}

impl From<sqlx::Error> for SequenceError {
    fn from(err: sqlx::Error) -> Self {
        SequenceError::Store(StoreError::from(err))
    }
}

impl From<SequenceError> for ApiError {
    fn from(err: SequenceError) -> Self {
        match err {
            SequenceError::NotFound(what) => ApiError::not_found(format!("{what} not found")),
            SequenceError::Conflict(message) => ApiError::conflict(message),
            SequenceError::Invalid(field) => ApiError::invalid_fields(vec![field]),
            SequenceError::Store(err) => ApiError::from(err),
        }
    }
}

/// Result of sequence operations.
pub type SequenceResult<T> = Result<T, SequenceError>;
