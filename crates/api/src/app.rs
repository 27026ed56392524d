//! Assembles the public application from the registry: per-version layers (attribution, metrics,
//! lifecycle headers, 410 after sunset), each version's `openapi.json`, and the layers every
//! request passes (request id, tracing span, body limit, JSON errors for 404/405/413/panics).

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::Utc;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::registry::{Lifecycle, Registry, prefix};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Which service version answered a request; set as a request extension.
#[derive(Debug, Clone)]
pub struct Attribution {
    /// Service name.
    pub service: &'static str,
    /// `v1`, `v2`...
    pub version: String,
}

/// Builds the public router. `ctx` and the discovery catalog are installed as extensions;
/// services add their own extensions on the returned router.
pub fn router(registry: Registry, ctx: Ctx) -> Router {
    let catalog = Arc::new(registry.catalog());
    let body_limit = ctx.limits().body_bytes;
    let mut app = Router::new();
    for (service, version, routes, lifecycle, doc) in registry.into_versions() {
        let attribution = Attribution {
            service,
            version: format!("v{version}"),
        };
        let doc = Arc::new(crate::openapi::snapshot(&doc));
        let docs_path = format!("{}/openapi.json", prefix(service, version));
        let versioned = routes
            .route(
                &docs_path,
                get(move || {
                    let doc = doc.clone();
                    async move {
                        (
                            [(header::CONTENT_TYPE, "application/json")],
                            doc.as_ref().clone(),
                        )
                    }
                }),
            )
            .route_layer(middleware::from_fn(move |req: Request, next: Next| {
                let attribution = attribution.clone();
                async move { observe(attribution, req, next).await }
            }))
            .route_layer(middleware::from_fn(move |req: Request, next: Next| {
                let lifecycle = lifecycle.clone();
                async move { lifecycle_headers(service, lifecycle, req, next).await }
            }));
        app = app.merge(versioned);
    }
    app.fallback(unknown_endpoint)
        .method_not_allowed_fallback(wrong_method)
        .layer(middleware::from_fn(json_errors))
        .layer(axum::Extension(catalog))
        .layer(axum::Extension(ctx))
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::internal("a handler panicked").into_response()
        }))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &axum::http::Request<Body>| {
                    let (service, version) = service_of(req.uri().path());
                    let id = req
                        .headers()
                        .get(&REQUEST_ID)
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or_default();
                    tracing::info_span!("request", method = %req.method(), path = %req.uri().path(),
                    service, version, request_id = id)
                })
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
}

/// Service and version named by a path, as far as it names them (for logs of any request).
fn service_of(path: &str) -> (&str, &str) {
    let mut parts = path.trim_start_matches('/').splitn(3, '/');
    (parts.next().unwrap_or(""), parts.next().unwrap_or(""))
}

/// Records the request metrics, labelled by service, version, route and status.
async fn observe(attribution: Attribution, mut req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "unmatched".into());
    let method = req.method().clone();
    let labels = [
        ("service", attribution.service.to_string()),
        ("version", attribution.version.clone()),
        ("route", route),
        ("method", method.to_string()),
    ];
    req.extensions_mut().insert(attribution);
    let started = Instant::now();
    let response = next.run(req).await;
    let status = response.status().as_u16().to_string();
    let mut all = labels.to_vec();
    all.push(("status", status));
    metrics::counter!("folio_http_requests_total", &all).increment(1);
    metrics::histogram!("folio_http_request_duration_seconds", &labels)
        .record(started.elapsed().as_secs_f64());
    response
}

/// RFC 9745 `Deprecation`, RFC 8594 `Sunset` and the successor `Link` on every response of a
/// deprecated version, errors included; 410 with the JSON error body once the sunset has passed.
async fn lifecycle_headers(
    service: &'static str,
    lifecycle: Lifecycle,
    req: Request,
    next: Next,
) -> Response {
    let Lifecycle::Deprecated {
        deprecated_at,
        sunset_at,
        successor,
    } = lifecycle
    else {
        return next.run(req).await;
    };
    let successor_path = prefix(service, successor);
    let mut response = if Utc::now() >= sunset_at {
        ApiError::new(
            StatusCode::GONE,
            "gone",
            format!(
                "this version was retired on {}; use {successor_path}/",
                crate::time::format(&sunset_at)
            ),
        )
        .into_response()
    } else {
        next.run(req).await
    };
    let headers = response.headers_mut();
    let values = [
        (
            HeaderName::from_static("deprecation"),
            format!("@{}", deprecated_at.timestamp()),
        ),
        (
            header::HeaderName::from_static("sunset"),
            sunset_at.format("%a, %d %b %Y %H:%M:%S GMT").to_string(),
        ),
        (
            header::LINK,
            format!("<{successor_path}/openapi.json>; rel=\"successor-version\""),
        ),
    ];
    for (name, value) in values {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.append(name, value);
        }
    }
    response
}

async fn unknown_endpoint(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("no endpoint {method} {}", uri.path()))
}

async fn wrong_method(method: Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method-not-allowed",
        format!("{} does not accept {method}", uri.path()),
    )
}

/// Whatever produced an error status without a JSON body (a layer, an extractor of axum's own),
/// the client still gets the one error body.
async fn json_errors(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    let error = match status {
        StatusCode::PAYLOAD_TOO_LARGE => crate::json::payload_too_large(),
        StatusCode::METHOD_NOT_ALLOWED => {
            ApiError::new(status, "method-not-allowed", "method not allowed")
        }
        StatusCode::NOT_FOUND => ApiError::not_found("not found"),
        s if s.is_server_error() => ApiError::internal(format!("{s} without a body")),
        s => ApiError::new(
            s,
            "bad-request",
            s.canonical_reason().unwrap_or("bad request"),
        ),
    };
    let fresh = error.into_response();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, fresh.into_body())
}
