//! The outbound guard over HTTP. Jobs here only ever target loopback receivers that count
//! their hits, so even a broken guard cannot make a test reach another network; the internal
//! networks (metadata service, RFC 1918, ...) are tried only at save time, where nothing
//! connects.
//!
//! A default configuration refuses loopback literals when a workflow is saved, so the jobs are
//! saved and queued by an API-only node that allows loopback, then run by a second node on the
//! same database with the configuration under test.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use folio_transform::outbound::Policy;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::{envelope, fast, workflow};
use crate::harness::TestApp;

/// A local receiver counting its hits; answers 200, or a redirect to `redirect`.
struct Hits {
    port: u16,
    count: Arc<AtomicUsize>,
}

impl Hits {
    async fn bind(addr: &str, redirect: Option<String>) -> Hits {
        let count = Arc::new(AtomicUsize::new(0));
        let counter = count.clone();
        let app = axum::Router::new().fallback(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            let redirect = redirect.clone();
            async move {
                match redirect {
                    Some(to) => (
                        axum::http::StatusCode::TEMPORARY_REDIRECT,
                        [(axum::http::header::LOCATION, to)],
                    )
                        .into_response(),
                    None => axum::http::StatusCode::OK.into_response(),
                }
            }
        });
        let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Hits { port, count }
    }

    fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }
}

use axum::response::IntoResponse;

/// One end-to-end case: a URL spelling and the receiver it reaches.
struct Case {
    url: String,
    hits: Hits,
    /// Delivered when the runner allows 127.0.0.0/8.
    delivered_with_allow_list: bool,
}

/// Receivers for every loopback spelling; the last case redirects from an allowed receiver to
/// one on `[::1]`, which `127.0.0.0/8` does not allow.
async fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (host, delivered) in [
        ("127.0.0.1", true),
        ("127.1", true),
        ("2130706433", true),
        ("0x7f000001", true),
        ("[::ffff:127.0.0.1]", true),
        ("localhost", true),
    ] {
        let hits = Hits::bind("127.0.0.1:0", None).await;
        let url = format!("http://{host}:{}/hook", hits.port);
        cases.push((url, hits, delivered));
    }
    let v6 = Hits::bind("[::1]:0", None).await;
    cases.push((format!("http://[::1]:{}/hook", v6.port), v6, false));
    let target = Hits::bind("[::1]:0", None).await;
    let redirect = format!("http://[::1]:{}/hook", target.port);
    let from = Hits::bind("127.0.0.1:0", Some(redirect)).await;
    cases.push((format!("http://127.0.0.1:{}/hook", from.port), from, true));
    cases.push(("(redirect target)".into(), target, false));
    cases
        .into_iter()
        .map(|(url, hits, delivered_with_allow_list)| Case {
            url,
            hits,
            delivered_with_allow_list,
        })
        .collect()
}

/// Saves one workflow per case and queues its job on `saver`; returns the job ids.
async fn queue(saver: &TestApp, cases: &[Case]) -> Vec<Option<Uuid>> {
    let mut ids = Vec::new();
    for case in cases {
        if !case.url.starts_with("http") {
            ids.push(None);
            continue;
        }
        let wf = workflow(
            saver,
            json!({"name": "hook", "steps": [
                {"id": "hook", "action": "webhook.send", "config": {"url": case.url}}]}),
        )
        .await;
        let id = Uuid::now_v7();
        let job = json!({"workflow_id": wf["id"], "silo_entry_id": envelope(saver).await});
        saver
            .put(&format!("/transform/v1/jobs/{id}"), &job)
            .await
            .expect(202);
        ids.push(Some(id));
    }
    ids
}

/// Runs the queued jobs on a second node with `outbound`; returns each job when done.
async fn run_on(saver: &TestApp, outbound: Policy, ids: &[Option<Uuid>]) -> Vec<Option<Value>> {
    let mut config = folio::Config::for_data(saver.db.dir().join("runner"));
    config.database = saver.db.url().to_string();
    // a second node of the cluster: the same key-encryption key as the first
    config.key = folio::config::KeySource::Base64(saver.db.key().to_base64());
    config.listen = ([127, 0, 0, 1], 0).into();
    config.ops_listen = ([127, 0, 0, 1], 0).into();
    fast(&mut config);
    config.outbound = outbound;
    let shutdown = CancellationToken::new();
    let runner = folio::launch(config, folio::services::all(), shutdown.clone())
        .await
        .expect("the runner starts");
    let mut jobs = Vec::new();
    for id in ids {
        jobs.push(match id {
            Some(id) => Some(finished(saver, *id).await),
            None => None,
        });
    }
    shutdown.cancel();
    runner.done.await.unwrap().unwrap();
    jobs
}

