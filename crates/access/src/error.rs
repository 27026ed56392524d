//! The service's error type; the HTTP layer maps it to the one API error body.

use folio_api::{ApiError, FieldError};
use folio_store::StoreError;

/// Everything an access operation can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum AccessError {
    /// The token's workspace is gone (deleted after the token was issued).
    #[error("workspace not found")]
    NotFound,
    /// A unique value (slug, name) is another workspace's.
    #[error("{}", .0.message)]
    Taken(FieldError),
    /// Fields of the request are wrong.
    #[error("invalid fields")]
    Invalid(Vec<FieldError>),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for AccessError {
    fn from(err: sqlx::Error) -> Self {
        AccessError::Store(StoreError::from(err))
    }
}

impl From<AccessError> for ApiError {
    fn from(err: AccessError) -> Self {
        match err {
            AccessError::NotFound => ApiError::not_found("workspace not found"),
            AccessError::Taken(field) => {
                ApiError::conflict(field.message.clone()).with_field(&field.path, field.message)
            }
            AccessError::Invalid(fields) => ApiError::invalid_fields(fields),
            AccessError::Store(err) => ApiError::from(err),
        }
    }
}

/// Result of access operations.
pub type AccessResult<T> = Result<T, AccessError>;
