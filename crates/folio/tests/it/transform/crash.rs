//! Crashes and several nodes: the real `folio` binary, killed with SIGKILL mid-workflow.

use std::collections::HashMap;
use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

use super::Receiver;
use crate::harness::Process;

const ENV: &[(&str, &str)] = &[
    ("FOLIO_TRANSFORM_LEASE_MS", "1000"),
    ("FOLIO_TRANSFORM_POLL_MS", "50"),
    ("FOLIO_TRANSFORM_WORKERS", "4"),
    ("FOLIO_OUTBOUND_ALLOW", "127.0.0.0/8"),
    ("FOLIO_TRANSFORM_SHUTDOWN_GRACE_MS", "500"),
];

/// A minimal client for a child process.
struct Client {
    base: String,
    token: String,
    http: reqwest::Client,
}

impl Client {
    /// One call; a 429 (the per-token rate limit, hit by this test's volume) is retried after
    /// its `Retry-After`.
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        loop {
            let mut req = self
                .http
                .request(method.clone(), format!("{}{path}", self.base))
                .bearer_auth(&self.token);
            if let Some(b) = &body {
                req = req.json(b);
            }
            let resp = req.send().await.expect("answered");
            let status = resp.status().as_u16();
            if status == 429 {
                let wait = resp
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(1u64);
                tokio::time::sleep(Duration::from_secs(wait)).await;
                continue;
            }
            let body = resp.json().await.unwrap_or(Value::Null);
            return (status, body);
        }
    }

    async fn ok(&self, method: Method, path: &str, body: Option<Value>) -> Value {
        let (status, body) = self.call(method, path, body).await;
        assert!(status < 300, "{status}: {body}");
        body
    }

    async fn envelope(&self) -> Uuid {
        let id = Uuid::now_v7();
        let doc = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "crash"});
        self.ok(
            Method::PUT,
            &format!("/silo/v1/envelopes/{id}"),
            Some(json!({"data": doc})),
        )
        .await;
        id
    }

    /// A new envelope and a job of `wf` on it: (job id, envelope id).
    async fn job_on_new_envelope(&self, wf: &Value) -> (String, Uuid) {
        let env = self.envelope().await;
        let job = self
            .ok(
                Method::POST,
                "/transform/v1/jobs",
                Some(json!({"workflow_id": wf["id"], "silo_entry_id": env})),
            )
            .await;
        (job["id"].as_str().unwrap().to_string(), env)
    }
}

fn client(p: &Process, data: &std::path::Path) -> Client {
    let token = std::fs::read_to_string(data.join("token")).expect("token file");
    Client {
        base: p.base.clone(),
        token: token.trim().to_string(),
        http: reqwest::Client::new(),
    }
}

