//! Storing and fetching envelopes: byte-for-byte round trips, bare documents, idempotency,
//! keys, PATCH and versions.

use gobl::envelope::Envelope;
use reqwest::Method;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{example_files, note, send_as};
use crate::harness::TestApp;

#[derive(Deserialize)]
struct WithData {
    data: Box<RawValue>,
    digest: Value,
}

#[tokio::test]
async fn every_reference_envelope_round_trips_byte_for_byte() {
    let files = example_files("out");
    if files.is_empty() {
        return;
    }
    for app in TestApp::backends().await {
        for (i, path) in files.iter().enumerate() {
            let text = std::fs::read_to_string(path).unwrap();
            let text = text.trim();
            let env = Envelope::from_json(text).unwrap();
            // Every example shares one uuid: one workspace each.
            let token = app.other_workspace(&format!("rt{i}")).await;
            let uri = format!("/silo/v1/envelopes/{}", env.head.uuid);
            let body = format!(r#"{{"data": {text}, "key": "k{i}"}}"#);
            let put = send_as(&app, &token, Method::PUT, &uri, Some(body.clone())).await;
            let answered: WithData = serde_json::from_slice(&put.body).unwrap();
            assert_eq!(answered.data.get(), text, "the PUT's answer");
            let put_json = put.expect(200);
            assert_eq!(
                put_json["digest"]["val"],
                env.head.dig.val,
                "{}",
                path.display()
            );
            let got = send_as(&app, &token, Method::GET, &uri, None).await;
            got.expect(200);
            let got: WithData = serde_json::from_slice(&got.body).unwrap();
            assert_eq!(
                got.data.get(),
                text,
                "{} on {}",
                path.display(),
                app.label()
            );
            assert_eq!(
                got.digest,
                json!({"alg": "sha256", "val": env.head.dig.val})
            );
            // The same request again is idempotent.
            send_as(&app, &token, Method::PUT, &uri, Some(body))
                .await
                .expect(200);
            let by_key = send_as(
                &app,
                &token,
                Method::GET,
                &format!("/silo/v1/envelopes/key/k{i}"),
                None,
            )
            .await;
            let by_key: WithData = serde_json::from_slice(&by_key.body).unwrap();
            assert_eq!(by_key.data.get(), text);
        }
        app.stop().await;
    }
}

/// Entries stored before fingerprints hashed the document by its digest keep the earlier form
/// (the canonical text of the data, then the labels): a repeated request is still recognised.
#[tokio::test]
async fn a_repeated_put_recognises_an_entry_with_an_earlier_fingerprint() {
    let Some(path) = example_files("out").into_iter().next() else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.trim();
    let id = Envelope::from_json(text).unwrap().head.uuid;
    let earlier = {
        let canonical = gobl::canonical::canonical(&gobl::json::parse(text).unwrap()).unwrap();
        let labels = r#"{"key":"fp","folder":null,"tags":[],"meta":{},"sign":false}"#;
        gobl::digest::sha256_hex(format!("{canonical}{labels}").as_bytes())
    };
    for app in TestApp::backends().await {
        let token = app.other_workspace("fingerprints").await;
        let uri = format!("/silo/v1/envelopes/{id}");
        let body = format!(r#"{{"data": {text}, "key": "fp"}}"#);
        send_as(&app, &token, Method::PUT, &uri, Some(body.clone()))
            .await
            .expect(200);
        let stored = |app: &TestApp| {
            let pool = app.db.store.pool().clone();
            async move {
                sqlx::query_scalar::<_, String>(
                    "SELECT fingerprint FROM silo_envelopes WHERE id = $1",
                )
                .bind(id.to_string())
                .fetch_one(&pool)
                .await
                .unwrap()
            }
        };
        let current = stored(&app).await;
        assert!(current.starts_with("2:"), "{current}");
        assert_ne!(
            current[2..],
            earlier,
            "the document is hashed by its digest now"
        );
        sqlx::query("UPDATE silo_envelopes SET fingerprint = $1 WHERE id = $2")
            .bind(&earlier)
            .bind(id.to_string())
            .execute(app.db.store.pool())
            .await
            .unwrap();
        let again = send_as(&app, &token, Method::PUT, &uri, Some(body)).await;
        assert_eq!(again.expect(200)["id"], id.to_string(), "{}", app.label());
        let other = format!(r#"{{"data": {text}, "key": "fp", "tags": ["x"]}}"#);
        send_as(&app, &token, Method::PUT, &uri, Some(other))
            .await
            .expect(409);
        assert_eq!(stored(&app).await, earlier, "nothing was rewritten");
        app.stop().await;
    }
}

#[tokio::test]
async fn bare_documents_are_enveloped_with_a_correct_digest() {
    let files = example_files("");
    if files.is_empty() {
        return;
    }
    for app in TestApp::backends().await {
        let mut stored = 0;
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let doc: Value = serde_json::from_str(&text).unwrap();
            let id = Uuid::new_v4();
            let resp = app
                .put(&format!("/silo/v1/envelopes/{id}"), &json!({"data": doc}))
                .await;
            if resp.status == 422 {
                // A document the calculator refuses says why, with faults.
                assert!(
                    resp.json()["faults"].is_array(),
                    "{}: {}",
                    path.display(),
                    resp.text()
                );
                continue;
            }
            let answered: WithData = serde_json::from_slice(&resp.body).unwrap();
            let out = resp.expect(200);
            stored += 1;
            let got = app.get(&format!("/silo/v1/envelopes/{id}")).await;
            let got: WithData = serde_json::from_slice(&got.body).unwrap();
            // the answer is the envelope built and stored, not the document sent
            assert_eq!(answered.data.get(), got.data.get(), "{}", path.display());
            let env = Envelope::from_json(got.data.get()).unwrap();
            assert_eq!(env.head.uuid, id);
            env.verify_digest()
                .unwrap_or_else(|f| panic!("{}: {f}", path.display()));
            assert_eq!(out["digest"]["val"], env.head.dig.val);
            assert_eq!(
                out["typ"],
                gobl::envelope::short_type(env.document_schema().unwrap())
            );
        }
        assert!(
            stored * 2 >= files.len(),
            "only {stored} of {} inputs stored",
            files.len()
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn post_chooses_the_id_and_resources_have_the_wire_shape() {
    for app in TestApp::backends().await {
        let out = app
            .post(
                "/silo/v1/envelopes",
                &json!({"data": note(1), "folder": "inbox", "tags": ["a"], "meta": {"x": "y"}, "id": "ignored", "created_at": "old"}),
            )
            .await
            .expect(200);
        let id = Uuid::parse_str(out["id"].as_str().unwrap()).unwrap();
        assert_eq!(id.get_version_num(), 7);
        for field in ["created_at", "updated_at"] {
            let t = out[field].as_str().unwrap();
            assert!(t.ends_with('Z') && t.len() == 24, "{t}");
        }
        assert_eq!(out["env_schema"], "https://gobl.org/draft-0/envelope");
        assert_eq!(out["doc_schema"], "https://gobl.org/draft-0/note/message");
        assert_eq!(out["typ"], "note/message");
        assert_eq!(out["signed"], false);
        assert_eq!(out["folder"], "inbox");
        assert_eq!(out["tags"], json!(["a"]));
        assert_eq!(out["meta"], json!({"x": "y"}));
        assert_eq!(out["attachments"], json!([]));
        assert!(out["version"].is_string());
        assert_eq!(out["data"]["head"]["uuid"], id.to_string());
        app.stop().await;
    }
}

#[tokio::test]
async fn ids_and_keys_reused_with_other_content_conflict() {
    for app in TestApp::backends().await {
        let id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}");
        app.put(&uri, &json!({"data": note(1), "key": "INV-1"}))
            .await
            .expect(200);
        // Same content (member order and whitespace do not matter): the stored envelope.
        app.put(&uri, &json!({"key": "INV-1", "data": note(1)}))
            .await
            .expect(200);
        app.put(&uri, &json!({"data": note(2), "key": "INV-1"}))
            .await
            .expect(409);
        let other = Uuid::new_v4();
        app.put(
            &format!("/silo/v1/envelopes/{other}"),
            &json!({"data": note(3), "key": "INV-1"}),
        )
        .await
        .expect(409);
        app.get(&format!("/silo/v1/envelopes/{other}"))
            .await
            .expect(404);
        assert_eq!(super::rows(&app, "silo_envelopes").await, 1);
        assert_eq!(super::rows(&app, "silo_versions").await, 1);
        app.stop().await;
    }
}

#[tokio::test]
async fn patch_makes_versions_and_keeps_the_old_ones() {
    for app in TestApp::backends().await {
        let id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}");
        let first = app.put(&uri, &json!({"data": note(1)})).await.expect(200);
        let v1 = first["version"].as_str().unwrap().to_owned();
        // Labels only: same version.
        let labelled = app
            .patch(
                &uri,
                &json!({"folder": "archive", "tags": ["x"], "data": null}),
            )
            .await
            .expect(200);
        assert_eq!(labelled["version"], v1.as_str());
        assert_eq!(labelled["folder"], "archive");
        // New data: new version and digest.
        let changed = app.patch(&uri, &json!({"data": note(2)})).await.expect(200);
        let v2 = changed["version"].as_str().unwrap();
        assert_ne!(v2, v1);
        assert_ne!(changed["digest"], first["digest"]);
        assert_eq!(changed["folder"], "archive");
        let old = app.get(&format!("{uri}/versions/{v1}")).await.expect(200);
        assert_eq!(old["version"], v1.as_str());
        assert_eq!(old["data"]["doc"]["n"], 1);
        let now = app.get(&uri).await.expect(200);
        assert_eq!(now["data"]["doc"]["n"], 2);
        let versions = app.get(&format!("{uri}/versions")).await.expect(200);
        assert_eq!(versions["list"].as_array().unwrap().len(), 2);
        app.get(&format!("{uri}/versions/nope")).await.expect(404);
        // A different uuid in the new data is refused and changes nothing.
        let mut env = now["data"].clone();
        env["head"]["uuid"] = json!(Uuid::new_v4().to_string());
        app.patch(&uri, &json!({"data": env})).await.expect(422);
        assert_eq!(super::rows(&app, "silo_versions").await, 2);
        app.stop().await;
    }
}

#[tokio::test]
async fn the_domain_api_modifies_signs_and_moves_envelopes() {
    for app in TestApp::backends().await {
        let silo = folio_silo::Silo::new(
            app.db.store.clone(),
            folio_store::Blobs::local(&app.db.dir().join("blobs")).unwrap(),
            folio_api::limits::Limits::default(),
        );
        let ws = folio_store::Scope::new(
            app.db
                .store
                .workspace_by_name("default")
                .await
                .unwrap()
                .unwrap()
                .id,
        );
        let entry = silo
            .create(
                ws,
                folio_silo::NewEnvelope {
                    data: note(1).to_string(),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        let patched = silo
            .modify(ws, entry.id, &json!({"title": "changed", "n": null}))
            .await
            .unwrap();
        let env = Envelope::from_json(patched.data.as_deref().unwrap()).unwrap();
        env.verify_digest().unwrap();
        assert_eq!(
            env.doc.get("title").and_then(|v| v.as_str()),
            Some("changed")
        );
        assert!(env.doc.get("n").is_none());
        let moved = silo
            .set_folder(ws, entry.id, Some("out".into()))
            .await
            .unwrap();
        assert_eq!(moved.folder.as_deref(), Some("out"));
        let signed = silo.sign(ws, entry.id).await.unwrap();
        assert!(signed.signed);
        let again = silo.sign(ws, entry.id).await.unwrap();
        assert_eq!(again.version, signed.version);
        assert!(matches!(
            silo.modify(ws, entry.id, &json!({"title": "x"})).await,
            Err(folio_silo::SiloError::Conflict(_))
        ));
        let state = silo
            .set_state(
                ws,
                entry.id,
                folio_silo::NewState {
                    key: "sent".into(),
                    src: Some("transform".into()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        assert_eq!(
            silo.get(ws, entry.id).await.unwrap().state.as_deref(),
            Some(state.key.as_str())
        );
        app.stop().await;
    }
}
