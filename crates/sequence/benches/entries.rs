//! Sequence entries per second with 8 concurrent clients on one series, against a bare
//! counter (`UPDATE ... RETURNING` in a write transaction) on the same database in the same
//! run: what taking a gapless, idempotent entry costs over the cheapest safe increment.
//!
//! `cargo bench -p folio-sequence --bench entries` (SQLite; PostgreSQL too when
//! `FOLIO_TEST_DATABASE_URL` is set). `SEQ_BENCH_N` entries (default 4000), `SEQ_BENCH_C`
//! concurrent clients (default 8). The domain API is called directly: no HTTP on either side.

// A bench binary: `main` and its helpers need no docs.
#![allow(missing_docs)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use folio_sequence::{NewEntry, NewSeries, Sequence};
use folio_store::{Scope, Store, testing};
use uuid::Uuid;

/// The allocator the folio server runs on (both sides of the comparison share it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `clients` tasks that together call `op` `n` times; answers calls per second.
async fn run<F, Fut>(n: usize, clients: usize, op: F) -> f64
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let op = Arc::new(op);
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            let (op, next) = (op.clone(), next.clone());
            tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    op(i).await;
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("a client task");
    }
    n as f64 / started.elapsed().as_secs_f64()
}

async fn bench(label: &str, store: Store, n: usize, clients: usize) {
    let workspace = Scope::new(store.create_workspace("bench").await.expect("workspace").id);
    sqlx::query("CREATE TABLE bench_counter (id BIGINT PRIMARY KEY, n BIGINT NOT NULL)")
        .execute(store.pool())
        .await
        .expect("counter table");
    sqlx::query("INSERT INTO bench_counter (id, n) VALUES (1, 0)")
        .execute(store.pool())
        .await
        .expect("counter row");
    let increment = |store: Store| {
        move |_| {
            let store = store.clone();
            async move {
                let mut tx = store.begin_write().await.expect("begin");
                let _: i64 = sqlx::query_scalar(
                    "UPDATE bench_counter SET n = n + 1 WHERE id = 1 RETURNING n",
                )
                .fetch_one(&mut tx)
                .await
                .expect("increment");
                tx.commit().await.expect("commit");
            }
        }
    };
    let sequence = Sequence::new(store.clone());
    let series = Uuid::new_v4();
    let new = NewSeries {
        name: "bench".into(),
        prefix: "B-".into(),
        padding: 6,
        start: 1,
        ..NewSeries::default()
    };
    sequence
        .create_series(workspace, series, new)
        .await
        .expect("series");
    let entry = |sequence: Sequence| {
        move |_| {
            let sequence = sequence.clone();
            async move {
                sequence
                    .create_entry(workspace, series, Uuid::now_v7(), NewEntry::default())
                    .await
                    .expect("entry");
            }
        }
    };
    // A warm-up of a fifth of each, then the planner statistics a running server has (see
    // `testing::analyze`: without them an entry's id was looked up through the series' index
    // of entry numbers, reading every entry of the series while it held the series' lock).
    run(n / 5, clients, increment(store.clone())).await;
    run(n / 5, clients, entry(sequence.clone())).await;
    testing::analyze(&store).await;
    let baseline = run(n, clients, increment(store.clone())).await;
    let entries = run(n, clients, entry(sequence)).await;
    println!(
        "| {label} | {entries:.0} entries/s | {baseline:.0} increments/s | {:.2} |",
        entries / baseline
    );
    // the line `bench/run.sh` collects into its table
    println!(
        "BENCH | sequence entries, one series, {label} | {entries:.0}/s | bare UPDATE ... RETURNING {baseline:.0}/s | {:.2}",
        entries / baseline
    );
}

#[tokio::main]
async fn main() {
    let n = env_usize("SEQ_BENCH_N", 4000);
    let clients = env_usize("SEQ_BENCH_C", 8);
    println!("{n} entries, {clients} concurrent clients, one series");
    println!("| backend | sequence entries | bare UPDATE ... RETURNING | ratio |");
    println!("|---|---|---|---|");
    let db = testing::sqlite().await;
    bench(db.label, db.store.clone(), n, clients).await;
    if let Some(db) = testing::postgres().await {
        bench(db.label, db.store.clone(), n, clients).await;
    }
}
