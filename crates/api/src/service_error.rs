//! One shape for the services' error enums (silo, transform, sequence, access). Each enum has
//! the same four common variants, with the same payloads and the same `Display`:
//!
//! ```text
//! #[error("{0} not found")]                       NotFound(&'static str),
//! #[error("{0}")]                                 Conflict(String),
//! #[error("{}", FieldError::describe(.0))]        Invalid(Vec<FieldError>),
//! #[error(transparent)]                           Store(#[from] StoreError),
//! ```
//!
//! and [`service_error!`](crate::service_error) writes what would otherwise be repeated in each
//! service: the `invalid(path, message)` constructor, `From<sqlx::Error>`, and the
//! `From<…> for ApiError` that answers the common variants the same way everywhere (404, 409,
//! 422 with `fields`, the store's answer); only the service's own variants are mapped by hand.

#[doc(hidden)]
pub use folio_store::StoreError as __StoreError;

/// Implements the common part of a service error enum (see [the module](self)): `invalid`,
/// `From<sqlx::Error>` and `From<$error> for ApiError`, with the answers to the service's own
/// variants given as match arms.
///
/// ```ignore
/// folio_api::service_error!(SiloError {
///     SiloError::Limit(message) => ApiError::validation(message),
/// });
/// ```
#[macro_export]
macro_rules! service_error {
    ($error:ident { $($own:pat => $answer:expr),* $(,)? }) => {
        impl $error {
            /// One invalid field, named by its path (`data.head.uuid`).
            pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
                $error::Invalid(vec![$crate::FieldError::new(path, message)])
            }
        }

        impl From<sqlx::Error> for $error {
            fn from(err: sqlx::Error) -> Self {
                $error::Store($crate::service_error::__StoreError::from(err))
            }
        }

        impl From<$error> for $crate::ApiError {
            fn from(err: $error) -> Self {
                match err {
                    $error::NotFound(what) => {
                        $crate::ApiError::not_found(format!("{what} not found"))
                    }
                    $error::Conflict(message) => $crate::ApiError::conflict(message),
                    $error::Invalid(fields) => $crate::ApiError::invalid_fields(fields),
                    $error::Store(err) => $crate::ApiError::from(err),
                    $($own => $answer,)*
                }
            }
        }
    };
}
