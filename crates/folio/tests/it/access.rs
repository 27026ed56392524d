//! access/v1 over HTTP on both backends: the token's workspace read and changed, with the field
//! names of Invopop's `access_v1` (`AccessWorkspace`, `AccessUpdateWorkspace`), unique slugs
//! and names across workspaces, every malformed field named, and no other workspace reachable.

use std::collections::BTreeSet;

use reqwest::Method;
use serde_json::{Value, json};

use crate::harness::TestApp;

/// The properties of Invopop's `AccessWorkspace` (access_v1.yaml), plus `logo_url`, which its
/// update accepts: folio answers no field outside them.
const WORKSPACE_FIELDS: [&str; 8] = [
    "id",
    "name",
    "slug",
    "country",
    "sandbox",
    "created_at",
    "updated_at",
    "logo_url",
];

fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

#[tokio::test]
async fn the_tokens_workspace_is_read_and_changed() {
    for app in TestApp::backends().await {
        let label = app.label();
        let ws = app.get("/access/v1/workspace").await.expect(200);
        assert_eq!(ws["name"], "default", "{label}");
        assert_eq!(ws["sandbox"], false);
        assert!(ws["id"].as_str().unwrap().len() == 36);
        assert!(ws["created_at"].as_str().unwrap().ends_with('Z'));
        assert_eq!(ws["updated_at"], ws["created_at"]);
        assert!(ws.get("slug").is_none() && ws.get("logo_url").is_none());
        assert!(keys(&ws).is_subset(&WORKSPACE_FIELDS.into()), "{ws}");

        let patch = json!({"name": "My Company", "slug": "my-company",
            "logo_url": "https://example.com/logo.png", "country": "es"});
        let changed = app.patch("/access/v1/workspace", &patch).await.expect(200);
        assert_eq!(changed["name"], "My Company");
        assert_eq!(changed["slug"], "my-company");
        assert_eq!(changed["logo_url"], "https://example.com/logo.png");
        assert_eq!(changed["country"], "ES");
        assert_eq!(changed["id"], ws["id"]);
        assert!(changed["updated_at"].as_str() >= ws["created_at"].as_str());
        assert_eq!(keys(&changed), WORKSPACE_FIELDS.into(), "{changed}");
        assert_eq!(app.get("/access/v1/workspace").await.expect(200), changed);

        // Only what is given changes; an empty logo_url clears it.
        let cleared = app
            .patch("/access/v1/workspace", &json!({"logo_url": ""}))
            .await
            .expect(200);
        assert!(cleared.get("logo_url").is_none(), "{cleared}");
        assert_eq!(cleared["slug"], "my-company");
        assert_eq!(cleared["name"], "My Company");
        // An empty body changes nothing.
        let same = app
            .patch("/access/v1/workspace", &json!({}))
            .await
            .expect(200);
        assert_eq!(same, cleared);
    }
}

#[tokio::test]
async fn slugs_and_names_are_unique_and_workspaces_stay_apart() {
    for app in TestApp::backends().await {
        let other = app.other_workspace("other").await;
        let as_other = |method: Method| {
            app.client
                .request(method, format!("{}/access/v1/workspace", app.base))
                .bearer_auth(&other)
        };
        app.patch("/access/v1/workspace", &json!({"slug": "acme"}))
            .await
            .expect(200);
        let mine = app.get("/access/v1/workspace").await.expect(200);

        // The other token sees its own workspace, never this one.
        let theirs = app.send(as_other(Method::GET)).await.expect(200);
        assert_eq!(theirs["name"], "other");
        assert_ne!(theirs["id"], mine["id"]);

        let taken = app
            .send(as_other(Method::PATCH).json(&json!({"slug": "acme"})))
            .await
            .expect(409);
        assert_eq!(taken["key"], "conflict");
        assert!(taken["fields"]["slug"].is_string(), "{taken}");
        let taken = app
            .send(as_other(Method::PATCH).json(&json!({"name": "default"})))
            .await
            .expect(409);
        assert!(taken["fields"]["name"].is_string(), "{taken}");
        // Nothing of the refused change was kept, and the holder is untouched.
        let theirs_after = app.send(as_other(Method::GET)).await.expect(200);
        assert_eq!(theirs_after["name"], "other");
        assert!(theirs_after.get("slug").is_none());
        assert_eq!(app.get("/access/v1/workspace").await.expect(200), mine);
        // Setting one's own slug again is no conflict.
        app.patch("/access/v1/workspace", &json!({"slug": "acme"}))
            .await
            .expect(200);
    }
}

#[tokio::test]
async fn malformed_fields_are_422_each_named() {
    let app = TestApp::sqlite().await;
    let bad = app
        .patch(
            "/access/v1/workspace",
            &json!({"name": "", "slug": "Not A Slug", "logo_url": "file:///etc/passwd",
                "country": "Spain"}),
        )
        .await
        .expect(422);
    for field in ["name", "slug", "logo_url", "country"] {
        assert!(bad["fields"][field].is_string(), "{field}: {bad}");
    }
    app.patch("/access/v1/workspace", &json!({"slug": 5}))
        .await
        .expect(422);
    let unchanged = app.get("/access/v1/workspace").await.expect(200);
    assert_eq!(unchanged["name"], "default");
    // No token, no workspace.
    let anonymous = app
        .send(app.client.get(format!("{}/access/v1/workspace", app.base)))
        .await;
    anonymous.expect(401);
}

#[tokio::test]
async fn the_document_names_invopops_fields_and_only_the_workspace_operations() {
    let app = TestApp::sqlite().await;
    let doc = app.get("/access/v1/openapi.json").await.expect(200);
    let paths: Vec<&String> = doc["paths"].as_object().unwrap().keys().collect();
    // enrollment, orgs and authorize belong to Invopop's OAuth application platform
    assert_eq!(paths, ["/access/v1/workspace"]);
    let ops = doc["paths"]["/access/v1/workspace"].as_object().unwrap();
    assert!(ops.contains_key("get") && ops.contains_key("patch"));
    let schemas = &doc["components"]["schemas"];
    let out = keys(&schemas["WorkspaceOut"]["properties"]);
    assert_eq!(out, WORKSPACE_FIELDS.into());
    // Invopop's AccessUpdateWorkspace: logo_url, name, slug (folio adds country).
    let patch = keys(&schemas["WorkspacePatch"]["properties"]);
    assert!(patch.is_superset(&["logo_url", "name", "slug"].into()));
    for path in ["/access/v1/enrollment", "/access/v1/orgs"] {
        app.get(path).await.expect(404);
    }
}
