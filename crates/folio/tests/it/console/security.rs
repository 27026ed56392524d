//! The console's protections over plain HTTP, on every backend: no session → sign-in; a forged
//! cross-site POST is refused; the CSP header is on every page; another workspace's envelope is
//! 404; sign-out and a revoked token end the session; a one-time link works once.

use reqwest::redirect::Policy;
use serde_json::json;

use crate::harness::TestApp;

/// A client that keeps no cookies and follows no redirects: each test says what it sends.
fn raw() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .unwrap()
}

/// Signs in with `token`; returns the session cookie (`folio_session=...`).
async fn sign_in(app: &TestApp, token: &str) -> String {
    let resp = raw()
        .post(format!("{}/console/sign-in", app.base))
        .form(&[("token", token), ("next", "/console/envelopes")])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 303, "{}", app.label());
    assert_eq!(resp.headers()["location"], "/console/envelopes");
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_owned();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/console"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    cookie.split(';').next().unwrap().to_owned()
}

async fn get(app: &TestApp, path: &str, cookie: &str) -> reqwest::Response {
    raw()
        .get(format!("{}{path}", app.base))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap()
}

/// Runs the `folio` command line on the app's storage; its stdout (it must succeed).
fn cli(app: &TestApp, args: &[&str]) -> String {
    let data = app.data.display().to_string();
    let mut all = args.to_vec();
    all.extend_from_slice(&["--data", &data, "--database", app.db.url()]);
    let (code, out, err) = crate::harness::run_cli(&all);
    assert_eq!(code, 0, "{err}");
    out
}

/// The CSRF token in a page's forms.
fn csrf_of(page: &str) -> String {
    let at = page.find("name=\"csrf\" value=\"").expect("a CSRF field") + 19;
    page[at..].split('"').next().unwrap().to_owned()
}

#[tokio::test]
async fn pages_need_a_session_and_carry_a_strict_csp() {
    for app in TestApp::backends().await {
        for path in [
            "/console/",
            "/console/envelopes",
            "/console/jobs",
            "/console/upload",
        ] {
            let resp = get(&app, path, "").await;
            assert_eq!(resp.status(), 303, "{path}");
            let to = resp.headers()["location"].to_str().unwrap().to_owned();
            assert!(
                to.starts_with("/console/sign-in") || to == "/console/envelopes",
                "{path} → {to}"
            );
        }
        // a made-up session is no session
        let resp = get(&app, "/console/envelopes", "folio_session=made-up").await;
        assert_eq!(resp.status(), 303);
        let invoice = serde_json::json!({"data": crate::silo::invoice("CSP", "77", 3)});
        app.post("/silo/v1/envelopes", &invoice).await.expect(200);
        let cookie = sign_in(&app, &app.token).await;
        for path in [
            "/console/sign-in",
            "/console/envelopes",
            "/console/jobs",
            "/console/workflows",
            "/console/series",
            "/console/upload",
        ] {
            let resp = get(&app, path, &cookie).await;
            assert_eq!(resp.status(), 200, "{path} ({})", app.label());
            let csp = resp.headers()["content-security-policy"].to_str().unwrap();
            assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
            assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
            assert_eq!(resp.headers()["x-content-type-options"], "nosniff");
            let page = resp.text().await.unwrap();
            assert!(!page.contains("<script>"), "{path}: an inline script");
            assert!(!page.contains("style="), "{path}: an inline style");
            if path == "/console/envelopes" {
                // the row's facts, read from the document on either backend
                for fact in ["CSP-77", "Muster GmbH", "Kunde AG", "EUR", "357.00"] {
                    assert!(page.contains(fact), "{} lists no {fact}", app.label());
                }
            }
        }
        // the error pages too
        let resp = get(&app, "/console/no-such-page", &cookie).await;
        assert_eq!(resp.status(), 404);
        assert!(resp.headers().contains_key("content-security-policy"));
    }
}

