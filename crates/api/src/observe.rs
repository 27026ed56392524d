//! The request metrics: `folio_http_requests_total` and `folio_http_request_duration_seconds`,
//! labelled by service, version, route, method (and status, for the count).
//!
//! A layer of the one stack every route passes (`app::router`): axum wraps each route's
//! method endpoints in it separately, after routing, so each [`Observed`] sees its route's
//! [`MatchedPath`] and keeps a cache of metric handles of its own. Service and version are read
//! off the route (every route is `/<service>/v<N>/...`), so no layer per version is needed.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::{Method, StatusCode};
use axum::response::Response;
use metrics::{Counter, Histogram};
use tower::{Layer, Service};

/// Service and version named by a path, as far as it names them (for the metrics' labels and
/// the logs of any request).
pub(crate) fn service_of(path: &str) -> (&str, &str) {
    let path = path.trim_start_matches('/');
    // an app's `/apps/pdf/v1/...` is `apps/pdf`, `v1`
    let skip = if path.starts_with(crate::registry::APPS) {
        crate::registry::APPS.len()
    } else {
        0
    };
    let service_end = path[skip..].find('/').map_or(path.len(), |i| skip + i);
    let rest = path.get(service_end + 1..).unwrap_or("");
    let version = rest.split('/').next().unwrap_or("");
    (&path[..service_end], version)
}

/// Records the request metrics of the routes it wraps.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Observe;

impl<S> Layer<S> for Observe {
    type Service = Observed<S>;

    fn layer(&self, inner: S) -> Observed<S> {
        Observed {
            inner,
            metrics: Arc::default(),
        }
    }
}

/// The service [`Observe`] wraps a route's endpoint in.
#[derive(Clone)]
pub(crate) struct Observed<S> {
    inner: S,
    metrics: Arc<RouteMetrics>,
}

impl<S> Service<Request> for Observed<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Observing<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        // No matched route: the 404 fallback, whose paths are the client's to invent (and
        // would each be a label value).
        let measured = req.extensions().get::<MatchedPath>().map(|route| Measured {
            route: route.clone(),
            method: req.method().clone(),
            metrics: self.metrics.clone(),
            started: Instant::now(),
        });
        Observing {
            inner: self.inner.call(req),
            measured,
        }
    }
}

/// What a request's metrics need once it is answered.
struct Measured {
    route: MatchedPath,
    method: Method,
    metrics: Arc<RouteMetrics>,
    started: Instant,
}

pin_project_lite::pin_project! {
    /// A route's answer, recorded when it is ready.
    pub(crate) struct Observing<F> {
        #[pin]
        inner: F,
        measured: Option<Measured>,
    }
}

impl<F, E> Future for Observing<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = std::task::ready!(this.inner.poll(cx))?;
        // A 405 names a method the route does not have: any token a client sends.
        if let Some(m) = this.measured.take()
            && response.status() != StatusCode::METHOD_NOT_ALLOWED
        {
            let key = (m.route.as_str(), &m.method, response.status().as_u16());
            m.metrics.record(key, m.started.elapsed().as_secs_f64());
        }
        Poll::Ready(Ok(response))
    }
}

/// Route, method and status: what a route's request metrics are labelled with, besides the
/// service and version the route names.
type MetricKey<'a> = (&'a str, &'a Method, u16);

/// The request metrics of one route. Looking a metric handle up by its labels allocates and
/// hashes every label; a route sees few (method, status) pairs, so it keeps their handles.
#[derive(Default)]
struct RouteMetrics {
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
        let found = MetricHandles::register(key);
        found.record(seconds);
        let mut seen = self.seen.write().unwrap_or_else(|e| e.into_inner());
        if seen.len() < HANDLES_PER_ROUTE {
            seen.push(found);
        }
    }
}

impl MetricHandles {
    /// Looks the handles up by their labels in the installed recorder.
    fn register((route, method, status): MetricKey<'_>) -> MetricHandles {
        let (service, version) = service_of(route);
        let labels = [
            ("service", service.to_string()),
            ("version", version.to_string()),
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

#[cfg(test)]
mod tests {
    use super::service_of;

    #[test]
    fn services_and_apps_are_read_off_the_path() {
        assert_eq!(service_of("/silo/v1/entries/x"), ("silo", "v1"));
        assert_eq!(service_of("/apps/pdf/v1/preview"), ("apps/pdf", "v1"));
        assert_eq!(service_of("/apps/pdf"), ("apps/pdf", ""));
        assert_eq!(service_of("/utils"), ("utils", ""));
        assert_eq!(service_of("/"), ("", ""));
    }
}
