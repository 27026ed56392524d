//! sequence/v1 over HTTP on both backends: series and entries as Invopop publishes them, codes
//! with no gap and no repeat under concurrency and across two nodes with one killed, and
//! `sequence.enumerate` numbering a document exactly once before `silo.close`.

mod api;
mod concurrency;
mod enumerate;

use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::TestApp;

/// One server per backend, with a rate limit that concurrency tests do not hit.
pub async fn apps() -> Vec<TestApp> {
    crate::transform::apps_with(|c| {
        c.limits.rate_per_second = 1_000_000;
        c.limits.rate_burst = 1_000_000;
    })
    .await
}

/// Creates a series; returns its id.
pub async fn series(app: &TestApp, body: Value) -> Uuid {
    let id = Uuid::new_v4();
    app.put(&format!("/sequence/v1/series/{id}"), &body)
        .await
        .expect(200);
    id
}

/// Every entry of a series, newest first, through the cursor.
pub async fn all_entries(app: &TestApp, series: Uuid) -> Vec<Value> {
    let mut out = Vec::new();
    let mut cursor = String::new();
    loop {
        let page = app
            .get(&format!(
                "/sequence/v1/series/{series}/entries?limit=100&cursor={cursor}"
            ))
            .await
            .expect(200);
        out.extend(page["list"].as_array().unwrap().iter().cloned());
        match page["cursor"].as_str() {
            Some(c) => cursor = c.to_string(),
            None => return out,
        }
    }
}

/// A series body.
pub fn body(name: &str, prefix: &str, padding: i64) -> Value {
    json!({"name": name, "prefix": prefix, "padding": padding, "start": 1})
}
