//! The versioning policy, proven: every path carries its service and version; adding an endpoint
//! changes nothing that exists; a new version of one service leaves the others byte-identical;
//! deprecated versions say so on every answer and answer 410 after their sunset; the committed
//! OpenAPI snapshots are what the code generates.

use std::collections::BTreeMap;

use axum::Json;
use chrono::{Duration, Utc};
use folio_api::registry::{Registry, RegistryError};
use folio_api::{ApiResult, Caller, ServiceVersion};
use folio_compat::{self as compat, Severity};
use folio_store::testing;
use serde_json::{Value, json};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::harness::TestApp;

/// A test-only endpoint added to utils/v1.
#[utoipa::path(get, path = "/utils/v1/echo", tag = "test",
    responses((status = 200, description = "Echo.", body = Object)))]
async fn echo(_caller: Caller) -> ApiResult<Json<Value>> {
    Ok(Json(json!({"echo": true})))
}

/// A test-only utils/v2 with one endpoint.
#[utoipa::path(get, path = "/utils/v2/ping", tag = "test",
    responses((status = 200, description = "Pong, v2.", body = Object)))]
async fn ping_v2(_caller: Caller) -> ApiResult<Json<Value>> {
    Ok(Json(json!({"ping": "pong", "version": 2})))
}

/// A test-only service so "the other services" is never empty, whatever is registered.
#[utoipa::path(get, path = "/testsvc/v1/hello", tag = "test",
    responses((status = 200, description = "Hello.", body = Object)))]
async fn hello(_caller: Caller) -> ApiResult<Json<Value>> {
    Ok(Json(json!({"hello": "world"})))
}

/// A second operation that reuses `hello`'s operation id.
#[utoipa::path(get, path = "/testsvc/v1/hello-again", tag = "test", operation_id = "hello",
    responses((status = 200, description = "Hello again.", body = Object)))]
async fn hello_again(_caller: Caller) -> ApiResult<Json<Value>> {
    Ok(Json(json!({"hello": "again"})))
}

fn testsvc() -> ServiceVersion {
    ServiceVersion::new("testsvc", 1, OpenApiRouter::new().routes(routes!(hello)))
}

fn utils_v2() -> ServiceVersion {
    ServiceVersion::new("utils", 2, OpenApiRouter::new().routes(routes!(ping_v2)))
}

/// Each version's document, as the snapshot text, keyed by `/<service>/v<N>`.
fn documents(versions: &[ServiceVersion]) -> BTreeMap<String, String> {
    versions
        .iter()
        .map(|v| (v.prefix(), folio_api::openapi::snapshot(&v.openapi())))
        .collect()
}

/// `^/[a-z][a-z0-9-]*/v[1-9][0-9]*/`, or an app's `^/apps/[a-z][a-z0-9-]*/v[1-9][0-9]*/`,
/// returning the service (`silo`, `apps/pdf`) and version segments.
fn versioned(path: &str) -> Option<(&str, &str)> {
    let path = path.strip_prefix('/')?;
    let skip = if path.starts_with("apps/") { 5 } else { 0 };
    let service_end = skip + path[skip..].find('/')?;
    let (service, rest) = (&path[..service_end], &path[service_end + 1..]);
    let (version, _) = rest.split_once('/')?;
    let word = &service[skip..];
    let word_ok = word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    let digits = version.strip_prefix('v')?;
    let version_ok = digits.starts_with(|c: char| ('1'..='9').contains(&c))
        && digits.chars().all(|c| c.is_ascii_digit());
    (word_ok && version_ok).then_some((service, version))
}

#[test]
fn the_pattern_knows_services_and_apps() {
    assert_eq!(versioned("/silo/v1/entries"), Some(("silo", "v1")));
    assert_eq!(versioned("/apps/pdf/v1/preview"), Some(("apps/pdf", "v1")));
    for bad in [
        "/apps/v1/x",
        "/apps/Pdf/v1/x",
        "/apps/pdf/1/x",
        "/silo/entries",
        "/silo/v0/x",
        "/x/y/pdf/v1/a",
    ] {
        assert_eq!(versioned(bad), None, "{bad}");
    }
}

