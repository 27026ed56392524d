//! Step time limits: a step's `timeout` (or the engine's `step_timeout_ms`) stops a step that
//! runs too long; it ends `KO` with code `timeout`, which `next` rules match as `TIMEOUT`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use uuid::Uuid;

use super::{apps, apps_with, envelope, run, verdict, workflow};

/// A webhook receiver that answers only after `delay`; counts the requests it got.
async fn slow_receiver(delay: Duration) -> (String, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move || {
            let counter = counter.clone();
            async move {
                counter.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(delay).await;
                axum::http::StatusCode::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/hook"), hits)
}

fn steps_of(job: &Value) -> Vec<String> {
    job["intents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["step_id"].as_str().unwrap().to_string())
        .collect()
}

/// The statuses of an intent's events, in order.
fn statuses_of(intent: &Value) -> Vec<&str> {
    intent["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["status"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn a_slow_step_is_stopped_and_timeout_rules_route_it() {
    for app in apps().await {
        let (url, hits) = slow_receiver(Duration::from_secs(20)).await;
        let wf = workflow(
            &app,
            json!({"name": "slow hook", "steps": [
                {"id": "hook", "action": "webhook.send", "config": {"url": url}, "timeout": 0.5,
                 "next": [{"status": "TIMEOUT", "step_id": "late"}]},
                {"id": "sent", "action": "silo.state", "config": {"state": "sent"},
                 "next": [{"stop": true}]},
                {"id": "late", "action": "silo.state", "config": {"state": "error"}}
            ]}),
        )
        .await;
        assert_eq!(wf["steps"][0]["timeout"], 0.5, "the limit is kept: {wf}");
        let env = envelope(&app).await;
        let started = Instant::now();
        let job = run(&app, &wf["id"], env).await;
        let took = started.elapsed();
        // the receiver answers after 20 s: 10 s tells "stopped" from "waited", under any load
        assert!(
            took < Duration::from_secs(10),
            "{}: stopped after {took:?}",
            app.label()
        );
        assert!(took >= Duration::from_millis(450), "{took:?}");
        assert_eq!(
            steps_of(&job),
            vec!["hook", "late"],
            "{}: {job}",
            app.label()
        );
        let hook = &job["intents"][0];
        assert_eq!(hook["completed"], true);
        let events = hook["events"].as_array().unwrap();
        assert_eq!(statuses_of(hook), vec!["RUN", "KO"], "{hook}");
        assert_eq!(events[1]["code"], "timeout");
        assert_eq!(events[1]["args"]["timeout"], "0.5");
        assert_eq!(hits.load(Ordering::SeqCst), 1, "stopped, not retried");
        assert_eq!(job["faults"][0]["code"], "timeout");
        // the TIMEOUT rule handled it: the job carried on and ended OK
        assert_eq!(job["status"], "OK");
        assert_eq!(verdict(&job), "OK");
        let e = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        assert_eq!(e["state"], "error");
        // no rule for it: a timeout is a KO like any other, so rescue runs
        let wf = workflow(
            &app,
            json!({"name": "slow hook, rescued", "steps": [
                {"id": "hook", "action": "webhook.send", "config": {"url": url}, "timeout": 0.3}
            ], "rescue": [
                {"id": "r", "action": "silo.folder", "config": {"folder": "failed"}}
            ]}),
        )
        .await;
        let job = run(&app, &wf["id"], env).await;
        assert_eq!(steps_of(&job), vec!["hook", "r"], "{job}");
        assert_eq!(job["status"], "KO");
        assert_eq!(verdict(&job), "KO");
        app.stop().await;
    }
}

/// A step that runs longer than the lease keeps its job: the worker renews the lease while the
/// step runs, so no other worker claims the job and calls the receiver again.
#[tokio::test]
async fn a_step_longer_than_its_lease_keeps_the_job_by_renewing_it() {
    let servers = apps_with(|c| {
        c.transform
            .insert("lease_ms".into(), toml::Value::Integer(300));
    })
    .await;
    for app in servers {
        // four leases long: renewed every 100 ms, or claimed again by a worker polling every 50
        let (url, hits) = slow_receiver(Duration::from_millis(1200)).await;
        let wf = workflow(
            &app,
            json!({"name": "long hook", "steps": [
                {"id": "hook", "action": "webhook.send", "config": {"url": url}}
            ]}),
        )
        .await;
        let env = envelope(&app).await;
        let job = run(&app, &wf["id"], env).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        assert_eq!(
            hits.load(Ordering::SeqCst),
            1,
            "{}: called once",
            app.label()
        );
        let statuses = statuses_of(&job["intents"][0]);
        assert_eq!(statuses, vec!["RUN", "OK"], "{}: {job}", app.label());
        app.stop().await;
    }
}

#[tokio::test]
async fn the_limit_covers_waits_and_the_engine_default_applies() {
    let servers = apps_with(|c| {
        c.transform
            .insert("step_timeout_ms".into(), toml::Value::Integer(400));
    })
    .await;
    for app in servers {
        let env = envelope(&app).await;
        // a sleep longer than the default limit is cut short (it holds no worker: the limit
        // counts from the step's first run, waits included)
        let wf = workflow(
            &app,
            json!({"name": "long sleep", "steps": [
                {"id": "nap", "action": "sleep", "config": {"seconds": 30},
                 "next": [{"status": "TIMEOUT", "stop": true}]},
                {"id": "never", "action": "silo.state", "config": {"state": "void"}}
            ]}),
        )
        .await;
        let started = Instant::now();
        let job = run(&app, &wf["id"], env).await;
        let took = started.elapsed();
        assert!(took < Duration::from_secs(10), "{}: {took:?}", app.label());
        assert_eq!(steps_of(&job), vec!["nap"], "{job}");
        let events = job["intents"][0]["events"].as_array().unwrap();
        assert_eq!(events.last().unwrap()["status"], "KO");
        assert_eq!(events.last().unwrap()["code"], "timeout");
        assert_eq!(events.last().unwrap()["args"]["timeout"], "0.4");
        // a step's own limit wins over the default; 0 means none
        let wf = workflow(
            &app,
            json!({"name": "short sleep", "steps": [
                {"id": "nap", "action": "sleep", "config": {"seconds": 0.8}, "timeout": 0},
                {"id": "nap2", "action": "sleep", "config": {"seconds": 0.6}, "timeout": 5}
            ]}),
        )
        .await;
        let job = run(&app, &wf["id"], env).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        assert_eq!(steps_of(&job), vec!["nap", "nap2"]);
        app.stop().await;
    }
}

#[tokio::test]
async fn a_bad_timeout_is_refused_at_save_time() {
    for app in apps().await {
        for bad in [json!(-1), json!(1e9), json!("5")] {
            let e = app
                .put(
                    &format!("/transform/v1/workflows/{}", Uuid::new_v4()),
                    &json!({"name": "bad", "steps": [
                        {"id": "a", "action": "sleep", "config": {"seconds": 1}, "timeout": bad}]}),
                )
                .await
                .expect(422);
            assert!(
                e["fields"]["steps"]["0"]["timeout"].is_string() || e["fields"].is_object(),
                "{}: {e}",
                app.label()
            );
        }
        let e = app
            .put(
                &format!("/transform/v1/workflows/{}", Uuid::new_v4()),
                &json!({"name": "bad", "steps": [
                    {"id": "a", "action": "sleep", "config": {"seconds": 1}, "timeout": -1}]}),
            )
            .await
            .expect(422);
        assert!(e["fields"]["steps"]["0"]["timeout"].is_string(), "{e}");
        app.stop().await;
    }
}
