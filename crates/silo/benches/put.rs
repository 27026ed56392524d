//! Envelope `PUT` throughput and latency over real HTTP (the silo/v1 router with auth, on an
//! ephemeral port) against, in one run, a bare axum handler that inserts the request's bytes
//! into the same database over HTTP (the goal's baseline: what a server that only stores the
//! body costs), a bare axum handler that runs the `PUT`'s own statement with everything folio
//! computes for it done ahead (what the database and HTTP alone allow a `PUT`), and a raw
//! insert of the same bytes without HTTP (what the database alone costs).
//!
//! `cargo bench -p folio-silo --bench put` (SQLite; PostgreSQL too when
//! `FOLIO_TEST_DATABASE_URL` is set). `SILO_BENCH_N` requests (default 2000), `SILO_BENCH_C`
//! concurrent clients (default 8), `BENCH_BACKEND` (`sqlite` or `postgres`) to run one backend
//! only, as when profiling it, and `SILO_BENCH_ONLY` (`put`, `bare` or `statement`) to run one
//! side only, untimed: the instructions of N PUTs are a callgrind count at one N less one at
//! another.

mod common;

use std::sync::Arc;

use common::{Server, env_usize, ms, run};
use folio_silo::testing::CreateStatement;
use folio_store::{Scope, Store, testing};
use uuid::Uuid;

/// The allocator the folio server runs on (both sides of the comparison share it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const EXAMPLE_UUID: &str = "8a51fd30-2a27-11ee-be56-0242ac120002";

fn envelope() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/gobl/examples/de/out/invoice-de-rounding.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // Compact (literals and order kept): a realistic stored size.
    gobl::json::parse(&text).unwrap().to_json_string()
}

/// `n` requests of one side, untimed, warmed up and analysed as the timed sides are: without
/// statistics PostgreSQL may check a version's foreign key through the envelopes' list index,
/// and every `PUT` then reads every envelope.
async fn one_side<F, Fut>(store: &Store, n: usize, c: usize, side: F)
where
    F: Fn(usize) -> Fut + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    run(100, c, side.clone()).await;
    testing::analyze(store).await;
    run(n, c, side).await;
}

/// A bare axum server on an ephemeral port whose one handler inserts the body as it came.
async fn bare_insert_server(store: Store) -> String {
    use axum::{Router, body::Bytes, extract::Path, routing::put};
    let handler = move |Path(id): Path<String>, body: Bytes| {
        let store = store.clone();
        async move {
            sqlx::query("INSERT INTO bench_raw (id, data) VALUES ($1, $2)")
                .bind(id)
                .bind(String::from_utf8_lossy(&body).as_ref())
                .execute(store.pool())
                .await
                .unwrap();
            "{}"
        }
    };
    let app = Router::new().route("/bare/{id}", put(handler));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

/// A bare axum server on an ephemeral port whose one handler runs the `PUT`'s statement
/// (prepared ahead from the benchmark's envelope) with the body as the envelope's data, and
/// answers with the body (a `PUT` answers with the envelope: as many bytes cross loopback).
async fn bare_statement_server(store: Store, ws: Scope, statement: CreateStatement) -> String {
    use axum::{Router, body::Bytes, extract::Path, routing::put};
    let statement = Arc::new(statement);
    let handler = move |Path(id): Path<Uuid>, body: Bytes| {
        let (store, statement) = (store.clone(), statement.clone());
        async move {
            let text = String::from_utf8_lossy(&body);
            assert!(statement.run(&store, ws, id, &text).await.unwrap());
            body
        }
    };
    let app = Router::new().route("/statement/{id}", put(handler));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

/// Sends each request's body to `{url}/{id}` on a bare server; panics unless 200.
fn bare_side(
    client: reqwest::Client,
    url: String,
    text: Arc<String>,
) -> impl Fn(usize) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>
+ Clone
+ Send
+ Sync
+ 'static {
    move |_i: usize| {
        let (client, url, text) = (client.clone(), url.clone(), text.clone());
        Box::pin(async move {
            let id = Uuid::now_v7().to_string();
            let body = format!(r#"{{"data":{}}}"#, text.replace(EXAMPLE_UUID, &id));
            let resp = client
                .put(format!("{url}/{id}"))
                .body(body)
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), 200);
            resp.bytes().await.unwrap();
        })
    }
}

