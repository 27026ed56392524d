//! The operations listener and shutdown: health, readiness, metrics, draining, signals.

use std::time::Duration;

use axum::Json;
use folio_api::{ApiResult, Caller, ServiceVersion};
use folio_store::testing;
use serde_json::{Value, json};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::harness::{Process, TestApp};

#[tokio::test]
async fn health_readiness_and_labelled_metrics() {
    for app in TestApp::backends().await {
        assert_eq!(app.ops_get("/healthz").await.expect(200)["status"], "ok");
        assert_eq!(app.ops_get("/readyz").await.expect(200)["status"], "ready");
        app.get("/utils/v1/ping").await.expect(200);
        app.get("/utils/v1/uuid?v=2").await.expect(422);
        let metrics = app.ops_get("/metrics").await.text();
        for line in [
            r#"service="utils",version="v1",route="/utils/v1/ping",method="GET",status="200""#,
            r#"service="utils",version="v1",route="/utils/v1/uuid",method="GET",status="422""#,
        ] {
            assert!(
                metrics.contains(line),
                "{} metrics lack {line}:\n{metrics}",
                app.label()
            );
        }
        assert!(metrics.contains("folio_http_request_duration_seconds_bucket"));
        // The public listener serves none of these.
        app.get("/healthz").await.expect(404);
        app.get("/metrics").await.expect(404);
    }
}

/// Answers after a while, to be in flight when shutdown starts.
#[utoipa::path(get, path = "/testsvc/v1/slow", tag = "test",
    responses((status = 200, description = "Slow.", body = Object)))]
async fn slow(_caller: Caller) -> ApiResult<Json<Value>> {
    tokio::time::sleep(Duration::from_millis(700)).await;
    Ok(Json(json!({"done": true})))
}

#[tokio::test]
async fn shutdown_drains_in_flight_requests() {
    let mut services = folio::services::all();
    services.push(ServiceVersion::new(
        "testsvc",
        1,
        OpenApiRouter::new().routes(routes!(slow)),
    ));
    let app = TestApp::start_with(testing::sqlite().await, |_| {}, services).await;
    let request = app.request(reqwest::Method::GET, "/testsvc/v1/slow").send();
    let in_flight = tokio::spawn(request);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let base = app.base.clone();
    app.stop().await;
    let resp = in_flight
        .await
        .unwrap()
        .expect("the in-flight request is answered");
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["done"], true);
    // New connections are refused once it has stopped.
    assert!(reqwest::get(format!("{base}/utils/v1/ping")).await.is_err());
}

#[tokio::test]
async fn sigterm_and_sigint_stop_the_binary_cleanly() {
    for signal in ["TERM", "INT"] {
        let db = testing::sqlite().await;
        let data = db.dir().join("proc");
        let mut process = Process::spawn(&data, db.url(), &[]).await;
        let ready = reqwest::get(format!("{}/readyz", process.ops))
            .await
            .unwrap();
        assert_eq!(ready.status(), 200);
        process.signal(signal);
        assert_eq!(
            process.wait().await,
            Some(0),
            "log:\n{}",
            process.log.lock().unwrap()
        );
        let log = process.log.lock().unwrap().clone();
        assert!(log.contains("stopped"), "{log}");
    }
}
