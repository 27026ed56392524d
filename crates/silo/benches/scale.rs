//! The silo at scale (issue 32): a store filled with `SCALE_ENVELOPES` generated envelopes
//! (default 1,000,000) against an empty store, both served over real HTTP in the same run, in
//! alternating rounds: the envelope `PUT` rate, the first list page and a filtered list page,
//! and searches by party name, tax id and number (p99 of one client), and the bytes on disk per
//! envelope against its JSON text.
//!
//! The envelopes are of realistic variety: ten regimes, 1–50 lines (few lines more often than
//! many), 50,000 customers, numbered in a series per regime, stored over a year. Each regime's
//! invoice is built once per line count (GOBL's own build, from the regime's example); each
//! envelope is that template with its own uuid, number, customer, date and digest, stored
//! through the silo's own import (`Silo::import`: the statement a `PUT` writes, thousands a
//! transaction), so a million take minutes.
//!
//! `bench/scale.sh` runs it; or `cargo bench -p folio-silo --bench scale` (SQLite; PostgreSQL too
//! when `FOLIO_TEST_DATABASE_URL` is set; `BENCH_BACKEND` to run one).

mod common;

use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use common::{Server, Stats, env_usize, ms, run};
use folio_silo::NewEnvelope;
use folio_silo::ingest::{Input, prepare};
use folio_store::testing::{self, TestDb};
use folio_store::{Backend, Store};
use gobl::envelope::Envelope;
use gobl::json::Value;
use uuid::Uuid;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Each regime's example invoice (in `../shared/gobl/examples`) and its country.
const REGIMES: [(&str, &str); 10] = [
    ("DE", "de/out/invoice-de-rounding.json"),
    ("ES", "es/out/invoice-es-es.json"),
    ("FR", "fr/out/invoice-fr-fr-facturx.json"),
    ("GB", "gb/out/invoice-b2b.json"),
    ("PL", "pl/out/invoice-group-vat.json"),
    ("FI", "fi/out/invoice-fi-fi.json"),
    ("NO", "no/out/invoice-no-standard.json"),
    ("EL", "gr/out/invoice-el-el.json"),
    ("US", "us/out/invoice-us-us.json"),
    ("SG", "sg/out/invoice-gst-number.json"),
];
const MAX_LINES: usize = 50;
const PARTIES: u64 = 50_000;
/// Envelopes a transaction of the fill.
const BATCH: usize = 2_000;
/// Rounds of each measure, alternating the empty and the filled store.
const ROUNDS: usize = 3;

const FIRST: &[&str] = &[
    "Nordic", "Atlas", "Blue", "Iberia", "Alpine", "Baltic", "Golden", "Royal", "Green", "Pacific",
    "Delta", "Sierra", "Nova", "Costa", "Vista", "Prime", "Union", "Metro", "Terra", "Solar",
];
const SECOND: &[&str] = &[
    "Logistics",
    "Consulting",
    "Foods",
    "Textiles",
    "Software",
    "Pharma",
    "Motors",
    "Energy",
    "Retail",
    "Design",
    "Holding",
    "Systems",
    "Trading",
    "Media",
    "Builders",
    "Labs",
    "Farms",
    "Finance",
    "Travel",
    "Health",
    "Metals",
    "Optics",
    "Printing",
    "Water",
    "Studio",
];
const FORMS: &[&str] = &[
    "GmbH",
    "S.L.",
    "SAS",
    "Ltd",
    "Sp. z o.o.",
    "Oy",
    "AS",
    "AE",
    "Inc.",
    "Pte. Ltd.",
];

/// A small deterministic generator (splitmix64): the same run makes the same envelopes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// 1..=MAX_LINES, few lines more often than many (the cube of a uniform draw).
    fn lines(&mut self) -> usize {
        let u = self.below(1_000_000) as f64 / 1_000_000.0;
        1 + (u * u * u * MAX_LINES as f64) as usize
    }
}

/// Built invoices: `[regime][lines - 1]`.
struct Templates(Vec<Vec<Envelope>>);