async fn bench(label: &str, store: Store, dir: &std::path::Path) {
    let (n, c) = (
        env_usize("SILO_BENCH_N", 2000),
        env_usize("SILO_BENCH_C", 8),
    );
    let text = Arc::new(envelope());
    sqlx::query("CREATE TABLE bench_raw (id TEXT NOT NULL PRIMARY KEY, data TEXT NOT NULL)")
        .execute(store.pool())
        .await
        .unwrap();
    let server = Server::start(&store, dir).await;
    // Warm-up, then the measured runs (raw first, then PUT, then raw again to even out drift).
    let raw = |store: Store, text: Arc<String>| {
        move |_i: usize| {
            let (store, text) = (store.clone(), text.clone());
            async move {
                sqlx::query("INSERT INTO bench_raw (id, data) VALUES ($1, $2)")
                    .bind(Uuid::now_v7().to_string())
                    .bind(text.as_str())
                    .execute(store.pool())
                    .await
                    .unwrap();
            }
        }
    };
    let put = {
        let (server, text) = (server.clone(), text.clone());
        move |_i: usize| {
            let (server, text) = (server.clone(), text.clone());
            async move {
                let id = Uuid::now_v7().to_string();
                server.put(&id, &text.replace(EXAMPLE_UUID, &id)).await;
            }
        }
    };
    // The same request body to the bare servers.
    let bare = bare_side(
        server.client.clone(),
        format!("{}/bare", bare_insert_server(store.clone()).await),
        text.clone(),
    );
    let statement = CreateStatement::of(&server.silo, &text).unwrap();
    let statement = bare_side(
        server.client.clone(),
        format!(
            "{}/statement",
            bare_statement_server(store.clone(), server.ws, statement).await
        ),
        text.clone(),
    );
    // one side alone, for a profiler (`perf`, callgrind) to see nothing else
    match std::env::var("SILO_BENCH_ONLY").as_deref() {
        Ok("put") => return one_side(&store, n, c, put).await,
        Ok("bare") => return one_side(&store, n, c, bare).await,
        Ok("statement") => return one_side(&store, n, c, statement).await,
        _ => {}
    }
    run(100, c, raw(store.clone(), text.clone())).await;
    run(100, c, bare.clone()).await;
    run(100, c, statement.clone()).await;
    run(100, c, put.clone()).await;
    // the planner statistics a running server has (see `testing::analyze`)
    testing::analyze(&store).await;
    // Alternating, so drift on a shared machine falls on both sides.
    let raw1 = run(n, c, raw(store.clone(), text.clone())).await;
    let bare1 = run(n, c, bare.clone()).await;
    let statement1 = run(n, c, statement.clone()).await;
    let puts = run(n, c, put).await;
    let statement2 = run(n, c, statement).await;
    let bare2 = run(n, c, bare).await;
    let raw2 = run(n, c, raw(store.clone(), text.clone())).await;
    let raw_rate = (raw1.per_second() + raw2.per_second()) / 2.0;
    let bare_rate = (bare1.per_second() + bare2.per_second()) / 2.0;
    let statement_rate = (statement1.per_second() + statement2.per_second()) / 2.0;
    println!(
        "{label}: envelope {} bytes, {n} requests, {c} concurrent",
        text.len()
    );
    for (name, r) in [
        ("PUT /silo/v1/envelopes/{id}", &puts),
        ("bare axum insert (before)", &bare1),
        ("bare axum insert (after)", &bare2),
        ("bare PUT statement (before)", &statement1),
        ("bare PUT statement (after)", &statement2),
        ("raw insert (before)", &raw1),
        ("raw insert (after)", &raw2),
    ] {
        println!(
            "  {name:<28} {:8.0}/s  p50 {:6.2} ms  p99 {:6.2} ms",
            r.per_second(),
            ms(r.pct(0.5)),
            ms(r.pct(0.99))
        );
    }
    println!(
        "  ratio PUT / bare axum insert: {:.2}; PUT / bare PUT statement: {:.2}; PUT / raw insert: {:.2}",
        puts.per_second() / bare_rate,
        puts.per_second() / statement_rate,
        puts.per_second() / raw_rate,
    );
    // the lines `bench/run.sh` collects into its table
    println!(
        "BENCH | envelope PUT, {} B, {c} clients, {label} | {:.0}/s, p99 {:.1} ms | bare axum insert over HTTP {bare_rate:.0}/s, p99 {:.1} ms | {:.2}",
        text.len(),
        puts.per_second(),
        ms(puts.pct(0.99)),
        ms(bare1.pct(0.99).max(bare2.pct(0.99))),
        puts.per_second() / bare_rate
    );
    println!(
        "BENCH | the envelope PUT against a bare server running its statement, {label} | {:.0}/s | bare PUT statement over HTTP {statement_rate:.0}/s | {:.2}",
        puts.per_second(),
        puts.per_second() / statement_rate
    );
    println!(
        "BENCH | the envelope PUT against the database alone, {label} | {:.0}/s | raw insert {raw_rate:.0}/s | {:.2}",
        puts.per_second(),
        puts.per_second() / raw_rate
    );
    println!(
        "BENCH | a bare server running the PUT's statement against the database alone, {label} | {statement_rate:.0}/s | raw insert {raw_rate:.0}/s | {:.2}",
        statement_rate / raw_rate
    );
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let only = std::env::var("BENCH_BACKEND").ok();
    rt.block_on(async {
        for db in testing::backends().await {
            if only.as_deref().is_none_or(|b| b == db.label) {
                bench(db.label, db.store.clone(), db.dir()).await;
            }
        }
    });
}
