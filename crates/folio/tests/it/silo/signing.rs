//! Signing with the workspace key, verification on input, and signed documents staying put.

use gobl::envelope::Envelope;
use gobl::sign::{PrivateKey, PublicKey};
use serde_json::{Value, json};
use uuid::Uuid;

use super::note;
use crate::harness::TestApp;

async fn workspace_keys(app: &TestApp) -> Vec<PublicKey> {
    let set = app.get("/silo/v1/keys").await.expect(200);
    set["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            assert!(k.get("d").is_none(), "no private part is published");
            PublicKey::from_jwk(&serde_json::from_value(k.clone()).unwrap()).unwrap()
        })
        .collect()
}

fn parse(data: &Value) -> Envelope {
    Envelope::from_json(&data.to_string()).unwrap()
}

#[tokio::test]
async fn sign_then_verify_and_tampering_is_rejected() {
    for app in TestApp::backends().await {
        let keys = workspace_keys(&app).await;
        assert_eq!(keys.len(), 1);
        assert_eq!(workspace_keys(&app).await, keys, "the key is stable");

        let id = Uuid::new_v4();
        let uri = format!("/silo/v1/envelopes/{id}");
        let out = app
            .put(&uri, &json!({"data": note(1), "sign": true}))
            .await
            .expect(200);
        assert_eq!(out["signed"], true);
        let env = parse(&out["data"]);
        assert_eq!(env.sigs.len(), 1);
        env.verify_signatures(&keys)
            .expect("the signature verifies with the published key");
        // Repeating the request is idempotent (no second signature).
        let again = app
            .put(&uri, &json!({"data": note(1), "sign": true}))
            .await
            .expect(200);
        assert_eq!(again["version"], out["version"]);

        // The signed envelope, stored again elsewhere as received: accepted (signature verifies).
        let mut copy_ws = out["data"].clone();
        let other_token = app.other_workspace("copy").await;
        let put = super::send_as(
            &app,
            &other_token,
            reqwest::Method::PUT,
            &uri,
            Some(json!({"data": copy_ws}).to_string()),
        )
        .await;
        assert_eq!(put.expect(200)["signed"], true);

        // Tampered document, digest left alone: digest mismatch.
        let tampered_id = Uuid::new_v4();
        copy_ws["head"]["uuid"] = json!(tampered_id.to_string());
        copy_ws["doc"]["title"] = json!("tampered");
        let b = app
            .put(
                &format!("/silo/v1/envelopes/{tampered_id}"),
                &json!({"data": copy_ws}),
            )
            .await
            .expect(422);
        assert_eq!(b["faults"][0]["code"], "digest-mismatch");
        // Tampered document with a recomputed digest: the signature no longer matches.
        let mut env = parse(&copy_ws);
        env.refresh_digest().unwrap();
        let data: Value = serde_json::from_str(&env.to_json_string()).unwrap();
        let b = app
            .put(
                &format!("/silo/v1/envelopes/{tampered_id}"),
                &json!({"data": data}),
            )
            .await
            .expect(422);
        assert_eq!(b["faults"][0]["code"], "signature-mismatch", "{b}");
        // A forged signature claiming the workspace key: invalid.
        let forger = PrivateKey::from_jwk_json(
            &serde_json::to_string(&{
                let mut jwk = PrivateKey::generate().to_jwk();
                jwk.kid = keys[0].kid().to_owned();
                jwk
            })
            .unwrap(),
        )
        .unwrap();
        let mut forged = Envelope::wrap(
            tampered_id,
            gobl::json::parse(&note(5).to_string()).unwrap(),
        )
        .unwrap();
        forged.sign(&forger, 1_700_000_000).unwrap();
        let data: Value = serde_json::from_str(&forged.to_json_string()).unwrap();
        let b = app
            .put(
                &format!("/silo/v1/envelopes/{tampered_id}"),
                &json!({"data": data}),
            )
            .await
            .expect(422);
        assert_eq!(b["faults"][0]["code"], "signature-invalid", "{b}");

        // The signed envelope's document cannot change; its labels can.
        app.patch(&uri, &json!({"data": note(2)})).await.expect(409);
        app.patch(&uri, &json!({"folder": "sent"}))
            .await
            .expect(200);
        assert_eq!(super::rows(&app, "silo_envelopes").await, 2);
        app.stop().await;
    }
}
