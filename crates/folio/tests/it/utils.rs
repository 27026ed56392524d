//! utils/v1 over HTTP.

use crate::harness::TestApp;

#[tokio::test]
async fn uuid_versions_and_bad_combinations() {
    let app = TestApp::sqlite().await;
    for v in ["1", "4", "6", "7"] {
        let body = app.get(&format!("/utils/v1/uuid?v={v}")).await.expect(200);
        assert_eq!(body["version"], v);
        let uuid: uuid::Uuid = body["uuid"].as_str().unwrap().parse().unwrap();
        assert_eq!(uuid.get_version_num().to_string(), v);
    }
    let body = app.get("/utils/v1/uuid").await.expect(200);
    assert_eq!(body["version"], "4");

    let ns = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
    let a = app
        .get(&format!("/utils/v1/uuid?v=5&base={ns}&key=folio"))
        .await
        .expect(200);
    let b = app
        .get(&format!("/utils/v1/uuid?v=5&base={ns}&key=folio"))
        .await
        .expect(200);
    assert_eq!(a["uuid"], b["uuid"], "v5 is deterministic");
    assert_eq!(
        a["uuid"],
        uuid::Uuid::new_v5(&ns.parse().unwrap(), b"folio").to_string()
    );
    app.get(&format!("/utils/v1/uuid?v=3&base={ns}&key=folio"))
        .await
        .expect(200);

    for bad in [
        "/utils/v1/uuid?v=2",
        "/utils/v1/uuid?v=8",
        "/utils/v1/uuid?v=abc",
        "/utils/v1/uuid?v=3",
        "/utils/v1/uuid?v=5&key=x",
        &format!("/utils/v1/uuid?v=5&base={ns}"),
        &format!("/utils/v1/uuid?v=4&base={ns}&key=x"),
        "/utils/v1/uuid?v=5&base=not-a-uuid&key=x",
    ] {
        let body = app.get(bad).await.expect(422);
        assert_eq!(body["key"], "validation", "{bad}");
        assert!(body["fields"].is_object(), "{bad}: {body}");
    }
}

#[tokio::test]
async fn discovery_lists_every_service_with_its_document() {
    let app = TestApp::sqlite().await;
    let body = app.get("/utils/v1/services").await.expect(200);
    let services = body["list"].as_array().unwrap();
    let names: Vec<&str> = services
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"utils"), "{names:?}");
    for service in services {
        for version in service["versions"].as_array().unwrap() {
            assert_eq!(version["status"], "stable");
            let doc = app
                .get(version["openapi"].as_str().unwrap())
                .await
                .expect(200);
            assert_eq!(doc["info"]["version"], version["version"]);
        }
    }
}

#[tokio::test]
async fn every_response_carries_a_request_id_the_clients_own_when_it_sent_one() {
    let app = TestApp::sqlite().await;
    let mut seen = Vec::new();
    for path in ["/utils/v1/ping", "/utils/v1/no-such-endpoint"] {
        let resp = app.get(path).await;
        let id = resp.header("x-request-id").expect("x-request-id");
        let id: uuid::Uuid = id.parse().expect("a UUID");
        assert_eq!(id.get_version_num(), 4, "{path}");
        seen.push(id);
    }
    assert_ne!(seen[0], seen[1], "a new id for each request");

    let sent = app
        .request(reqwest::Method::GET, "/utils/v1/ping")
        .header("x-request-id", "trace-me-42");
    let resp = app.send(sent).await;
    resp.expect(200);
    assert_eq!(resp.header("x-request-id"), Some("trace-me-42"));
}
