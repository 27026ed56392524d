//! The one error type of the public API and its JSON body.
//!
//! Every error, from a handler, an extractor, the router's fallbacks or a panic, leaves the server
//! as `{"key", "message", "fields"?, "faults"?}` with `Content-Type: application/json`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use folio_store::StoreError;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// A problem found in a document, and a value of the wrong shape at a path: one type of each
/// for all of folio (their path syntax is gobl's, see [`gobl::fault`]).
pub use gobl::{Fault, FieldError};

/// The JSON body of every error response.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// Short machine-readable word: `validation`, `not-found`, `conflict`, `unauthorized`, ...
    pub key: String,
    /// Human-readable explanation.
    pub message: String,
    /// Nested object naming the offending fields; its leaves are strings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub fields: Option<Map<String, Value>>,
    /// Faults found in a submitted document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faults: Option<Vec<Fault>>,
}

/// An error answered to the client.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// The body (boxed: errors travel in every `Result` of the request path).
    pub body: Box<ErrorBody>,
    /// Seconds to wait before retrying (sets `Retry-After`).
    pub retry_after: Option<u64>,
}

/// Result type of handlers.
pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    /// An error with a status, key and message.
    pub fn new(status: StatusCode, key: &str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            body: Box::new(ErrorBody {
                key: key.to_string(),
                message: message.into(),
                fields: None,
                faults: None,
            }),
            retry_after: None,
        }
    }

    /// 400: the request could not be read (not JSON, bad query string...).
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad-request", message)
    }

    /// 401: no token, or a token that is not valid.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    /// 404: unknown resource, or one of another workspace.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not-found", message)
    }

    /// 409: an id or key reused with different content.
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, "conflict", message)
    }

    /// 422 with one offending field, named by its path (`data.head.uuid`).
    pub fn invalid_field(path: &str, message: impl Into<String>) -> Self {
        Self::invalid_fields(vec![FieldError::new(path, message)])
    }

    /// 422 naming every offending field, in the message and in `fields`.
    pub fn invalid_fields(errors: Vec<FieldError>) -> Self {
        let mut err = Self::validation(FieldError::describe(&errors));
        for e in errors {
            err = err.with_field(&e.path, e.message);
        }
        err
    }

    /// 422 without field detail.
    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, "validation", message)
    }

    /// 500: logged with its cause here; the client learns nothing about internals.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal server error",
        )
    }

    /// Adds a field message at a path (`a.b[0].c`, or `a.b.0.c`) to the nested `fields` object,
    /// where an index is a key (`{"a": {"b": {"0": {"c": ...}}}}`).
    pub fn with_field(mut self, path: &str, message: impl Into<String>) -> Self {
        let fields = self.body.fields.get_or_insert_with(Map::new);
        insert_path(fields, path, message.into());
        self
    }

    /// Adds faults.
    pub fn with_faults(mut self, faults: Vec<Fault>) -> Self {
        self.body.faults.get_or_insert_with(Vec::new).extend(faults);
        self
    }

    /// Sets `Retry-After`.
    pub fn with_retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }
}

/// serde's complaint about a value, at the path where it is (`$` for the whole value).
pub fn field_error<E: std::fmt::Display>(err: serde_path_to_error::Error<E>) -> FieldError {
    let path = match err.path().to_string() {
        p if p == "." || p.is_empty() => "$".to_owned(),
        p => p,
    };
    FieldError::new(path, err.into_inner().to_string())
}

/// Places `message` in `fields` at a dotted path, creating the intermediate objects. Where a path
/// runs into an existing string leaf, the leaf wins: `fields` never holds arrays or mixed nodes.
fn insert_path(fields: &mut Map<String, Value>, path: &str, message: String) {
    let mut node = fields;
    let mut parts = path
        .split(['.', '[', ']'])
        .filter(|p| !p.is_empty())
        .peekable();
    while let Some(part) = parts.next() {
        if parts.peek().is_none() {
            node.entry(part.to_string())
                .or_insert(Value::String(message));
            return;
        }
        let next = node
            .entry(part.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        match next {
            Value::Object(map) => node = map,
            _ => return,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.body.key,
            self.body.message
        )
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(*self.body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::NotFound => ApiError::not_found("not found"),
            StoreError::Conflict(what) => ApiError::conflict(what),
            StoreError::Invalid(what) => ApiError::validation(what),
            other => ApiError::internal(other),
        }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(err: anyhow::Error) -> Self {
        ApiError::internal(format!("{err:#}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_nest_by_path_and_keep_string_leaves() {
        let err = ApiError::invalid_field("data.head.uuid", "must be a UUID")
            .with_field("data.head.dig", "required")
            .with_field("data.head.uuid.x", "ignored: uuid is a leaf");
        let fields = Value::Object(err.body.fields.unwrap());
        assert_eq!(
            fields,
            serde_json::json!({"data": {"head": {"uuid": "must be a UUID", "dig": "required"}}})
        );
    }

    #[test]
    fn an_index_in_brackets_nests_like_a_dotted_one() {
        let bracketed = ApiError::invalid_field("steps[1].next[0].step_id", "m");
        let dotted = ApiError::invalid_field("steps.1.next.0.step_id", "m");
        assert_eq!(bracketed.body.fields, dotted.body.fields);
        let fields = Value::Object(bracketed.body.fields.unwrap());
        assert_eq!(fields["steps"]["1"]["next"]["0"]["step_id"], "m");
    }
}
