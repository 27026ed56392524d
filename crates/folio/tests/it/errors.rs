//! One JSON error body everywhere, and the limits: unknown path, wrong method, oversize body,
//! wrong content type, bad JSON, wrong types, rate limit, panics.

use folio_api::{ApiResult, Caller, Json, ServiceVersion};
use folio_store::testing;
use reqwest::Method;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::harness::TestApp;

#[derive(Deserialize, ToSchema)]
struct EchoIn {
    name: String,
    #[allow(dead_code)]
    size: Option<i64>,
}

/// Echoes a body through folio's JSON extractor.
#[utoipa::path(post, path = "/testsvc/v1/echo", tag = "test", request_body = EchoIn,
    responses((status = 200, description = "Echo.", body = Object)))]
async fn echo(_caller: Caller, Json(body): Json<EchoIn>) -> ApiResult<Json<Value>> {
    Ok(Json(json!({"name": body.name})))
}

/// Panics.
#[utoipa::path(get, path = "/testsvc/v1/panic", tag = "test",
    responses((status = 200, description = "Never.", body = Object)))]
async fn panics(_caller: Caller) -> ApiResult<Json<Value>> {
    panic!("a bug in a handler")
}

fn testsvc() -> ServiceVersion {
    ServiceVersion::new(
        "testsvc",
        1,
        OpenApiRouter::new()
            .routes(routes!(echo))
            .routes(routes!(panics)),
    )
}

async fn app_with(configure: impl FnOnce(&mut folio::Config)) -> TestApp {
    let mut services = folio::services::all();
    services.push(testsvc());
    TestApp::start_with(testing::sqlite().await, configure, services).await
}

#[tokio::test]
async fn unknown_paths_and_wrong_methods_get_the_error_body() {
    let app = app_with(|_| {}).await;
    for path in [
        "/",
        "/nope",
        "/utils/v9/ping",
        "/utils/v1/nope",
        "/utils/ping",
    ] {
        assert_eq!(
            app.get(path).await.expect(404)["key"],
            "not-found",
            "{path}"
        );
    }
    let resp = app
        .send(app.request(Method::DELETE, "/utils/v1/ping"))
        .await;
    assert_eq!(resp.expect(405)["key"], "method-not-allowed");
    let resp = app.post("/utils/v1/ping", &json!({})).await;
    resp.expect(405);
}

#[tokio::test]
async fn bodies_are_checked_in_order_size_type_syntax_shape() {
    let app = app_with(|c| c.limits.body_bytes = 1024).await;
    assert_eq!(
        app.post("/testsvc/v1/echo", &json!({"name": "a"}))
            .await
            .expect(200)["name"],
        "a"
    );

    let big = json!({"name": "x".repeat(2000)});
    assert_eq!(
        app.post("/testsvc/v1/echo", &big).await.expect(413)["key"],
        "payload-too-large"
    );

    let resp = app
        .send(
            app.request(Method::POST, "/testsvc/v1/echo")
                .header("content-type", "text/plain")
                .body("{}"),
        )
        .await;
    assert_eq!(resp.expect(415)["key"], "unsupported-media-type");

    for bad in [
        &b"not json"[..],
        b"{\"name\": ",
        b"{\"name\": \"a\"} trailing",
        b"",
    ] {
        let resp = app
            .raw(Method::POST, "/testsvc/v1/echo", bad.to_vec())
            .await;
        assert_eq!(
            resp.expect(400)["key"],
            "bad-request",
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
    let nested = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let app_big = app_with(|c| c.limits.body_bytes = 1 << 20).await;
    let resp = app_big
        .raw(Method::POST, "/testsvc/v1/echo", nested.into_bytes())
        .await;
    assert!(
        resp.status == 400 || resp.status == 422,
        "deep nesting: {}",
        resp.status
    );
    crate::harness::assert_error_body(&resp);
    let nested_field = format!(
        "{{\"name\": \"a\", \"size\": {}1{}}}",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let resp = app_big
        .raw(Method::POST, "/testsvc/v1/echo", nested_field.into_bytes())
        .await;
    assert!(
        resp.status == 400 || resp.status == 422,
        "deep nesting: {}",
        resp.status
    );

    let resp = app.post("/testsvc/v1/echo", &json!({"name": 5})).await;
    let body = resp.expect(422);
    assert_eq!(
        body["fields"]["name"].as_str().map(|s| !s.is_empty()),
        Some(true),
        "{body}"
    );
    let body = app
        .post("/testsvc/v1/echo", &json!({"name": "a", "size": "big"}))
        .await
        .expect(422);
    assert!(body["fields"]["size"].is_string(), "{body}");
    let body = app
        .post("/testsvc/v1/echo", &json!({"size": 1}))
        .await
        .expect(422);
    assert!(body["fields"].is_object(), "missing field named: {body}");
    // Unknown fields are ignored.
    app.post("/testsvc/v1/echo", &json!({"name": "a", "extra": [1, 2]}))
        .await
        .expect(200);
}

#[tokio::test]
async fn each_token_is_rate_limited_with_retry_after() {
    let app = app_with(|c| {
        c.limits.rate_per_second = 1;
        c.limits.rate_burst = 3;
    })
    .await;
    let other = app.other_workspace("other").await;
    let mut limited = None;
    for _ in 0..10 {
        let resp = app.get("/utils/v1/ping").await;
        if resp.status == 429 {
            limited = Some(resp);
            break;
        }
        resp.expect(200);
    }
    let resp = limited.expect("the burst runs out within 10 requests");
    assert_eq!(resp.expect(429)["key"], "rate-limited");
    let retry: u64 = resp
        .header("retry-after")
        .expect("Retry-After")
        .parse()
        .unwrap();
    assert!((1..=2).contains(&retry), "{retry}");
    // Another token is not affected.
    let resp = app
        .send(
            app.client
                .get(format!("{}/utils/v1/ping", app.base))
                .bearer_auth(&other),
        )
        .await;
    resp.expect(200);
}

#[tokio::test]
async fn a_panicking_handler_is_a_500_with_the_error_body_and_the_server_lives_on() {
    let app = app_with(|_| {}).await;
    let body = app.get("/testsvc/v1/panic").await.expect(500);
    assert_eq!(body["key"], "internal");
    assert!(
        !body["message"].as_str().unwrap().contains("bug"),
        "internals leak: {body}"
    );
    app.get("/utils/v1/ping").await.expect(200);
}
