//! transform/v1 end to end: workflows, jobs, the engine, webhooks, crashes and two nodes.

mod attachments;
mod bad_input;
mod crash;
mod einvoice;
mod jobs;
mod listener;
mod national;
mod outbound;
mod pdf;
mod signing;
mod timeout;
mod workflows;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use axum::http::HeaderMap;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::TestApp;

/// Engine settings for tests: quick polling, short leases, a compressed webhook schedule, and
/// loopback allowed so that webhooks reach the tests' local receivers.
pub fn fast(config: &mut folio::Config) {
    config.outbound = folio_transform::outbound::Policy::allowing(&["127.0.0.0/8"]).unwrap();
    config.transform = toml::toml! {
        workers = 4
        lease_ms = 2000
        poll_ms = 50
        [retry]
        first_ms = 20
        max_ms = 100
        retries = 2
        [webhook]
        scale = 0.0001
    };
}

/// A server per backend with [`fast`] engine settings.
pub async fn apps() -> Vec<TestApp> {
    apps_with(|_| {}).await
}

/// A server per backend with [`fast`] engine settings, then `more` of its own.
pub async fn apps_with(more: impl Fn(&mut folio::Config)) -> Vec<TestApp> {
    let mut apps = Vec::new();
    for db in folio_store::testing::backends().await {
        let configure = |c: &mut folio::Config| {
            fast(c);
            more(c);
        };
        apps.push(TestApp::start_with(db, configure, folio::services::all()).await);
    }
    apps
}

/// Saves (PUT) a workflow and returns it.
pub async fn workflow(app: &TestApp, body: Value) -> Value {
    let id = Uuid::new_v4();
    app.put(&format!("/transform/v1/workflows/{id}"), &body)
        .await
        .expect(200)
}

/// Stores a small document in the silo; returns its id.
pub async fn envelope(app: &TestApp) -> Uuid {
    let id = Uuid::now_v7();
    let doc = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "hello"});
    app.put(&format!("/silo/v1/envelopes/{id}"), &json!({"data": doc}))
        .await
        .expect(200);
    id
}

/// Runs a job with `?wait=10` and returns it (completed).
pub async fn run(app: &TestApp, workflow_id: &Value, envelope: Uuid) -> Value {
    let job = app
        .post(
            "/transform/v1/jobs?wait=10",
            &json!({"workflow_id": workflow_id, "silo_entry_id": envelope}),
        )
        .await
        .expect(202);
    assert!(
        job["completed_at"].is_string(),
        "job did not complete: {job}"
    );
    job
}

/// Status of the last event of the last intent: how clients read a job's verdict.
pub fn verdict(job: &Value) -> String {
    let intents = job["intents"].as_array().expect("intents");
    last_status(intents.last().expect("an intent"))
}

/// The last status the step `step_id` reported in a job.
pub fn step_verdict(job: &Value, step_id: &str) -> String {
    let intents = job["intents"].as_array().expect("intents");
    let intent = intents
        .iter()
        .find(|i| i["step_id"] == step_id)
        .unwrap_or_else(|| panic!("no intent of step {step_id}: {job}"));
    last_status(intent)
}

fn last_status(intent: &Value) -> String {
    let events = intent["events"].as_array().expect("events");
    events.last().expect("an event")["status"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Scripted answers of a receiver: status and optional JSON body, in order.
type Script = Arc<Mutex<VecDeque<(u16, Option<Value>)>>>;

/// A local webhook receiver: records what it gets and answers from a script (then 200).
#[derive(Clone)]
pub struct Receiver {
    /// `http://127.0.0.1:PORT/hook`
    pub url: String,
    /// Bodies and headers received.
    pub got: Arc<Mutex<Vec<(Value, HeaderMap)>>>,
    script: Script,
    /// Answer when the script is empty.
    pub default: Arc<Mutex<u16>>,
}

impl Receiver {
    /// Starts a receiver.
    pub async fn start() -> Receiver {
        let got = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(Mutex::new(VecDeque::new()));
        let default = Arc::new(Mutex::new(200));
        let (g, s, d) = (got.clone(), script.clone(), default.clone());
        let app = axum::Router::new().route(
            "/hook",
            axum::routing::post(move |headers: HeaderMap, body: axum::body::Bytes| {
                let (g, s, d) = (g.clone(), s.clone(), d.clone());
                async move {
                    let value: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                    g.lock().unwrap().push((value, headers));
                    let (status, reply) = s
                        .lock()
                        .unwrap()
                        .pop_front()
                        .unwrap_or((*d.lock().unwrap(), None));
                    let status = axum::http::StatusCode::from_u16(status).unwrap();
                    match reply {
                        Some(v) => (status, axum::Json(v)).into_response(),
                        None => status.into_response(),
                    }
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Receiver {
            url: format!("http://{addr}/hook"),
            got,
            script,
            default,
        }
    }

    /// Queues answers.
    pub fn answer(&self, status: u16, reply: Option<Value>) {
        self.script.lock().unwrap().push_back((status, reply));
    }

    /// How many requests arrived.
    pub fn count(&self) -> usize {
        self.got.lock().unwrap().len()
    }
}

use axum::response::IntoResponse;
