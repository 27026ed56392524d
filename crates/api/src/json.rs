//! The JSON request extractor: every way a body can be wrong gets its own status and a JSON error.
//!
//! - body over the configured size → 413
//! - body not received whole within the body timeout → 408
//! - `Content-Type` present but not JSON → 415
//! - not JSON at all (syntax, truncated, nested past the parser's depth limit) → 400
//! - JSON of the wrong shape or types → 422 with `fields` naming the path

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::de::DeserializeOwned;

use crate::ctx::Ctx;
use crate::error::{ApiError, field_error};
use crate::handles::Handles;

/// JSON both ways: a request body deserialised into `T` with folio's error mapping, and a
/// response body serialised from `T` (as `axum::Json` does), so handlers name one type.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        check_content_type(&req)?;
        let bytes = read_body(req).await?;
        parse(&bytes).map(Json)
    }
}

/// A JSON body not yet read: its `Content-Type` checked and its bytes received whole, as [`Json`]
/// does, for a handler that reads them itself (with [`parse`] for every error it does not
/// answer otherwise).
#[derive(Debug, Clone)]
pub struct JsonBytes(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for JsonBytes {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        check_content_type(&req)?;
        read_body(req).await.map(JsonBytes)
    }
}

/// A body that is JSON (`T`) or, under any other declared `Content-Type`, bytes as sent: for
/// routes that take either (a file's description as JSON, or its content itself).
#[derive(Debug)]
pub enum JsonOrBytes<T> {
    /// A JSON body (or one without a `Content-Type`), parsed.
    Json(T),
    /// Any other body, as sent.
    Bytes(Bytes),
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonOrBytes<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        let json = check_content_type(&req).is_ok();
        let bytes = read_body(req).await?;
        match json {
            true => parse(&bytes).map(JsonOrBytes::Json),
            false => Ok(JsonOrBytes::Bytes(bytes)),
        }
    }
}

/// What a request body yields when the server's body-read timeout passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyTimeout;

impl std::fmt::Display for BodyTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body did not arrive within the body timeout")
    }
}

impl std::error::Error for BodyTimeout {}

fn timed_out(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(e) = source {
        if e.is::<BodyTimeout>() {
            return true;
        }
        source = e.source();
    }
    false
}

/// Reads the whole body, at most the configured `limits.body_bytes` of it (413 beyond); the
/// body-read timeout is 408. The limit is read from the request's [`Ctx`] rather than set on
/// every request by axum's `DefaultBodyLimit` layer (one request extension fewer).
pub async fn read_body(req: Request) -> Result<Bytes, ApiError> {
    let limit = Handles::of::<Ctx>(req.extensions())?.limits().body_bytes;
    let body = Limited::new(req.into_body(), limit);
    match body.collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(error) if error.is::<LengthLimitError>() => Err(payload_too_large()),
        Err(error) if timed_out(error.as_ref()) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "request-timeout",
            "the request body did not arrive in time",
        )),
        Err(error) => Err(ApiError::bad_request(format!(
            "could not read the request body: {error}"
        ))),
    }
}

/// The 413 error.
pub fn payload_too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload-too-large",
        "the request body is larger than this server accepts",
    )
}

/// A missing content type is tolerated (curl sends none with `-d @file` unless told); a
/// declared non-JSON type is refused.
fn check_content_type(req: &Request) -> Result<(), ApiError> {
    let Some(value) = req.headers().get(header::CONTENT_TYPE) else {
        return Ok(());
    };
    let mime = value.to_str().unwrap_or_default().to_ascii_lowercase();
    let essence = mime.split(';').next().unwrap_or_default().trim();
    if essence == "application/json" || essence.ends_with("+json") {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-media-type",
            format!("expected Content-Type application/json, got {essence}"),
        ))
    }
}

/// Parses JSON bytes into `T`: syntax errors are 400, shape and type errors 422 with the path.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        if err.inner().classify() != serde_json::error::Category::Data {
            return ApiError::bad_request(format!("the body is not valid JSON: {}", err.inner()));
        }
        let mut error = field_error(err);
        error.message = strip_position(&error.message);
        if error.path == "$" {
            ApiError::validation(error.message.clone()).with_field("body", error.message)
        } else {
            ApiError::invalid_fields(vec![error])
        }
    })?;
    de.end()
        .map_err(|e| ApiError::bad_request(format!("the body is not valid JSON: {e}")))?;
    // serde reads a struct from an array of its fields in order; no body here is an array
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        let message = "the body must be a JSON object, not an array";
        return Err(ApiError::validation(message).with_field("body", message));
    }
    Ok(value)
}

/// An optional integer that may be written with a zero fraction (`5.0`): JSON Schema, and so the
/// documents, count such numbers as integers. `#[serde(default, deserialize_with = ...)]`.
pub fn integral<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Option<i64>, D::Error> {
    use serde::Deserialize;
    use serde::de::Error;
    let Some(n) = Option::<serde_json::Number>::deserialize(de)? else {
        return Ok(None);
    };
    if let Some(i) = n.as_i64() {
        return Ok(Some(i));
    }
    match n.as_f64() {
        // i64::MAX as f64 rounds up to 2^63, so the upper bound is exclusive.
        Some(f) if f.fract() == 0.0 && f >= i64::MIN as f64 && f < i64::MAX as f64 => {
            Ok(Some(f as i64))
        }
        _ => Err(D::Error::custom(format!(
            "invalid number {n}, expected an integer"
        ))),
    }
}

/// serde_json appends " at line 1 column 42" to data errors; the path already says where.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Body {
        name: String,
        inner: Option<Inner>,
        #[serde(default)]
        list: Vec<Inner>,
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        size: i64,
    }

    #[test]
    fn syntax_errors_are_400() {
        let err = parse::<Body>(b"{\"name\": ").unwrap_err();
        assert_eq!(err.status, StatusCode::BAD_REQUEST);
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        assert_eq!(
            parse::<serde_json::Value>(deep.as_bytes())
                .unwrap_err()
                .status,
            400
        );
    }

    #[test]
    fn type_errors_are_422_with_the_path() {
        let err = parse::<Body>(br#"{"name": "a", "inner": {"size": "big"}}"#).unwrap_err();
        assert_eq!(err.status, StatusCode::UNPROCESSABLE_ENTITY);
        let fields = serde_json::Value::Object(err.body.fields.unwrap());
        assert!(fields["inner"]["size"].is_string(), "{fields}");
    }

    #[test]
    fn an_item_of_a_list_is_a_key_of_fields() {
        // the same nesting as the checks that name `steps.0.action` give
        let err =
            parse::<Body>(br#"{"name": "a", "list": [{"size": 1}, {"size": "big"}]}"#).unwrap_err();
        let fields = serde_json::Value::Object(err.body.fields.unwrap());
        assert!(fields["list"]["1"]["size"].is_string(), "{fields}");
        assert!(
            err.body.message.starts_with("list[1].size: "),
            "{}",
            err.body.message
        );
    }
}
