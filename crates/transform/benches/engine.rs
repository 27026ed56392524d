//! Jobs per second end to end for a two-step offline workflow (`silo.state` then
//! `silo.folder`), against a bare claim-and-complete loop over the same database in the same
//! run, on SQLite and (with `FOLIO_TEST_DATABASE_URL`) PostgreSQL.
//!
//! `cargo bench -p folio-transform --bench engine` (set `BENCH_JOBS` to change the count,
//! `BENCH_CLIENTS` the number of clients creating jobs, or inserting rows for the bare loop, at
//! once: 1 by default, as in earlier runs, so that figures stay comparable; with 1 the creating
//! client's latency bounds the run, which the `created .. in` line shows; `BENCH_ROUNDS` the
//! number of alternating rounds of the two sides, 3 by default, whose medians are compared;
//! `BENCH_BACKEND` (`sqlite` or `postgres`) to run one backend only, as when profiling it;
//! `BENCH_SIDE` (`engine` or `bare`) to run one side only, for a profiler to see nothing else).
//!
//! Both sides run a warm-up round of a fifth of the jobs first, untimed, then
//! [`folio_store::testing::analyze`]: without the statistics, each step's save on PostgreSQL
//! found its job through an index that only leads with the workspace, 150 buffer reads a save
//! at 5,000 jobs.

use std::time::{Duration, Instant};

use folio_api::limits::Limits;
use folio_silo::{NewEnvelope, Silo};
use folio_store::testing::analyze;
use folio_store::{Blobs, Scope, Store};
use folio_transform::model::{NewJob, SaveWorkflow};
use folio_transform::workflow::Definition;
use folio_transform::{Transform, TransformConfig};
use serde_json::json;
use uuid::Uuid;

/// The allocator the folio server runs on (both sides of the comparison share it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const WORKERS: usize = 4;

/// The untimed first round of each side, as a share of the timed one.
const WARM_UP_DIVISOR: usize = 5;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `op(0)` .. `op(n - 1)` from `clients` tasks at once, each taking the next number.
async fn from_clients<F, Fut, T>(n: usize, clients: usize, op: F) -> Vec<T>
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = T> + Send,
    T: Send + 'static,
{
    let op = std::sync::Arc::new(op);
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..clients.max(1) {
        let (op, next) = (op.clone(), next.clone());
        tasks.push(tokio::spawn(async move {
            let mut out = Vec::new();
            loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= n {
                    return out;
                }
                out.push(op(i).await);
            }
        }));
    }
    let mut all = Vec::with_capacity(n);
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let n = env_usize("BENCH_JOBS", 1000);
    let clients = env_usize("BENCH_CLIENTS", 1);
    let rounds = env_usize("BENCH_ROUNDS", 3).max(1);
    let only = std::env::var("BENCH_BACKEND").ok();
    let side = std::env::var("BENCH_SIDE").ok();
    let finished = env_usize("BENCH_FINISHED_JOBS", 0);
    if finished > 0 {
        return at_scale(n, clients, rounds, finished, only.as_deref()).await;
    }
    for db in folio_store::testing::backends().await {
        if only.as_deref().is_some_and(|b| b != db.label) {
            continue;
        }
        // Alternating rounds, each side's median counts: single rounds of either side moved
        // by half from one run to the next on the 2-core development machine.
        let (mut engines, mut bares) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            if side.as_deref() != Some("bare") {
                engines.push(engine(&db.store, db.dir(), n, clients).await);
            }
            if side.as_deref() != Some("engine") {
                bares.push(bare(&db.store, n, clients).await);
            }
        }
        println!("  engine rounds {engines:.0?} jobs/s, bare rounds {bares:.0?} jobs/s");
        if side.is_some() {
            // one side: no ratio to report
            continue;
        }
        let (engine, bare) = (median(engines), median(bares));
        println!(
            "{:<8} {n} jobs, {WORKERS} workers, {clients} creating, median of {rounds}: engine {:>7.0} jobs/s | bare claim+complete {:>7.0} jobs/s | ratio {:.2}x",
            db.label,
            engine,
            bare,
            bare / engine
        );
        // the line `bench/run.sh` collects into its table
        println!(
            "BENCH | jobs, two offline steps, {}, {WORKERS} workers, {clients} creating, median of {rounds} rounds | {engine:.0}/s | bare claim+complete {bare:.0}/s | {:.2}",
            db.label,
            engine / bare
        );
    }
}

/// The engine with `finished` finished jobs in the table against an empty table, in
/// alternating rounds on two databases of each backend (issue 32: the claim must not slow
/// down as the table grows; `bench/scale.sh` sets `BENCH_FINISHED_JOBS=1000000`).
async fn at_scale(n: usize, clients: usize, rounds: usize, finished: usize, only: Option<&str>) {
    for (empty, full) in folio_store::testing::backend_pairs().await {
        if only.is_some_and(|b| b != empty.label) {
            continue;
        }
        let started = Instant::now();
        fill_finished(&full.store, finished).await;
        println!(
            "  {}: {finished} finished jobs filled in {:.0} s",
            full.label,
            started.elapsed().as_secs_f64()
        );
        let (mut on_empty, mut on_full) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            on_empty.push(engine(&empty.store, empty.dir(), n, clients).await);
            on_full.push(engine(&full.store, full.dir(), n, clients).await);
        }
        println!("  empty rounds {on_empty:.0?} jobs/s, full rounds {on_full:.0?} jobs/s");
        let (a, b) = (median(on_empty), median(on_full));
        println!(
            "BENCH | scale: jobs through the claim, {finished} finished jobs in the table, {} | {b:.0}/s | empty table {a:.0}/s | {:.2}",
            empty.label,
            b / a
        );
    }
}

