//! The console's pages, one module per section.

use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::Console;
use crate::error::Failure;
use crate::i18n::{self, Lang};

pub mod envelope;
pub mod envelopes;
pub mod jobs;
pub mod series;
pub mod sign_in;
pub mod upload;
pub mod workflows;

/// `GET /console/`: the envelopes (the sign-in page first when there is no session).
pub async fn home() -> Redirect {
    Redirect::to("/console/envelopes")
}

/// Query of the language switch.
#[derive(Deserialize)]
pub struct LangQuery {
    to: String,
}

/// `GET /console/lang?to=es`: remembers the language and goes back where the switch was used.
pub async fn lang(Query(q): Query<LangQuery>, headers: HeaderMap) -> Result<Response, Failure> {
    let lang = Lang::from_code(&q.to).ok_or_else(|| Failure::bad_request("unknown language"))?;
    let back = headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.find("/console/").map(|i| r[i..].to_owned()))
        .map(|p| local_path(&p))
        .unwrap_or_else(|| "/console/envelopes".into());
    let cookie = format!(
        "{}={}; Path=/console; Max-Age=31536000; SameSite=Strict",
        i18n::COOKIE,
        lang.code()
    );
    let mut response = Redirect::to(&back).into_response();
    let value = HeaderValue::from_str(&cookie).map_err(Failure::internal)?;
    response.headers_mut().insert(header::SET_COOKIE, value);
    Ok(response)
}

/// Any other `/console/...` path.
pub async fn not_found(State(_): State<Console>) -> Failure {
    Failure::not_found("page")
}

/// A path inside the console to send a browser to; anything else (another site, `//host`) is
/// the envelope list.
pub fn local_path(path: &str) -> String {
    let inside = path.starts_with("/console/") || path == "/console";
    if inside && !path.starts_with("//") && !path.contains('\\') {
        path.to_owned()
    } else {
        "/console/envelopes".to_owned()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_console_paths_are_followed() {
        assert_eq!(super::local_path("/console/jobs?x=1"), "/console/jobs?x=1");
        assert_eq!(
            super::local_path("https://evil.example/"),
            "/console/envelopes"
        );
        assert_eq!(
            super::local_path("//evil.example/console/"),
            "/console/envelopes"
        );
        assert_eq!(super::local_path("/consolex"), "/console/envelopes");
    }
}
