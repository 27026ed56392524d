//! The operations listener: `/healthz`, `/readyz` and `/metrics`, apart from the public API.

use std::sync::OnceLock;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use folio_api::Json;
use folio_store::Store;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use serde_json::json;
use tokio_util::sync::CancellationToken;

#[derive(Clone)]
struct OpsState {
    store: Store,
    shutdown: CancellationToken,
    metrics: PrometheusHandle,
}

/// The process-wide Prometheus recorder (installed once, even when tests start many servers).
pub fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let buckets = [
                0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
            ];
            PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &buckets)
                .and_then(|b| b.install_recorder())
                .unwrap_or_else(|_| PrometheusBuilder::new().build_recorder().handle())
        })
        .clone()
}

/// The operations router.
pub fn router(store: Store, shutdown: CancellationToken) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .with_state(OpsState {
            store,
            shutdown,
            metrics: metrics_handle(),
        })
}

/// Alive: the process answers.
async fn healthz() -> impl IntoResponse {
    Json(json!({"status": "ok"}))
}

/// Ready: not shutting down and the database answers.
async fn readyz(State(state): State<OpsState>) -> impl IntoResponse {
    if state.shutdown.is_cancelled() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "shutting-down"})),
        );
    }
    match state.store.ping().await {
        Ok(()) => (StatusCode::OK, Json(json!({"status": "ready"}))),
        Err(err) => {
            tracing::warn!(error = %err, "readiness: database unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({"status": "database-unreachable"})),
            )
        }
    }
}

async fn metrics(State(state): State<OpsState>) -> impl IntoResponse {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4",
        )],
        state.metrics.render(),
    )
}