/// `n` finished jobs of a workspace of their own, in one statement: what a year of jobs
/// leaves in the table (no `ready_at`: nothing left to claim).
async fn fill_finished(store: &Store, n: usize) {
    let ws = store.create_workspace("finished jobs").await.unwrap().id;
    let (rows, head) = folio_store::testing::numbered_rows(store.backend());
    let sql = format!(
        "{head}INSERT INTO transform_jobs (workspace_id, id, created_at, updated_at, completed_at, \
         workflow_id, workflow_version, silo_entry_id, args, tags, request_hash, status, faults, \
         phase, intent_seq, attempt, ready_at, claims) \
         SELECT $1, 'done-' || i, 1700000000000 + i, 1700000000000 + i, 1700000000000 + i, \
         'w', 1, 'e' || (i % 50000), '{{}}', '[]', 'h', 'OK', '[]', 'main', 0, 0, NULL, 1 \
         FROM {rows}"
    );
    sqlx::query(&sql)
        .bind(ws.to_string())
        .bind(n as i64)
        .execute(store.pool())
        .await
        .expect("fill finished jobs");
    analyze(store).await;
}

fn median(mut rounds: Vec<f64>) -> f64 {
    rounds.sort_by(f64::total_cmp);
    rounds[rounds.len() / 2]
}

/// Jobs/s through the engine: create every job, wait for every completion.
async fn engine(store: &Store, dir: &std::path::Path, n: usize, clients: usize) -> f64 {
    // a workspace of its own for each round
    let name = format!("bench {}", Uuid::new_v4());
    let ws = store.create_workspace(&name).await.unwrap().id;
    let scope = Scope::new(ws);
    let silo = Silo::new(
        store.clone(),
        Blobs::local(&dir.join("files")).unwrap(),
        Limits::default(),
    );
    let config = TransformConfig {
        workers: WORKERS,
        poll_ms: 20,
        ..TransformConfig::default()
    };
    let t = Transform::new(store.clone(), silo.clone(), config);
    let definition: Definition = serde_json::from_value(json!({"name": "bench", "steps": [
        {"id": "state", "action": "silo.state", "config": {"state": "processing"}},
        {"id": "folder", "action": "silo.folder", "config": {"folder": "done"}}
    ]}))
    .unwrap();
    let wf = Uuid::new_v4();
    let save = SaveWorkflow {
        definition,
        draft: false,
        disabled: false,
    };
    t.create_workflow(scope, wf, save, 100).await.unwrap();
    let warm_up = envelopes(&silo, scope, n / WARM_UP_DIVISOR).await;
    let timed = envelopes(&silo, scope, n).await;
    let shutdown = tokio_util::sync::CancellationToken::new();
    let workers = t.start(shutdown.clone());
    jobs_round(&t, scope, wf, warm_up, clients).await;
    analyze(store).await;
    let cpu = Cpu::start();
    let secs = jobs_round(&t, scope, wf, timed, clients).await;
    cpu.report("engine", n);
    shutdown.cancel();
    workers.await.unwrap();
    n as f64 / secs
}

/// `n` envelopes for jobs to work on.
async fn envelopes(silo: &Silo, scope: Scope, n: usize) -> Vec<Uuid> {
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let doc =
            json!({"$schema": "https://gobl.org/draft-0/note/message", "title": format!("n{i}")});
        let new = NewEnvelope {
            data: doc.to_string(),
            ..NewEnvelope::default()
        };
        ids.push(silo.create(scope, new).await.unwrap().id);
    }
    ids
}

/// Seconds from the first create until the engine completed the last job (its own
/// `completed_at`), a job on each envelope, created by `clients` at once. The client then reads
/// every job back to check it ended `OK`; those reads, one after another once the work is
/// over, are the check's and not the engine's (the bare loop has no such check): on PostgreSQL
/// they added a fifth to the round. The `created .. in` line shows both ends.
async fn jobs_round(
    t: &Transform,
    scope: Scope,
    wf: Uuid,
    envelopes: Vec<Uuid>,
    clients: usize,
) -> f64 {
    let n = envelopes.len();
    let started = Instant::now();
    let started_at = chrono::Utc::now();
    let create = {
        let t = t.clone();
        move |i: usize| {
            let (t, env) = (t.clone(), envelopes[i]);
            async move {
                let new = NewJob {
                    id: Uuid::now_v7(),
                    workflow_id: wf,
                    silo_entry_id: Some(env),
                    ..NewJob::default()
                };
                t.create_job(scope, new).await.unwrap().0.id
            }
        }
    };
    let ids = from_clients(n, clients, create).await;
    // how much of the run the creating clients took (the rest is the workers catching up)
    let created = started.elapsed().as_secs_f64();
    let mut last = started_at;
    for id in ids {
        let job = t
            .wait_job(scope, id, Duration::from_secs(120))
            .await
            .unwrap();
        assert_eq!(job.status, "OK");
        last = last.max(job.completed_at.expect("a job that ended OK has completed"));
    }
    let read = started.elapsed().as_secs_f64();
    let secs = (last - started_at).as_seconds_f64();
    println!(
        "  created {n} jobs in {created:.2} s, the last completed at {secs:.2} s, all read back at {read:.2} s"
    );
    secs
}