#[tokio::test]
async fn every_endpoint_path_is_service_then_version() {
    let all = folio::services::all();
    let mut owners: BTreeMap<String, String> = BTreeMap::new();
    for version in &all {
        let doc = serde_json::to_value(version.openapi()).unwrap();
        let paths = doc["paths"].as_object().unwrap();
        assert!(!paths.is_empty(), "{} has no endpoints", version.prefix());
        for path in paths.keys() {
            let (service, v) =
                versioned(path).unwrap_or_else(|| panic!("{path} is not /<service>/v<N>/..."));
            assert_eq!(
                service,
                version.service,
                "{path} is documented by {}",
                version.prefix()
            );
            assert_eq!(v, format!("v{}", version.version), "{path}");
            if let Some(other) = owners.insert(path.clone(), version.prefix()) {
                panic!("{path} is in both {other} and {}", version.prefix());
            }
        }
    }
    let registry = Registry::new(all).unwrap();
    for path in registry.paths() {
        assert!(
            versioned(&path).is_some(),
            "routed path {path} breaks the pattern"
        );
    }

    // The registry refuses what the pattern forbids, so a mistake cannot reach the router.
    let foreign = ServiceVersion::new("testsvc", 2, OpenApiRouter::new().routes(routes!(hello)));
    assert!(matches!(
        Registry::new(vec![foreign]),
        Err(RegistryError::ForeignPath { .. })
    ));
    for bad in ["Test", "apps/", "apps/Pdf", "apps/pdf/x", "tools/pdf"] {
        let bad_name = ServiceVersion::new(bad, 1, OpenApiRouter::new());
        assert!(
            matches!(
                Registry::new(vec![bad_name]),
                Err(RegistryError::BadServiceName(_))
            ),
            "{bad}"
        );
    }
    assert!(matches!(
        Registry::new(vec![testsvc(), testsvc()]),
        Err(RegistryError::Duplicate(_))
    ));
    let repeated_id = ServiceVersion::new(
        "testsvc",
        1,
        OpenApiRouter::new()
            .routes(routes!(hello))
            .routes(routes!(hello_again)),
    );
    assert!(matches!(
        Registry::new(vec![repeated_id]),
        Err(RegistryError::DuplicateOperationId { .. })
    ));
    // Every served document has unique operation ids.
    for version in folio::services::all() {
        let mut ids = std::collections::BTreeSet::new();
        let doc = serde_json::to_value(version.openapi()).unwrap();
        for item in doc["paths"].as_object().unwrap().values() {
            for op in item.as_object().unwrap().values() {
                if let Some(id) = op.get("operationId").and_then(Value::as_str) {
                    assert!(
                        ids.insert(id.to_string()),
                        "{id} twice in {}",
                        version.prefix()
                    );
                }
            }
        }
    }
    assert!(matches!(
        Registry::new(vec![ServiceVersion::new(
            "testsvc",
            0,
            OpenApiRouter::new()
        )]),
        Err(RegistryError::BadVersion(_))
    ));

    // Over HTTP: every version's document is served under its own prefix.
    let app = TestApp::sqlite().await;
    for version in folio::services::all() {
        let doc = app
            .get(&format!("{}/openapi.json", version.prefix()))
            .await
            .expect(200);
        assert_eq!(doc["info"]["version"], format!("v{}", version.version));
    }
}

#[tokio::test]
async fn adding_an_endpoint_leaves_existing_endpoints_and_payloads_unchanged() {
    let before = folio::services::all();
    let after: Vec<ServiceVersion> = folio::services::all()
        .into_iter()
        .map(|v| {
            if v.service == "utils" && v.version == 1 {
                v.map_routes(|r| r.routes(routes!(echo)))
            } else {
                v
            }
        })
        .collect();
    let (docs_before, docs_after) = (documents(&before), documents(&after));

    // Other versions: byte-identical documents.
    for (prefix, doc) in &docs_before {
        if prefix != "/utils/v1" {
            assert_eq!(doc, &docs_after[prefix], "{prefix} changed");
        }
    }
    // utils/v1: every existing operation and schema unchanged; the only change is the new path.
    let old: Value = serde_json::from_str(&docs_before["/utils/v1"]).unwrap();
    let new: Value = serde_json::from_str(&docs_after["/utils/v1"]).unwrap();
    for (path, item) in old["paths"].as_object().unwrap() {
        assert_eq!(item, &new["paths"][path], "operation {path} changed");
    }
    for (name, schema) in old["components"]["schemas"].as_object().unwrap() {
        assert_eq!(
            schema, &new["components"]["schemas"][name],
            "schema {name} changed"
        );
    }
    assert!(new["paths"]["/utils/v1/echo"].is_object());
    let changes = compat::compare(&old, &new);
    assert!(!compat::is_breaking(&changes), "{changes:?}");
    assert!(changes.iter().all(|c| c.severity == Severity::Additive));
    assert!(
        changes.iter().any(|c| c.rule == "path-added"),
        "{changes:?}"
    );

    // Over HTTP: the existing endpoints answer the same, and the new one answers.
    let plain = TestApp::sqlite().await;
    let extended = TestApp::start_with(testing::sqlite().await, |_| {}, after).await;
    let ns = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
    for path in [
        "/utils/v1/ping",
        &format!("/utils/v1/uuid?v=5&base={ns}&key=k"),
    ] {
        assert_eq!(
            plain.get(path).await.expect(200),
            extended.get(path).await.expect(200),
            "{path}"
        );
    }
    assert_eq!(
        extended.get("/utils/v1/echo").await.expect(200)["echo"],
        true
    );
    plain.get("/utils/v1/echo").await.expect(404);
}

