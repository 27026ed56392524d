//! The service's error type; the HTTP layer maps it to the one API error body.

use folio_api::ApiError;
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
    /// A field of the request is wrong: (path, message).
    #[error("{0}: {1}")]
    Invalid(String, String),
    /// A stored row does not decode: a server fault (500), never the client's.
    #[error("corrupt {0} row")]
    Corrupt(&'static str),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl SequenceError {
    /// An invalid field.
    pub fn invalid(path: &str, message: impl Into<String>) -> Self {
        SequenceError::Invalid(path.into(), message.into())
    }

    /// A stored row that does not decode: a server fault, logged, never the client's.
    pub(crate) fn corrupt(what: &'static str, cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "corrupt {what} row");
        SequenceError::Corrupt(what)
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
            SequenceError::Invalid(path, message) => ApiError::invalid_field(&path, message),
            SequenceError::Corrupt(what) => ApiError::internal(format!("corrupt {what} row")),
            SequenceError::Store(err) => ApiError::from(err),
        }
    }
}

/// Result of sequence operations.
pub type SequenceResult<T> = Result<T, SequenceError>;