#[tokio::test]
async fn a_forged_cross_site_post_is_refused() {
    for app in TestApp::backends().await {
        let cookie = sign_in(&app, &app.token).await;
        let page = get(&app, "/console/envelopes", &cookie)
            .await
            .text()
            .await
            .unwrap();
        let csrf = csrf_of(&page);
        let post = |origin: Option<&'static str>, site: Option<&'static str>, csrf: String| {
            let mut req = raw()
                .post(format!("{}/console/sign-out", app.base))
                .header("cookie", &cookie)
                .form(&[("csrf", csrf)]);
            if let Some(origin) = origin {
                req = req.header("origin", origin);
            }
            if let Some(site) = site {
                req = req.header("sec-fetch-site", site);
            }
            req.send()
        };
        // from another site, even with the right token and the cookie (an old browser that
        // sends cookies cross-site)
        let resp = post(Some("http://evil.example"), None, csrf.clone())
            .await
            .unwrap();
        assert_eq!(resp.status(), 403, "{}", app.label());
        let resp = post(None, Some("cross-site"), csrf.clone()).await.unwrap();
        assert_eq!(resp.status(), 403);
        // same origin without the token, or with another session's
        let resp = post(None, None, String::new()).await.unwrap();
        assert_eq!(resp.status(), 403);
        let other = sign_in(&app, &app.token).await;
        let other_page = get(&app, "/console/envelopes", &other)
            .await
            .text()
            .await
            .unwrap();
        let resp = post(None, None, csrf_of(&other_page)).await.unwrap();
        assert_eq!(resp.status(), 403);
        // the session survived all of it
        assert_eq!(get(&app, "/console/envelopes", &cookie).await.status(), 200);
        // and the real form signs out: the cookie no longer opens anything
        let origin = Box::leak(app.base.clone().into_boxed_str());
        let resp = post(Some(origin), Some("same-origin"), csrf).await.unwrap();
        assert_eq!(resp.status(), 303);
        assert_eq!(get(&app, "/console/envelopes", &cookie).await.status(), 303);
    }
}

#[tokio::test]
async fn another_workspaces_envelope_is_not_found() {
    for app in TestApp::backends().await {
        let doc = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "mine"});
        let env = app
            .post("/silo/v1/envelopes", &json!({"data": doc}))
            .await
            .expect(200);
        let id = env["id"].as_str().unwrap();
        let mine = sign_in(&app, &app.token).await;
        assert_eq!(
            get(&app, &format!("/console/envelopes/{id}"), &mine)
                .await
                .status(),
            200
        );
        let other_token = app.other_workspace("other").await;
        let theirs = sign_in(&app, &other_token).await;
        for path in [
            format!("/console/envelopes/{id}"),
            format!("/console/envelopes/{id}/pdf"),
        ] {
            let resp = get(&app, &path, &theirs).await;
            assert_eq!(resp.status(), 404, "{path} ({})", app.label());
        }
        let list = get(&app, "/console/envelopes", &theirs)
            .await
            .text()
            .await
            .unwrap();
        assert!(!list.contains(id), "listed in the other workspace");
    }
}

#[tokio::test]
async fn a_revoked_token_ends_its_sessions_and_a_bad_token_opens_none() {
    for db in folio_store::testing::backends().await {
        // without the token cache, so the revocation shows at once (it shows within
        // `token_cache_ms` otherwise, as for the API)
        let app =
            TestApp::start_with(db, |c| c.auth.token_cache_ms = 0, folio::services::all()).await;
        let resp = raw()
            .post(format!("{}/console/sign-in", app.base))
            .form(&[("token", "not-a-token"), ("next", "")])
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 401);
        assert!(!resp.headers().contains_key("set-cookie"));
        let token = app.other_workspace("short-lived").await;
        let cookie = sign_in(&app, &token).await;
        assert_eq!(get(&app, "/console/envelopes", &cookie).await.status(), 200);
        let claims = token.split('.').nth(1).unwrap();
        let claims: serde_json::Value = serde_json::from_slice(
            &base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, claims)
                .unwrap(),
        )
        .unwrap();
        let id = claims["jti"].as_str().unwrap().parse().unwrap();
        assert!(app.db.store.revoke_token(id).await.unwrap());
        assert_eq!(get(&app, "/console/envelopes", &cookie).await.status(), 303);
    }
}

#[tokio::test]
async fn a_console_link_signs_in_once() {
    for app in TestApp::backends().await {
        let out = cli(&app, &["console-link", "--url", &app.base]);
        let link = out.trim();
        assert!(
            link.starts_with(&format!("{}/console/link/", app.base)),
            "{link}"
        );
        // opening the link only shows a button (a link preview does not use it up)
        let page = raw().get(link).send().await.unwrap();
        assert_eq!(page.status(), 200);
        assert_eq!(page.headers()["referrer-policy"], "no-referrer");
        let secret = link.rsplit('/').next().unwrap();
        let use_it = || {
            raw()
                .post(format!("{}/console/link", app.base))
                .form(&[("secret", secret)])
                .send()
        };
        let first = use_it().await.unwrap();
        assert_eq!(first.status(), 303, "{}", app.label());
        let cookie = first.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_owned();
        assert_eq!(get(&app, "/console/envelopes", &cookie).await.status(), 200);
        let again = use_it().await.unwrap();
        assert_eq!(again.status(), 401, "a link works once");
    }
}