async fn finished(app: &TestApp, id: Uuid) -> Value {
    let started = Instant::now();
    loop {
        let job = app
            .get(&format!("/transform/v1/jobs/{id}"))
            .await
            .expect(200);
        if job["completed_at"].is_string() {
            return job;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "not done: {job}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// An API-only node allowing loopback: it saves what the default configuration would refuse.
async fn savers() -> Vec<TestApp> {
    super::apps_with(|c| {
        c.outbound = Policy::allowing(&["127.0.0.0/8", "::1"]).unwrap();
        c.transform
            .insert("workers".into(), toml::Value::Integer(0));
    })
    .await
}

fn last_event(job: &Value) -> &Value {
    let events = job["intents"][0]["events"].as_array().expect("events");
    events.last().expect("an event")
}

#[tokio::test]
async fn loopback_spellings_end_ko_by_default_and_reach_nobody() {
    for saver in savers().await {
        let cases = cases().await;
        let ids = queue(&saver, &cases).await;
        let jobs = run_on(&saver, Policy::default(), &ids).await;
        for (case, job) in cases.iter().zip(&jobs) {
            assert_eq!(case.hits.count(), 0, "{} was reached", case.url);
            let Some(job) = job else { continue };
            let event = last_event(job);
            assert_eq!(job["status"], "KO", "{}: {job}", case.url);
            assert_eq!(event["status"], "KO", "{}: {event}", case.url);
            assert_eq!(event["code"], "outbound-refused", "{}: {event}", case.url);
            let message = event["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("rule 'loopback'"),
                "{}: {message}",
                case.url
            );
            // refused at once, not retried
            let events = job["intents"][0]["events"].as_array().unwrap();
            assert!(events.iter().all(|e| e["status"] != "ERR"), "{job}");
        }
    }
}

#[tokio::test]
async fn the_allow_list_lets_its_networks_through_and_redirects_stay_unfollowed() {
    for saver in savers().await {
        let cases = cases().await;
        let ids = queue(&saver, &cases).await;
        let allow = Policy::allowing(&["127.0.0.0/8"]).unwrap();
        let jobs = run_on(&saver, allow, &ids).await;
        for (case, job) in cases.iter().zip(&jobs) {
            let expected = usize::from(case.delivered_with_allow_list);
            assert_eq!(case.hits.count(), expected, "{}", case.url);
            let Some(job) = job else { continue };
            let redirect = case.url == cases[cases.len() - 2].url;
            let ok = case.delivered_with_allow_list && !redirect;
            let status = if ok { "OK" } else { "KO" };
            assert_eq!(job["status"], status, "{}: {job}", case.url);
            if redirect {
                let message = last_event(job)["message"].as_str().unwrap_or_default();
                assert!(message.contains("redirects are not followed"), "{message}");
            }
        }
    }
}

#[tokio::test]
async fn internal_addresses_are_refused_when_a_workflow_is_saved() {
    // Nothing connects here: a refused literal address never gets past saving.
    let apps = super::apps().await;
    for app in apps {
        for (url, rule) in [
            ("http://169.254.169.254/latest/meta-data/", "link-local"),
            ("http://[::ffff:169.254.169.254]/latest/", "link-local"),
            ("http://2852039166/latest/", "link-local"),
            ("http://10.0.0.8/hook", "private"),
            ("http://172.16.4.4/hook", "private"),
            ("http://192.168.0.10/hook", "private"),
            ("http://100.64.1.1/hook", "cgnat"),
            ("http://[fd00::1]/hook", "private"),
            ("http://[fe80::1]/hook", "link-local"),
            ("http://0.0.0.0/hook", "unspecified"),
        ] {
            let body = json!({"name": "ssrf", "steps": [
                {"id": "hook", "action": "webhook.send", "config": {"url": url}}]});
            let e = app
                .put(
                    &format!("/transform/v1/workflows/{}", Uuid::new_v4()),
                    &body,
                )
                .await
                .expect(422);
            let field = e["fields"]["steps"]["0"]["config"]["url"]
                .as_str()
                .unwrap_or_else(|| panic!("{url}: no url field in {e}"));
            assert!(field.contains(&format!("rule '{rule}'")), "{url}: {field}");
        }
        let listed = app.get("/transform/v1/workflows").await.expect(200);
        assert_eq!(listed["list"].as_array().map(Vec::len), Some(0), "{listed}");
    }
}
