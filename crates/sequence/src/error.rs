//! The service's error type; the HTTP layer maps it to the one API error body.

use folio_api::FieldError;
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
    /// Fields of the request are wrong.
    #[error("{}", FieldError::describe(.0))]
    Invalid(Vec<FieldError>),
    /// Storage failed, or a stored row does not decode (`StoreError::Corrupt`: 500, logged).
    #[error(transparent)]
    Store(#[from] StoreError),
}

// `invalid`, `From<sqlx::Error>` and the common answers: one shape across services.
folio_api::service_error!(SequenceError {});

/// Result of sequence operations.
pub type SequenceResult<T> = Result<T, SequenceError>;
