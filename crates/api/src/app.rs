//! Assembles the public application from the registry: per-version layers (lifecycle headers,
//! 410 after sunset), each version's `openapi.json`, and the layers every request passes
//! (request id, tracing span, JSON errors for 404/405/413/panics, metrics; the body limit is the
//! JSON extractor's, `crate::json`).

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::Utc;
use tower::ServiceBuilder;
use tower::util::MapResponseLayer;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::handles::Handles;
use crate::observe::{Observe, service_of};
use crate::registry::{Lifecycle, Registry, prefix};
use crate::request_id::{REQUEST_ID, RequestIdLayer};

/// Builds the public router. `handles` (the services' domain handles), with `ctx` and the
/// discovery catalog added, is one request extension that [`crate::Handle`] reads.
pub fn router(registry: Registry, ctx: Ctx, handles: Handles) -> Router {
    let catalog = Arc::new(registry.catalog());
    let mut app = Router::new();
    for (service, version, routes, lifecycle, doc) in registry.into_versions() {
        let doc = Arc::new(crate::openapi::Served::new(
            doc,
            service,
            version,
            lifecycle.clone(),
        ));
        let docs_path = format!("{}/openapi.json", prefix(service, version));
        let mut versioned = routes.route(
            &docs_path,
            get(move || {
                let doc = doc.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], doc.text()) }
            }),
        );
        // A stable version has no headers to add: no layer for it to pass through.
        if matches!(lifecycle, Lifecycle::Deprecated { .. }) {
            versioned =
                versioned.route_layer(middleware::from_fn(move |req: Request, next: Next| {
                    let lifecycle = lifecycle.clone();
                    async move { lifecycle_headers(service, lifecycle, req, next).await }
                }));
        }
        app = app.merge(versioned);
    }
    // The layers every request passes, outermost first, as one layer: axum puts each
    // `Router::layer` around every route separately, as a boxed service that is cloned on
    // each call, so a stack of them costs an allocation and a clone per layer and request.
    let ids = ServiceBuilder::new().layer(RequestIdLayer);
    let inner = ServiceBuilder::new()
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::internal("a handler panicked").into_response()
        }))
        .layer(axum::Extension(handles.with(ctx).with(catalog)))
        .layer(MapResponseLayer::new(json_errors))
        .layer(Observe);
    let app = app
        .fallback(unknown_endpoint)
        .method_not_allowed_fallback(wrong_method);
    if !request_log() {
        return app.layer(ids.layer(inner));
    }
    let trace = TraceLayer::new_for_http()
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
        .on_response(DefaultOnResponse::new().level(tracing::Level::INFO));
    app.layer(ids.layer(trace).layer(inner))
}

/// Whether the log takes the per-request span and line (INFO): when it does not (the default
/// level is WARN), the trace layer is left out rather than timing every request and response
/// body for nothing. The filter is set once at start-up, before the router is built.
fn request_log() -> bool {
    tracing::enabled!(tracing::Level::INFO)
        || tracing::enabled!(target: "tower_http::trace::on_response", tracing::Level::INFO)
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
fn json_errors(response: Response) -> Response {
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