async fn states_of(c: &Client, env: Uuid) -> Vec<String> {
    let s = c
        .ok(
            Method::GET,
            &format!("/silo/v1/envelopes/{env}/states"),
            None,
        )
        .await;
    s["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["key"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn sigkill_mid_workflow_then_restart_completes_every_job_once() {
    for db in folio_store::testing::backends().await {
        let data = db.dir().join("server");
        let mut node = Process::spawn(&data, db.url(), ENV).await;
        let c = client(&node, &data);
        let wf = c
            .ok(
                Method::PUT,
                &format!("/transform/v1/workflows/{}", Uuid::new_v4()),
                Some(json!({
                "name": "crash", "steps": [
                    {"id": "a", "action": "silo.state", "config": {"state": "processing"}},
                    {"id": "nap", "action": "sleep", "config": {"seconds": 1}},
                    {"id": "b", "action": "silo.folder", "config": {"folder": "done"}},
                    {"id": "c", "action": "silo.state", "config": {"state": "completed"}}
                ]})),
            )
            .await;
        let mut jobs = Vec::new();
        for _ in 0..20 {
            jobs.push(c.job_on_new_envelope(&wf).await);
        }
        // let them get going, then kill the process without warning
        tokio::time::sleep(Duration::from_millis(400)).await;
        node.signal("KILL");
        node.wait().await;
        let mut running = 0;
        let store = &db.store;
        for (id, _) in &jobs {
            let done: Option<i64> =
                sqlx::query_scalar("SELECT completed_at FROM transform_jobs WHERE id = $1")
                    .bind(id.clone())
                    .fetch_one(store.pool())
                    .await
                    .unwrap();
            running += usize::from(done.is_none());
        }
        assert!(
            running > 0,
            "{}: the kill came too late to test anything",
            db.label
        );
        // restart on the same data: every job finishes
        let node = Process::spawn(&data, db.url(), ENV).await;
        let c = client(&node, &data);
        for (id, env) in &jobs {
            let job = c
                .ok(
                    Method::GET,
                    &format!("/transform/v1/jobs/{id}?wait=20"),
                    None,
                )
                .await;
            assert_eq!(job["status"], "OK", "{}: {job}", db.label);
            let steps: Vec<&str> = job["intents"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["step_id"].as_str().unwrap())
                .collect();
            assert_eq!(
                steps,
                vec!["a", "nap", "b", "c"],
                "{}: each step ran as one intent",
                db.label
            );
            // silo.state is idempotent: no state was added twice
            assert_eq!(
                states_of(&c, *env).await,
                vec!["processing", "completed"],
                "{}",
                db.label
            );
        }
        drop(node);
    }
}

#[tokio::test]
async fn two_nodes_on_postgres_complete_500_jobs_exactly_once_and_survive_a_kill() {
    let Some(db) = folio_store::testing::postgres().await else {
        return;
    };
    let data = db.dir().join("server");
    let a = Process::spawn(&data, db.url(), ENV).await;
    let mut b = Process::spawn(&data, db.url(), ENV).await;
    let ca = client(&a, &data);
    let cb = client(&b, &data);
    let hook = Receiver::start().await;
    let wf = ca
        .ok(
            Method::PUT,
            &format!("/transform/v1/workflows/{}", Uuid::new_v4()),
            Some(json!({
            "name": "two nodes", "steps": [
                {"id": "a", "action": "silo.state", "config": {"state": "processing"}},
                {"id": "hook", "action": "webhook.send", "config": {"url": hook.url}},
                {"id": "b", "action": "silo.folder", "config": {"folder": "done"}}
            ]})),
        )
        .await;
    const N: usize = 500;
    let mut jobs = Vec::new();
    for i in 0..N {
        let c = if i % 2 == 0 || i > N / 2 { &ca } else { &cb };
        jobs.push(c.job_on_new_envelope(&wf).await);
        if i == N / 2 {
            // kill node B midway, with jobs in its hands
            b.signal("KILL");
            b.wait().await;
        }
    }
    let mut by_node_claims = 0i64;
    for (id, env) in &jobs {
        let job = ca
            .ok(
                Method::GET,
                &format!("/transform/v1/jobs/{id}?wait=30"),
                None,
            )
            .await;
        assert_eq!(job["status"], "OK", "{job}");
        let steps: Vec<&str> = job["intents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["step_id"].as_str().unwrap())
            .collect();
        assert_eq!(steps, vec!["a", "hook", "b"]);
        assert_eq!(states_of(&ca, *env).await, vec!["processing"]);
        let claims: i64 = sqlx::query_scalar("SELECT claims FROM transform_jobs WHERE id = $1")
            .bind(id.clone())
            .fetch_one(db.store.pool())
            .await
            .unwrap();
        by_node_claims += claims;
    }
    // every job was delivered; a job whose webhook was in flight on the killed node may have
    // been delivered again by the other (webhooks are at-least-once), never more than the
    // handful of jobs node B had leased
    let got = hook.got.lock().unwrap().clone();
    let mut per_job: HashMap<String, usize> = HashMap::new();
    for (payload, _) in &got {
        *per_job
            .entry(payload["transform_job_id"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    assert_eq!(per_job.len(), N);
    let repeats: usize = per_job.values().map(|n| n - 1).sum();
    assert!(repeats <= 4, "{repeats} repeated deliveries");
    let completed: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM transform_jobs WHERE completed_at IS NOT NULL")
            .fetch_one(db.store.pool())
            .await
            .unwrap();
    assert_eq!(completed as usize, N);
    assert!(by_node_claims >= N as i64);
}

/// Notices between nodes: a job created on a node without workers starts at once on a node
/// whose workers poll only once a minute (so only the ready notice can start it), and its end
/// answers a `?wait` on the first node before the wait's timeout (only the done notice can).
#[tokio::test]
async fn on_postgres_a_job_made_on_one_node_runs_on_another_and_wakes_the_first() {
    let Some(db) = folio_store::testing::postgres().await else {
        return;
    };
    let data = db.dir().join("server");
    let api = Process::spawn(&data, db.url(), &[("FOLIO_TRANSFORM_WORKERS", "0")]).await;
    let slow_poll = [
        ("FOLIO_TRANSFORM_WORKERS", "2"),
        ("FOLIO_TRANSFORM_POLL_MS", "60000"),
    ];
    let worker = Process::spawn(&data, db.url(), &slow_poll).await;
    let c = client(&api, &data);
    let wf = c
        .ok(
            Method::PUT,
            &format!("/transform/v1/workflows/{}", Uuid::new_v4()),
            Some(json!({"name": "elsewhere", "steps": [
                {"id": "a", "action": "silo.state", "config": {"state": "processing"}}]})),
        )
        .await;
    // both nodes listen (and the worker node's first look at the queue, at its start, is
    // behind it) before the first job
    for _ in 0..100 {
        let listening: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_stat_activity \
             WHERE datname = current_database() AND query LIKE 'LISTEN%'",
        )
        .fetch_one(db.store.pool())
        .await
        .unwrap();
        if listening >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for _ in 0..3 {
        let (job, env) = c.job_on_new_envelope(&wf).await;
        let asked = std::time::Instant::now();
        let path = format!("/transform/v1/jobs/{job}?wait=20");
        let done = c.ok(Method::GET, &path, None).await;
        assert_eq!(done["status"], "OK", "{done}");
        assert!(
            asked.elapsed() < Duration::from_secs(15),
            "the wait answered at its timeout, not at the job's end"
        );
        assert_eq!(states_of(&c, env).await, vec!["processing"]);
    }
    drop(worker);
}

/// VERI*FACTU chains under contention: two nodes on PostgreSQL generate 100 records of one
/// issuer at once, and the issuer's chain is one line: positions 1 to 100, each record naming
/// the one before it, no two naming the same (no fork), none missing (no gap).
#[tokio::test]
async fn two_nodes_on_postgres_chain_100_verifactu_records_without_fork_or_gap() {
    let Some(db) = folio_store::testing::postgres().await else {
        return;
    };
    let data = db.dir().join("server");
    let a = Process::spawn(&data, db.url(), ENV).await;
    let b = Process::spawn(&data, db.url(), ENV).await;
    let (ca, cb) = (client(&a, &data), client(&b, &data));
    let wf = ca
        .ok(
            Method::PUT,
            &format!("/transform/v1/workflows/{}", Uuid::new_v4()),
            Some(json!({"name": "records", "steps": [
                {"id": "record", "provider": "verifactu.generate"}]})),
        )
        .await;
    const N: usize = 100;
    let mut envelopes = Vec::new();
    for i in 0..N {
        let mut doc = crate::national_kit::doc("gobl/examples/es/out/invoice-es-es-verifactu.json");
        doc["code"] = json!(format!("C-{i:03}"));
        doc.as_object_mut().unwrap().remove("uuid");
        let id = Uuid::now_v7();
        ca.ok(
            Method::PUT,
            &format!("/silo/v1/envelopes/{id}"),
            Some(json!({"data": doc})),
        )
        .await;
        envelopes.push(id);
    }
    // every job made at once, half on each node
    let made = envelopes.iter().enumerate().map(|(i, env)| {
        let c = if i % 2 == 0 { &ca } else { &cb };
        c.ok(
            Method::POST,
            "/transform/v1/jobs",
            Some(json!({"workflow_id": wf["id"], "silo_entry_id": env})),
        )
    });
    let jobs = futures::future::join_all(made).await;
    for job in &jobs {
        let id = job["id"].as_str().unwrap();
        let done = ca
            .ok(
                Method::GET,
                &format!("/transform/v1/jobs/{id}?wait=30"),
                None,
            )
            .await;
        assert_eq!(done["status"], "OK", "{done}");
    }
    let rows: Vec<(i64, String)> = sqlx::query_as(
        "SELECT position, xml FROM transform_chain_records WHERE format = 'verifactu' \
         ORDER BY position",
    )
    .fetch_all(db.store.pool())
    .await
    .unwrap();
    let positions: Vec<i64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(positions, (1..=N as i64).collect::<Vec<_>>(), "no gap");
    let mut previous: Option<String> = None;
    let mut huellas = std::collections::HashSet::new();
    for (position, xml) in &rows {
        let doc = roxmltree::Document::parse(xml).unwrap();
        let alta = doc
            .descendants()
            .find(|n| n.tag_name().name() == "RegistroAlta")
            .unwrap();
        let named = alta
            .descendants()
            .find(|n| n.tag_name().name() == "RegistroAnterior")
            .and_then(|r| r.children().find(|n| n.tag_name().name() == "Huella"))
            .and_then(|n| n.text())
            .map(str::to_string);
        assert_eq!(named, previous, "record {position} names the one before it");
        let own = alta
            .children()
            .find(|n| n.tag_name().name() == "Huella")
            .and_then(|n| n.text())
            .unwrap()
            .to_string();
        huellas.insert(own.clone());
        previous = Some(own);
    }
    assert_eq!(huellas.len(), N, "one record per invoice");
}