impl Templates {
    fn build() -> Templates {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
        let started = Instant::now();
        let all = REGIMES
            .iter()
            .map(|(country, file)| {
                let path = root.join(file);
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let example = gobl::json::parse(&text).unwrap();
                let doc = example.get("doc").unwrap().clone();
                (1..=MAX_LINES).map(|k| built(&doc, k, country)).collect()
            })
            .collect();
        eprintln!(
            "templates: 10 regimes × {MAX_LINES} line counts built in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        Templates(all)
    }
}

/// The regime's invoice with `k` lines (its own lines, repeated and renamed), built by GOBL.
fn built(doc: &Value, k: usize, country: &str) -> Envelope {
    let mut doc = doc.clone();
    let lines = doc
        .get("lines")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let many: Vec<Value> = (0..k)
        .map(|j| {
            let mut line = lines[j % lines.len()].clone();
            if let Value::Object(members) = &mut line {
                members.retain(|name, _| !matches!(name.as_str(), "i" | "sum" | "total"));
            }
            if let Some(item) = line.get_mut("item") {
                let name = item
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("Item")
                    .to_string();
                item.set("name", Value::String(format!("{name} {}", j + 1).into()));
            }
            line
        })
        .collect();
    doc.set("lines", Value::Array(many));
    for member in ["totals", "uuid", "code"] {
        if let Value::Object(members) = &mut doc {
            members.retain(|name, _| name.as_str() != member);
        }
    }
    doc.set("series", Value::String(format!("{country}-2026").into()));
    doc.set("code", Value::String("000001".into()));
    let text = doc.to_json_string();
    let input = Input::parse(&text, 64).unwrap();
    prepare(input, None, &[], None, true)
        .unwrap_or_else(|e| panic!("{country}, {k} lines: {e:?}"))
        .envelope
}

/// One generated envelope: its text, and what a search would look for.
struct Generated {
    id: Uuid,
    text: String,
    customer: String,
    tax_id: String,
    number: String,
}

/// Envelope `i`: template, party, number, uuid, date.
fn generate(templates: &Templates, rng: &mut Rng, i: u64, at: DateTime<Utc>) -> Generated {
    let regime = (i % 10) as usize;
    let country = REGIMES[regime].0;
    let mut env = templates.0[regime][rng.lines() - 1].clone();
    let party = rng.below(PARTIES);
    let customer = format!(
        "{} {} {}",
        FIRST[(party % 20) as usize],
        SECOND[((party / 20) % 25) as usize],
        FORMS[((party / 500) % 10) as usize]
    );
    let customer = format!("{customer} {party}");
    let tax_code = format!("{:09}", party.wrapping_mul(2_654_435_761) % 1_000_000_000);
    let code = format!("{:07}", i / 10 + 1);
    let id = Uuid::now_v7();
    let doc = &mut env.doc;
    doc.set("uuid", Value::String(id.to_string().into()));
    doc.set("code", Value::String(code.clone().into()));
    doc.set(
        "issue_date",
        Value::String(at.format("%Y-%m-%d").to_string().into()),
    );
    let mut tax_id = Value::Object(gobl::json::Map::new());
    tax_id.set("country", Value::String(country.into()));
    tax_id.set("code", Value::String(tax_code.clone().into()));
    match doc.get_mut("customer") {
        Some(c) => {
            c.set("name", Value::String(customer.clone().into()));
            c.set("tax_id", tax_id);
        }
        None => {
            let mut c = Value::Object(gobl::json::Map::new());
            c.set("name", Value::String(customer.clone().into()));
            c.set("tax_id", tax_id);
            doc.set("customer", c);
        }
    }
    env.head.uuid = id;
    env.refresh_digest().unwrap();
    Generated {
        id,
        text: env.to_json_string(),
        customer,
        tax_id: format!("{country}{tax_code}"),
        number: format!("{country}-2026-{code}"),
    }
}

/// What the fill leaves to search for, and the JSON size of what it stored.
struct Filled {
    samples: Vec<Generated>,
    json_bytes: u64,
}

/// Fills the workspace with `n` envelopes stored over the last year, `BATCH` a transaction;
/// the envelopes are made on a thread of their own while the previous batch is written.
async fn fill(server: &Server, store: &Store, templates: Arc<Templates>, n: u64) -> Filled {
    let (tx, mut rx) =
        tokio::sync::mpsc::channel::<(Vec<(NewEnvelope, DateTime<Utc>)>, Vec<Generated>, u64)>(2);
    let maker = std::thread::spawn(move || {
        let mut rng = Rng(7);
        let start = Utc::now() - Duration::days(365);
        let step = Duration::days(365).num_milliseconds() / n.max(1) as i64;
        let mut i = 0;
        while i < n {
            let (mut batch, mut samples, mut bytes) = (Vec::with_capacity(BATCH), Vec::new(), 0);
            while batch.len() < BATCH && i < n {
                let at = start + Duration::milliseconds(step * i as i64);
                let mut g = generate(&templates, &mut rng, i, at);
                bytes += g.text.len() as u64;
                let folder = if i % 10 == 0 { "archive" } else { "sales" };
                let new = NewEnvelope {
                    data: std::mem::take(&mut g.text),
                    folder: Some(folder.into()),
                    ..NewEnvelope::default()
                };
                batch.push((new, at));
                if i % 997 == 0 {
                    samples.push(g);
                }
                i += 1;
            }
            if tx.blocking_send((batch, samples, bytes)).is_err() {
                return;
            }
        }
    });
    let started = Instant::now();
    let mut filled = Filled {
        samples: Vec::new(),
        json_bytes: 0,
    };
    let mut stored = 0;
    while let Some((batch, samples, bytes)) = rx.recv().await {
        stored += server.silo.import(server.ws, batch).await.unwrap() as u64;
        filled.samples.extend(samples);
        filled.json_bytes += bytes;
        // PostgreSQL's statistics, as autovacuum keeps them on a running server (it is off on
        // some machines): planned for an empty table, the versions' foreign-key check found its
        // envelope through an index that leads with the workspace alone, 600 buffers a row.
        if stored == BATCH as u64 || stored % 50_000 < BATCH as u64 {
            testing::analyze(store).await;
        }
        if stored % 50_000 < BATCH as u64 {
            eprintln!(
                "  filled {stored} in {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
    maker.join().unwrap();
    // what the import left for SQLite's full-text index enters it before anything is measured
    server.silo.index_search().await.unwrap();
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "filled {stored} envelopes in {secs:.0} s ({:.0}/s)",
        stored as f64 / secs
    );
    filled
}

/// Bytes the store takes for its envelopes: SQLite's files (the WAL checkpointed first), or
/// PostgreSQL's silo tables with their indexes and TOAST.
async fn bytes_on_disk(db: &TestDb) -> u64 {
    match db.store.backend() {
        Backend::Sqlite => {
            sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(db.store.pool())
                .await
                .unwrap();
            ["", "-wal"]
                .iter()
                .map(|s| {
                    std::fs::metadata(format!("{}{s}", db.url()))
                        .map(|m| m.len())
                        .unwrap_or(0)
                })
                .sum()
        }
        Backend::Postgres => {
            let row: (i64,) = sqlx::query_as(
                "SELECT CAST(sum(pg_total_relation_size(c.oid)) AS BIGINT) FROM pg_class c \
                 JOIN pg_namespace n ON n.oid = c.relnamespace \
                 WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname LIKE 'silo_%'",
            )
            .fetch_one(db.store.pool())
            .await
            .unwrap();
            row.0 as u64
        }
    }
}

/// p99 of `requests` GETs of paths from `paths`, one at a time.
async fn p99_of(server: &Server, paths: Arc<Vec<String>>, requests: usize) -> f64 {
    let s = server.clone();
    let stats: Stats = run(requests, 1, move |i| {
        let (s, paths) = (s.clone(), paths.clone());
        async move {
            s.get(&paths[i % paths.len()]).await;
        }
    })
    .await;
    ms(stats.pct(0.99))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn encode(q: &str) -> String {
    q.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Alternating rounds of one read on both stores: median p99s (empty, filled).
async fn compare(empty: &Server, full: &Server, paths: Vec<String>) -> (f64, f64) {
    let paths = Arc::new(paths);
    let requests = env_usize("SCALE_REQUESTS", 300);
    for s in [empty, full] {
        p99_of(s, paths.clone(), 30).await; // warm-up
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        a.push(p99_of(empty, paths.clone(), requests).await);
        b.push(p99_of(full, paths.clone(), requests).await);
    }
    (median(a), median(b))
}

/// Alternating rounds of `PUT`s on both stores: median rates (empty, filled).
async fn compare_puts(empty: &Server, full: &Server, templates: &Templates) -> (f64, f64, f64) {
    let (n, c) = (
        env_usize("SILO_BENCH_N", 2000),
        env_usize("SILO_BENCH_C", 8),
    );
    let mut rng = Rng(99);
    let mut make = |count: usize| -> Arc<Vec<(String, String)>> {
        let at = Utc::now();
        Arc::new(
            (0..count)
                .map(|i| {
                    let g = generate(templates, &mut rng, 10_000_000 + i as u64, at);
                    (g.id.to_string(), g.text)
                })
                .collect(),
        )
    };
    let puts = |s: &Server, bodies: Arc<Vec<(String, String)>>| {
        let s = s.clone();
        run(bodies.len(), c, move |i| {
            let (s, bodies) = (s.clone(), bodies.clone());
            async move { s.put(&bodies[i].0, &bodies[i].1).await }
        })
    };
    for s in [empty, full] {
        puts(s, make(100)).await; // warm-up
    }
    let (mut a, mut b, mut p99) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        a.push(puts(empty, make(n)).await.per_second());
        let on_full = puts(full, make(n)).await;
        b.push(on_full.per_second());
        p99.push(ms(on_full.pct(0.99)));
    }
    (median(a), median(b), median(p99))
}

async fn bench(empty_db: &TestDb, full_db: &TestDb, templates: Arc<Templates>, n: u64) {
    let label = empty_db.label;
    let empty = Server::start(&empty_db.store, empty_db.dir()).await;
    let full = Server::start(&full_db.store, full_db.dir()).await;
    eprintln!("{label}: filling {n} envelopes ...");
    let filled = fill(&full, &full_db.store, templates.clone(), n).await;
    let disk = bytes_on_disk(full_db).await as f64 / n as f64;
    let json = filled.json_bytes as f64 / n as f64;
    analyze(&empty_db.store, &full_db.store).await;
    let (put_empty, put_full, put_p99) = compare_puts(&empty, &full, &templates).await;
    // the PUTs made the empty store a few thousand envelopes its statistics do not know of
    analyze(&empty_db.store, &full_db.store).await;
    println!(
        "BENCH | scale: envelope PUT, 8 clients, {n} stored, {label} | {put_full:.0}/s, p99 {put_p99:.1} ms | empty store {put_empty:.0}/s | {:.2}",
        put_full / put_empty
    );
    let samples = &filled.samples;
    let reads: [(&str, Vec<String>); 5] = [
        (
            "first list page",
            vec!["/silo/v1/envelopes?limit=25".into()],
        ),
        (
            "list page of a folder",
            vec!["/silo/v1/envelopes?limit=25&folder=archive".into()],
        ),
        (
            "search by party name",
            samples
                .iter()
                .map(|g| format!("/silo/v1/search?q={}", encode(&g.customer)))
                .collect(),
        ),
        (
            "search by tax id",
            samples
                .iter()
                .map(|g| format!("/silo/v1/search?q={}", encode(&g.tax_id)))
                .collect(),
        ),
        (
            "search by number",
            samples
                .iter()
                .map(|g| format!("/silo/v1/search?q={}", encode(&g.number)))
                .collect(),
        ),
    ];
    for (name, paths) in reads {
        let (a, b) = compare(&empty, &full, paths).await;
        println!(
            "BENCH | scale: {name} p99, 1 client, {n} stored, {label} | {b:.2} ms | empty store {a:.2} ms | {:.2}× (latency)",
            b / a
        );
    }
    println!(
        "BENCH | scale: bytes on disk per envelope, {n} stored, {label} | {disk:.0} B | its JSON {json:.0} B | {:.2}× (size)",
        disk / json
    );
}

async fn analyze(a: &Store, b: &Store) {
    testing::analyze(a).await;
    testing::analyze(b).await;
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let only = std::env::var("BENCH_BACKEND").ok();
    let n = env_usize("SCALE_ENVELOPES", 1_000_000) as u64;
    let templates = Arc::new(Templates::build());
    rt.block_on(async {
        for (empty, full) in testing::backend_pairs().await {
            if only.as_deref().is_none_or(|b| b == empty.label) {
                bench(&empty, &full, templates.clone(), n).await;
            }
        }
    });
}
