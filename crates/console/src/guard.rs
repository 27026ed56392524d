//! The console's protections on every answer and every POST.
//!
//! - Headers: a strict Content-Security-Policy (`default-src 'self'`: no inline script or
//!   style, no third-party origin), `nosniff`, framing by this origin only (the envelope page
//!   frames its own PDF), no referrer outside the origin, and no caching of pages (assets say
//!   otherwise themselves).
//! - POSTs: refused (403) when the browser says they come from another site (`Sec-Fetch-Site`)
//!   or another origin (`Origin`). With `SameSite=Strict` cookies and a CSRF token in every
//!   form of a session, a forged cross-site form has three locks to pick.

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::Failure;

/// The Content-Security-Policy of every console answer.
pub const CSP: &str = "default-src 'self'; base-uri 'none'; form-action 'self'; \
    frame-ancestors 'self'; object-src 'self'";

/// Adds the security headers to every console answer.
pub async fn headers(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    let fixed = [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "SAMEORIGIN"),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    // a page may ask for less (a sign-in link's page sends no referrer at all)
    headers
        .entry(header::REFERRER_POLICY)
        .or_insert(HeaderValue::from_static("same-origin"));
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// Refuses a POST that the browser says comes from elsewhere.
pub async fn same_origin(req: Request, next: Next) -> Response {
    if req.method() == Method::POST
        && let Err(why) = check_origin(req.headers())
    {
        return Failure::forbidden(why).into_response();
    }
    next.run(req).await
}

/// `Sec-Fetch-Site` must be `same-origin` (or `none`: typed by the user) when sent; `Origin`,
/// when sent, must name the host the request was sent to.
fn check_origin(headers: &axum::http::HeaderMap) -> Result<(), &'static str> {
    let text = |name: &HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = text(&HeaderName::from_static("sec-fetch-site"))
        && !matches!(site, "same-origin" | "none")
    {
        return Err("a cross-site request may not change anything here");
    }
    if let Some(origin) = text(&header::ORIGIN) {
        let host = text(&header::HOST).unwrap_or_default();
        let origin_host = origin.split_once("://").map(|(_, rest)| rest).unwrap_or("");
        if origin == "null" || origin_host != host {
            return Err("a request from another origin may not change anything here");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderMap;

    use super::check_origin;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, v.parse().unwrap());
        }
        map
    }

    #[test]
    fn same_origin_posts_pass_and_others_do_not() {
        let host = ("host", "127.0.0.1:8080");
        assert!(check_origin(&headers(&[host])).is_ok());
        assert!(check_origin(&headers(&[host, ("origin", "http://127.0.0.1:8080")])).is_ok());
        assert!(check_origin(&headers(&[host, ("sec-fetch-site", "same-origin")])).is_ok());
        assert!(check_origin(&headers(&[host, ("origin", "http://evil.example")])).is_err());
        assert!(check_origin(&headers(&[host, ("origin", "null")])).is_err());
        assert!(check_origin(&headers(&[host, ("sec-fetch-site", "cross-site")])).is_err());
        assert!(check_origin(&headers(&[host, ("sec-fetch-site", "same-site")])).is_err());
    }
}