/// Jobs/s of the bare queue: insert rows, claim one with a lease (the engine's statement),
/// mark it done; nothing else.
async fn bare(store: &Store, n: usize, clients: usize) -> f64 {
    sqlx::query(
        "CREATE TABLE IF NOT EXISTS bench_queue (id TEXT PRIMARY KEY, ready_at BIGINT, owner TEXT, done_at BIGINT)",
    )
    .execute(store.pool())
    .await
    .unwrap();
    sqlx::query(
        "CREATE INDEX IF NOT EXISTS bench_queue_ready ON bench_queue (ready_at) WHERE ready_at IS NOT NULL",
    )
    .execute(store.pool())
    .await
    .unwrap();
    // an empty queue for each round
    sqlx::query("DELETE FROM bench_queue")
        .execute(store.pool())
        .await
        .unwrap();
    bare_round(store, n / WARM_UP_DIVISOR, clients).await;
    analyze(store).await;
    let started = Instant::now();
    let cpu = Cpu::start();
    bare_round(store, n, clients).await;
    cpu.report("bare", n);
    n as f64 / started.elapsed().as_secs_f64()
}

/// One round of the bare queue: `n` rows inserted by `clients`, claimed and completed by
/// the workers.
async fn bare_round(store: &Store, n: usize, clients: usize) {
    let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..WORKERS {
        let store = store.clone();
        let done = done.clone();
        tasks.push(tokio::spawn(async move {
            let claim = format!(
                "UPDATE bench_queue SET owner = $1, ready_at = $2 WHERE id = \
                 (SELECT id FROM bench_queue WHERE ready_at <= $3 ORDER BY ready_at LIMIT 1{}) RETURNING id",
                store.backend().skip_locked()
            );
            while done.load(std::sync::atomic::Ordering::SeqCst) < n {
                let now = folio_store::millis(folio_store::now());
                let owner = Uuid::new_v4().to_string();
                let got: Option<String> = sqlx::query_scalar(&claim)
                    .bind(owner.clone())
                    .bind(now + 30_000)
                    .bind(now)
                    .fetch_optional(store.pool())
                    .await
                    .unwrap();
                match got {
                    Some(id) => {
                        sqlx::query(
                            "UPDATE bench_queue SET done_at = $1, ready_at = NULL, owner = NULL \
                             WHERE id = $2 AND owner = $3",
                        )
                        .bind(now)
                        .bind(id)
                        .bind(owner)
                        .execute(store.pool())
                        .await
                        .unwrap();
                        done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    }
                    None => tokio::time::sleep(Duration::from_millis(1)).await,
                }
            }
        }));
    }
    let insert = {
        let store = store.clone();
        move |_i: usize| {
            let store = store.clone();
            async move {
                sqlx::query("INSERT INTO bench_queue (id, ready_at) VALUES ($1, $2)")
                    .bind(Uuid::now_v7().to_string())
                    .bind(folio_store::millis(folio_store::now()))
                    .execute(store.pool())
                    .await
                    .unwrap();
            }
        }
    };
    from_clients(n, clients, insert).await;
    for t in tasks {
        t.await.unwrap();
    }
}

/// The CPU time the whole machine spent busy during a round, the database server's included
/// (Linux's `/proc/stat`; elsewhere nothing is reported): where the engine's time goes next to
/// the bare loop's.
struct Cpu(Option<f64>);

impl Cpu {
    fn start() -> Cpu {
        Cpu(busy_secs())
    }

    fn report(self, side: &str, jobs: usize) {
        if let (Some(start), Some(end)) = (self.0, busy_secs()) {
            let ms = (end - start) * 1000.0 / jobs as f64;
            println!("  {side}: {ms:.2} ms of CPU a job (the machine's, the database's included)");
        }
    }
}

/// Seconds the machine's CPUs have been busy since boot: user, nice, system, irq and softirq
/// of `/proc/stat`, which counts in hundredths of a second.
fn busy_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let ticks: Vec<f64> = stat
        .lines()
        .next()?
        .split_whitespace()
        .skip(1)
        .filter_map(|t| t.parse().ok())
        .collect();
    let busy: f64 = [0, 1, 2, 5, 6].iter().filter_map(|&i| ticks.get(i)).sum();
    Some(busy / 100.0)
}