#[tokio::test]
async fn a_new_version_of_one_service_leaves_the_other_services_alone() {
    let mut before = folio::services::all();
    before.push(testsvc());
    let mut after = folio::services::all();
    after.push(testsvc());
    after.push(utils_v2());

    let (docs_before, docs_after) = (documents(&before), documents(&after));
    for (prefix, doc) in &docs_before {
        assert_eq!(
            doc, &docs_after[prefix],
            "{prefix} changed when utils/v2 was added"
        );
    }
    assert_eq!(docs_after.len(), docs_before.len() + 1);
    let paths_before = Registry::new(before).unwrap().paths();
    let paths_after = Registry::new(after).unwrap().paths();
    let added: Vec<&String> = paths_after
        .iter()
        .filter(|p| !paths_before.contains(p))
        .collect();
    assert!(
        added.iter().all(|p| p.starts_with("/utils/v2/")),
        "{added:?}"
    );
    assert!(paths_before.iter().all(|p| paths_after.contains(p)));

    // Over HTTP: v1 still answers as before, v2 answers, other services are untouched.
    let mut services = folio::services::all();
    services.push(testsvc());
    services.push(utils_v2());
    let app = TestApp::start_with(testing::sqlite().await, |_| {}, services).await;
    assert_eq!(
        app.get("/utils/v1/ping").await.expect(200),
        json!({"ping": "pong"})
    );
    assert_eq!(app.get("/utils/v2/ping").await.expect(200)["version"], 2);
    assert_eq!(
        app.get("/testsvc/v1/hello").await.expect(200)["hello"],
        "world"
    );
    for (prefix, doc) in &docs_after {
        let served = app.get(&format!("{prefix}/openapi.json")).await;
        assert_eq!(
            &served.text(),
            doc,
            "{prefix}/openapi.json is not the generated document"
        );
    }
    let discovery = app.get("/utils/v1/services").await.expect(200);
    let utils = discovery["list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "utils")
        .unwrap();
    let versions: Vec<&str> = utils["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_str().unwrap())
        .collect();
    assert_eq!(versions, ["v1", "v2"]);
}

#[tokio::test]
async fn deprecated_versions_carry_headers_and_answer_410_after_sunset() {
    let deprecated_at = Utc::now() - Duration::days(30);
    let sunset_at = Utc::now() + Duration::days(90);
    let mut services: Vec<ServiceVersion> = folio::services::all()
        .into_iter()
        .map(|v| {
            if v.service == "utils" {
                v.deprecated(deprecated_at, sunset_at, 2)
            } else {
                v
            }
        })
        .collect();
    services.push(utils_v2());
    services.push(testsvc().deprecated(
        Utc::now() - Duration::days(400),
        Utc::now() - Duration::days(1),
        2,
    ));
    let app = TestApp::start_with(testing::sqlite().await, |_| {}, services).await;

    let check_headers = |resp: &crate::harness::Resp| {
        assert_eq!(
            resp.header("deprecation"),
            Some(format!("@{}", deprecated_at.timestamp()).as_str())
        );
        let sunset = resp.header("sunset").expect("Sunset header");
        let parsed = chrono::DateTime::parse_from_rfc2822(sunset).expect("Sunset is an HTTP date");
        assert_eq!(parsed.timestamp(), sunset_at.timestamp());
        assert_eq!(
            resp.header("link"),
            Some("</utils/v2/openapi.json>; rel=\"successor-version\"")
        );
    };
    // On success...
    let ok = app.get("/utils/v1/ping").await;
    ok.expect(200);
    check_headers(&ok);
    // ...and on errors.
    let unauthorized = app
        .send(app.client.get(format!("{}/utils/v1/ping", app.base)))
        .await;
    unauthorized.expect(401);
    check_headers(&unauthorized);
    let invalid = app.get("/utils/v1/uuid?v=9").await;
    invalid.expect(422);
    check_headers(&invalid);
    // The successor carries none.
    let v2 = app.get("/utils/v2/ping").await;
    v2.expect(200);
    assert!(v2.header("deprecation").is_none());

    // Past its sunset: 410 with the error body naming the successor, for every endpoint.
    let gone = app.get("/testsvc/v1/hello").await;
    let body = gone.expect(410);
    assert_eq!(body["key"], "gone");
    assert!(
        body["message"].as_str().unwrap().contains("/testsvc/v2/"),
        "{body}"
    );
    assert!(gone.header("deprecation").is_some() && gone.header("sunset").is_some());

    let discovery = app.get("/utils/v1/services").await.expect(200);
    let status = |name: &str, version: &str| {
        discovery["list"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()["versions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["version"] == version)
            .unwrap()["status"]
            .clone()
    };
    assert_eq!(status("utils", "v1"), "deprecated");
    assert_eq!(status("utils", "v2"), "stable");
    assert_eq!(status("testsvc", "v1"), "sunset");
}

#[test]
fn committed_snapshots_equal_the_generated_documents() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../api");
    let report = folio::snapshots::compare(&dir).unwrap();
    assert!(
        report.stale.is_empty() && report.breaking.is_empty(),
        "run `cargo run -- openapi --write`: stale {:?}, breaking {:?}",
        report.stale,
        report
            .breaking
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    );
    assert_eq!(report.generated.len(), folio::services::all().len());
}
