//! The service's error type; the HTTP layer maps it to the one API error body.

use folio_api::{ApiError, FieldError};
use folio_store::StoreError;

/// Everything an access operation can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum AccessError {
    /// The token's workspace is gone (deleted after the token was issued): `"workspace"`.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// Not raised by access today; here so every service error has the same shape.
    #[error("{0}")]
    Conflict(String),
    /// A unique value (slug, name) is another workspace's.
    #[error("{}", .0.message)]
    Taken(FieldError),
    /// Fields of the request are wrong.
    #[error("{}", FieldError::describe(.0))]
    Invalid(Vec<FieldError>),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

// `invalid`, `From<sqlx::Error>` and the common answers: one shape across services.
folio_api::service_error!(AccessError {
    AccessError::Taken(field) => {
        ApiError::conflict(field.message.clone()).with_field(&field.path, field.message)
    }
});

/// Result of access operations.
pub type AccessResult<T> = Result<T, AccessError>;
