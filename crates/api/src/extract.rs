//! `Path` and `Query` extractors whose rejections are folio's JSON errors (422 naming the
//! parameter) instead of axum's plain-text ones.

use axum::extract::{FromRequestParts, rejection::PathRejection};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::{ApiError, field_error};

/// Path parameters deserialised into `T`.
#[derive(Debug)]
pub struct Path<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(PathRejection::FailedToDeserializePathParams(err)) => {
                let message = err.body_text();
                Err(match err.into_kind() {
                    axum::extract::path::ErrorKind::ParseErrorAtKey { key, .. }
                    | axum::extract::path::ErrorKind::InvalidUtf8InPathParam { key } => {
                        ApiError::invalid_field(&key, message)
                    }
                    _ => ApiError::validation(message),
                })
            }
            Err(other) => Err(ApiError::internal(other)),
        }
    }
}

/// Query parameters deserialised into `T`.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or_default();
        let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(de)
            .map(Query)
            .map_err(|err| match field_error(err) {
                e if e.path == "$" => ApiError::validation(format!("query: {}", e.message)),
                e => ApiError::invalid_fields(vec![e]),
            })
    }
}
