//! What a console page can fail with, as an HTML answer (the API's JSON error body is for API
//! clients; a browser gets a page). Domain errors arrive as [`ApiError`], so "not found" in
//! another workspace is the same 404 as in the API.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use folio_api::ApiError;
use maud::html;

/// A console failure.
#[derive(Debug)]
pub enum Failure {
    /// Not signed in: to the sign-in page, then back to this path.
    SignIn(String),
    /// A domain or request error, with its status and message.
    Api(ApiError),
}

impl Failure {
    /// 403 with a reason (a bad CSRF token, a cross-site request).
    pub fn forbidden(message: &str) -> Failure {
        Failure::Api(ApiError::new(StatusCode::FORBIDDEN, "forbidden", message))
    }

    /// 404.
    pub fn not_found(what: &str) -> Failure {
        Failure::Api(ApiError::not_found(format!("{what} not found")))
    }

    /// 400 with a reason.
    pub fn bad_request(message: impl Into<String>) -> Failure {
        Failure::Api(ApiError::bad_request(message))
    }

    /// 500 (logged by [`ApiError::internal`]).
    pub fn internal(cause: impl std::fmt::Display) -> Failure {
        Failure::Api(ApiError::internal(cause))
    }
}

impl<E: Into<ApiError>> From<E> for Failure {
    fn from(err: E) -> Failure {
        Failure::Api(err.into())
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        match self {
            Failure::SignIn(back) => {
                let target = format!("/console/sign-in?next={}", encode(&back));
                Redirect::to(&target).into_response()
            }
            Failure::Api(err) => {
                let body = html! {
                    (maud::DOCTYPE)
                    html lang="en" {
                        head {
                            meta charset="utf-8";
                            meta name="viewport" content="width=device-width, initial-scale=1";
                            title { (err.status.as_u16()) " · folio" }
                            link rel="stylesheet" href=(crate::assets::css_href());
                    link rel="icon" href=(crate::assets::icon_href()) type="image/svg+xml";
                        }
                        body {
                            main id="main" class="narrow" {
                                h1 { (err.status.as_u16()) " " (err.status.canonical_reason().unwrap_or("")) }
                                p class="error" { (err.body.message) }
                                p { a href="/console/envelopes" { "folio console" } }
                            }
                        }
                    }
                };
                (
                    err.status,
                    [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                    body.into_string(),
                )
                    .into_response()
            }
        }
    }
}

/// Percent-encodes a path and query for use as one query value.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}
