//! What the silo's benchmarks share: a silo/v1 server over real HTTP (auth on, rate limit set
//! above the load) and a closed-loop load runner with its latencies.

#![allow(dead_code)] // each benchmark uses a part

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use folio_api::{Ctx, Handles, Registry, limits::Limits};
use folio_silo::Silo;
use folio_store::{Blobs, Scope, Store};

pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub struct Stats {
    pub total: Duration,
    pub latencies: Vec<Duration>,
}

impl Stats {
    pub fn per_second(&self) -> f64 {
        self.latencies.len() as f64 / self.total.as_secs_f64()
    }
    pub fn pct(&self, p: f64) -> Duration {
        let mut l = self.latencies.clone();
        l.sort();
        l[((l.len() as f64 - 1.0) * p).round() as usize]
    }
}

/// Runs `n` operations with `c` concurrent workers.
pub async fn run<F, Fut>(n: usize, c: usize, op: F) -> Stats
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let op = Arc::new(op);
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..c {
        let (op, next) = (op.clone(), next.clone());
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    return lat;
                }
                let t = Instant::now();
                op(i).await;
                lat.push(t.elapsed());
            }
        }));
    }
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.unwrap());
    }
    Stats {
        total: started.elapsed(),
        latencies,
    }
}

/// A silo/v1 server on an ephemeral loopback port, over `store`.
#[derive(Clone)]
pub struct Server {
    pub base: String,
    pub token: String,
    pub ws: Scope,
    pub silo: Silo,
    pub client: reqwest::Client,
}

impl Server {
    pub async fn start(store: &Store, dir: &std::path::Path) -> Server {
        let limits = Limits {
            rate_per_second: 1_000_000,
            rate_burst: 1_000_000,
            ..Limits::default()
        };
        let ctx = Ctx::new(store.clone(), limits.clone()).await.unwrap();
        let ws = store.create_workspace("bench").await.unwrap();
        let token = ctx.auth().issue(ws.id, None).await.unwrap().1;
        let silo = Silo::new(
            store.clone(),
            Blobs::local(&dir.join("blobs")).unwrap(),
            limits,
        );
        let registry = Registry::new(vec![folio_silo::v1::version()]).unwrap();
        let app = folio_api::app::router(registry, ctx, Handles::new().with(silo.clone()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Server {
            base,
            token,
            ws: Scope::new(ws.id),
            silo,
            client: reqwest::Client::new(),
        }
    }

    /// `PUT /silo/v1/envelopes/{id}` with `{"data": envelope}`; panics unless 200.
    pub async fn put(&self, id: &str, envelope: &str) {
        let resp = self
            .client
            .put(format!("{}/silo/v1/envelopes/{id}", self.base))
            .bearer_auth(&self.token)
            .header("content-type", "application/json")
            .body(format!(r#"{{"data":{envelope}}}"#))
            .send()
            .await
            .unwrap();
        let status = resp.status();
        let body = resp.bytes().await.unwrap();
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    }

    /// `GET` a path; panics unless 200.
    pub async fn get(&self, path: &str) -> bytes::Bytes {
        let resp = self
            .client
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .unwrap();
        let status = resp.status();
        let body = resp.bytes().await.unwrap();
        assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&body));
        body
    }
}
