//! Bearer tokens: a valid one passes; every kind of bad one is 401 with the JSON error body.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{Duration, Utc};
use folio_api::auth::{Authenticator, Claims};
use jsonwebtoken::{Algorithm, EncodingKey, Header};

use crate::harness::TestApp;

async fn ping_with(app: &TestApp, authorization: Option<&str>) -> crate::harness::Resp {
    let mut request = app.client.get(format!("{}/utils/v1/ping", app.base));
    if let Some(value) = authorization {
        request = request.header("authorization", value);
    }
    app.send(request).await
}

#[tokio::test]
async fn ping_with_a_valid_token_and_every_kind_of_bad_token() {
    for app in TestApp::backends().await {
        let label = app.label();
        let body = ping_with(&app, Some(&format!("Bearer {}", app.token)))
            .await
            .expect(200);
        assert_eq!(body, serde_json::json!({"ping": "pong"}), "{label}");

        let store = app.db.store.clone();
        let auth = Authenticator::new(store.clone()).await.unwrap();
        let workspace = store.workspace_by_name("default").await.unwrap().unwrap();
        let secret = store.server_secret().await.unwrap();
        let now = Utc::now().timestamp();

        let (_, expired) = auth
            .issue(workspace.id, Some(Utc::now() - Duration::seconds(5)))
            .await
            .unwrap();
        let (revoked_id, revoked) = auth.issue(workspace.id, None).await.unwrap();
        assert!(store.revoke_token(revoked_id).await.unwrap());
        let claims = Claims {
            jti: uuid::Uuid::now_v7(),
            wsp: workspace.id,
            iat: now,
            exp: None,
        };
        let wrong_key = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(b"not the server secret"),
        )
        .unwrap();
        let unknown_id = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(&secret),
        )
        .unwrap();
        let other_alg = jsonwebtoken::encode(
            &Header::new(Algorithm::HS512),
            &claims,
            &EncodingKey::from_secret(&secret),
        )
        .unwrap();
        // `alg: none` with the claims of a real, unrevoked token: only the signature is missing.
        let (_, real) = auth.issue(workspace.id, None).await.unwrap();
        let real_claims = real.split('.').nth(1).unwrap();
        let none_header = URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#);
        let alg_none = format!("{none_header}.{real_claims}.");
        // The real token's signature over other claims.
        let real_signature = real.split('.').nth(2).unwrap();
        let forged_claims = URL_SAFE_NO_PAD.encode(
            serde_json::to_vec(&Claims {
                jti: revoked_id,
                wsp: workspace.id,
                iat: now,
                exp: None,
            })
            .unwrap(),
        );
        let spliced = format!(
            "{}.{forged_claims}.{real_signature}",
            real.split('.').next().unwrap()
        );

        let cases: Vec<(&str, Option<String>)> = vec![
            ("missing header", None),
            ("empty bearer", Some("Bearer ".into())),
            ("basic scheme", Some("Basic dXNlcjpwYXNz".into())),
            ("malformed", Some("Bearer not.a.token".into())),
            ("garbage", Some("Bearer abc".into())),
            ("expired", Some(format!("Bearer {expired}"))),
            ("revoked", Some(format!("Bearer {revoked}"))),
            ("wrongly signed", Some(format!("Bearer {wrong_key}"))),
            ("unknown id", Some(format!("Bearer {unknown_id}"))),
            ("other algorithm", Some(format!("Bearer {other_alg}"))),
            ("alg none", Some(format!("Bearer {alg_none}"))),
            ("spliced signature", Some(format!("Bearer {spliced}"))),
        ];
        for (case, header) in cases {
            let resp = ping_with(&app, header.as_deref()).await;
            let body = resp.expect(401);
            assert_eq!(body["key"], "unauthorized", "{label} {case}");
        }
        // The real token still works, so the 401s above were about the tokens.
        ping_with(&app, Some(&format!("Bearer {real}")))
            .await
            .expect(200);
    }
}

#[tokio::test]
async fn tokens_are_bound_to_their_workspace() {
    let app = TestApp::sqlite().await;
    let other = app.other_workspace("acme").await;
    let resp = app
        .send(
            app.client
                .get(format!("{}/utils/v1/ping", app.base))
                .bearer_auth(&other),
        )
        .await;
    resp.expect(200);
    let claims = other.split('.').nth(1).unwrap();
    let claims: serde_json::Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims).unwrap()).unwrap();
    let default = app
        .db
        .store
        .workspace_by_name("default")
        .await
        .unwrap()
        .unwrap();
    assert_ne!(claims["wsp"], default.id.to_string());
}

#[tokio::test]
async fn revocation_reaches_a_running_server_within_the_token_cache_lifetime() {
    for cache_ms in [0u64, 300] {
        let app = TestApp::start_with(
            folio_store::testing::sqlite().await,
            |c| c.auth.token_cache_ms = cache_ms,
            folio::services::all(),
        )
        .await;
        let store = app.db.store.clone();
        let auth = Authenticator::new(store.clone()).await.unwrap();
        let workspace = store.workspace_by_name("default").await.unwrap().unwrap();
        let (id, token) = auth.issue(workspace.id, None).await.unwrap();
        let header = format!("Bearer {token}");
        ping_with(&app, Some(&header)).await.expect(200);
        assert!(store.revoke_token(id).await.unwrap());
        let revoked_at = std::time::Instant::now();
        if cache_ms == 0 {
            ping_with(&app, Some(&header)).await.expect(401);
            continue;
        }
        loop {
            let resp = ping_with(&app, Some(&header)).await;
            if resp.status == 401 {
                break;
            }
            resp.expect(200);
            assert!(
                revoked_at.elapsed() < std::time::Duration::from_millis(cache_ms + 700),
                "still accepted {:?} after revocation",
                revoked_at.elapsed()
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
}

#[tokio::test]
async fn a_token_that_expires_while_in_use_is_refused_from_then_on() {
    let app = TestApp::sqlite().await;
    let store = app.db.store.clone();
    let auth = Authenticator::new(store.clone()).await.unwrap();
    let workspace = store.workspace_by_name("default").await.unwrap().unwrap();
    // `exp` has whole seconds: two from now is at least one second of validity.
    let expires_at = Utc::now() + Duration::seconds(2);
    let (_, token) = auth.issue(workspace.id, Some(expires_at)).await.unwrap();
    let header = format!("Bearer {token}");
    // Accepted (and so remembered as verified) while valid...
    ping_with(&app, Some(&header)).await.expect(200);
    ping_with(&app, Some(&header)).await.expect(200);
    let wait = (expires_at - Utc::now()).to_std().unwrap_or_default();
    tokio::time::sleep(wait + std::time::Duration::from_millis(1100)).await;
    // ...and refused once past its expiry, however recently it was verified.
    let body = ping_with(&app, Some(&header)).await.expect(401);
    assert_eq!(body["key"], "unauthorized");
    assert!(body.to_string().contains("expired"), "{body}");
}
