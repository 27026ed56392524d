//! Assembles the public application from the registry: per-version layers (attribution, metrics,
//! lifecycle headers, 410 after sunset), each version's `openapi.json`, and the layers every
//! request passes (request id, tracing span, body limit, JSON errors for 404/405/413/panics).

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::Utc;
use metrics::{Counter, Histogram};
use tower::util::MapResponseLayer;
use tower::{Layer, Service, ServiceBuilder};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::ctx::Ctx;
use crate::error::ApiError;
use crate::handles::Handles;
use crate::registry::{Lifecycle, Registry, prefix};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Which service version answered a request; set as a request extension.
#[derive(Debug, Clone)]
pub struct Attribution {
    /// Service name.
    pub service: &'static str,
    /// `v1`, `v2`...
    pub version: Arc<str>,
}

/// Builds the public router. `handles` (the services' domain handles), with `ctx` and the
/// discovery catalog added, is one request extension that [`crate::Handle`] reads.
pub fn router(registry: Registry, ctx: Ctx, handles: Handles) -> Router {
    let catalog = Arc::new(registry.catalog());
    let body_limit = ctx.limits().body_bytes;
    let mut app = Router::new();
    for (service, version, routes, lifecycle, doc) in registry.into_versions() {
        let attribution = Attribution {
            service,
            version: format!("v{version}").into(),
        };
        let doc = Arc::new(crate::openapi::snapshot(&doc));
        let docs_path = format!("{}/openapi.json", prefix(service, version));
        let mut versioned = routes
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
            .route_layer(Observe { attribution });
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
    let ids = ServiceBuilder::new()
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeUuid))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID));
    let inner = ServiceBuilder::new()
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::internal("a handler panicked").into_response()
        }))
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::Extension(handles.with(ctx).with(catalog)))
        .layer(MapResponseLayer::new(json_errors));
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

/// Request ids: random (v4) UUIDs, formatted on the stack rather than into a `String`.
#[derive(Clone, Copy)]
struct MakeUuid;

impl MakeRequestId for MakeUuid {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        let mut text = uuid::Uuid::encode_buffer();
        let id = uuid::Uuid::new_v4().hyphenated().encode_lower(&mut text);
        HeaderValue::from_str(id).ok().map(RequestId::new)
    }
}

/// Service and version named by a path, as far as it names them (for logs of any request).
fn service_of(path: &str) -> (&str, &str) {
    let mut parts = path.trim_start_matches('/').splitn(3, '/');
    (parts.next().unwrap_or(""), parts.next().unwrap_or(""))
}

/// Records the request metrics, labelled by service, version, route, method and status, and
/// sets the [`Attribution`] extension. A route layer: each route (and method) gets its own
/// [`Observed`] service with its own cache of metric handles.
#[derive(Clone)]
struct Observe {
    attribution: Attribution,
}

impl<S> Layer<S> for Observe {
    type Service = Observed<S>;

    fn layer(&self, inner: S) -> Observed<S> {
        Observed {
            inner,
            metrics: Arc::new(RouteMetrics {
                attribution: self.attribution.clone(),
                seen: RwLock::default(),
            }),
        }
    }
}

/// What an [`Observed`] route answers with.
type ObservedFuture = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

/// The service [`Observe`] wraps a route in.
#[derive(Clone)]
struct Observed<S> {
    inner: S,
    metrics: Arc<RouteMetrics>,
}

impl<S> Service<Request> for Observed<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = ObservedFuture;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: Request) -> Self::Future {
        let route = req.extensions().get::<MatchedPath>().cloned();
        let method = req.method().clone();
        req.extensions_mut()
            .insert(self.metrics.attribution.clone());
        let metrics = self.metrics.clone();
        let started = Instant::now();
        let response = self.inner.call(req);
        Box::pin(async move {
            let response = response.await?;
            let route = route.as_ref().map_or("unmatched", MatchedPath::as_str);
            let key = (route, &method, response.status().as_u16());
            metrics.record(key, started.elapsed().as_secs_f64());
            Ok(response)
        })
    }
}

/// Route, method and status: what the request metrics of one version are labelled with.
type MetricKey<'a> = (&'a str, &'a Method, u16);

/// The request metrics of one route. Looking a metric handle up by its labels allocates and
/// hashes every label; a route sees few (method, status) pairs, so it keeps their handles.
struct RouteMetrics {
    attribution: Attribution,
    seen: RwLock<Vec<MetricHandles>>,
}

/// Metric handles of one (route, method, status).
struct MetricHandles {
    route: Box<str>,
    method: Method,
    status: u16,
    requests: Counter,
    duration: Histogram,
}

/// Pairs a [`RouteMetrics`] keeps at most (a route nesting many paths would have more); beyond
/// it, handles are looked up by label.
const HANDLES_PER_ROUTE: usize = 32;

impl RouteMetrics {
    /// Counts a request and records its duration.
    fn record(&self, key: MetricKey<'_>, seconds: f64) {
        let (route, method, status) = key;
        let seen = self.seen.read().unwrap_or_else(|e| e.into_inner());
        let hit =
            |h: &&MetricHandles| h.status == status && h.method == *method && *h.route == *route;
        if let Some(h) = seen.iter().find(hit) {
            h.record(seconds);
            return;
        }
        drop(seen);
        let found = MetricHandles::register(&self.attribution, key);
        found.record(seconds);
        let mut seen = self.seen.write().unwrap_or_else(|e| e.into_inner());
        if seen.len() < HANDLES_PER_ROUTE {
            seen.push(found);
        }
    }
}

impl MetricHandles {
    /// Looks the handles up by their labels in the installed recorder.
    fn register(
        attribution: &Attribution,
        (route, method, status): MetricKey<'_>,
    ) -> MetricHandles {
        let labels = [
            ("service", attribution.service.to_string()),
            ("version", attribution.version.to_string()),
            ("route", route.to_string()),
            ("method", method.to_string()),
        ];
        let mut all = labels.to_vec();
        all.push(("status", status.to_string()));
        MetricHandles {
            route: route.into(),
            method: method.clone(),
            status,
            requests: metrics::counter!("folio_http_requests_total", &all),
            duration: metrics::histogram!("folio_http_request_duration_seconds", &labels),
        }
    }

    fn record(&self, seconds: f64) {
        self.requests.increment(1);
        self.duration.record(seconds);
    }
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
