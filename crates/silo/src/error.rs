//! The domain's error type; the HTTP layers map it to the one API error body.

use folio_api::{ApiError, FieldError};
use folio_store::StoreError;
use gobl::Fault;

/// Everything a silo operation can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum SiloError {
    /// No such envelope, version or file in this workspace.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// An id or key reused with other content, or a change a signed envelope forbids.
    #[error("{0}")]
    Conflict(String),
    /// Fields of the request are wrong, e.g. `data.head.uuid`: required.
    #[error("{}", FieldError::describe(.0))]
    Invalid(Vec<FieldError>),
    /// The document or envelope breaks a GOBL rule (digest, signatures, calculation).
    #[error("{message}")]
    Faults {
        /// Summary.
        message: String,
        /// The faults, each with its code and paths.
        faults: Vec<Fault>,
    },
    /// A limit (files per envelope, file size) is exceeded.
    #[error("{0}")]
    Limit(String),
    /// A file is larger than the limit.
    #[error("{0}")]
    TooLarge(String),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl SiloError {
    /// One GOBL fault.
    pub fn fault(fault: Fault) -> Self {
        SiloError::Faults {
            message: fault.to_string(),
            faults: vec![fault],
        }
    }
}

// `invalid`, `From<sqlx::Error>` and the common answers: one shape across services.
folio_api::service_error!(SiloError {
    SiloError::Faults { message, faults } => ApiError::validation(message).with_faults(faults),
    SiloError::Limit(message) => ApiError::validation(message),
    SiloError::TooLarge(message) => ApiError::new(
        axum::http::StatusCode::PAYLOAD_TOO_LARGE,
        "payload-too-large",
        message,
    ),
});

/// Result of silo operations.
pub type SiloResult<T> = Result<T, SiloError>;
