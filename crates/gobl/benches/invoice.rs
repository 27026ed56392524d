//! Invoices calculated per second (10 and 200 lines) against `serde_json` parsing and
//! serialising the same document in the same run.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use gobl::builder::{BuildOptions, build_tree};
use serde_json::{Value, json};

/// The allocator the folio server runs on (both sides of the comparison share it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn invoice(lines: usize) -> String {
    let rates = ["general", "reduced", "super-reduced", "zero", "exempt"];
    let list: Vec<Value> = (0..lines)
        .map(|i| {
            json!({
                "quantity": format!("{}", 1 + i % 7),
                "item": {"name": format!("Item {i}"), "price": format!("{}.{:02}", 10 + i, i % 100)},
                "discounts": if i % 3 == 0 { json!([{"percent": "5%", "reason": "promo"}]) } else { json!([]) },
                "taxes": [{"cat": "VAT", "rate": rates[i % rates.len()]}]
            })
        })
        .collect();
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "uuid": "3aea7b56-59d8-4beb-90bd-f8f280d852a0",
        "code": "BENCH-1",
        "issue_date": "2024-03-01",
        "supplier": {"name": "Provide One S.L.", "tax_id": {"country": "ES", "code": "B98602642"}},
        "customer": {"name": "Sample Consumer", "tax_id": {"country": "ES", "code": "54387763P"}},
        "lines": list,
        "payment": {"terms": {"due_dates": [{"date": "2024-04-01", "percent": "100%"}]}}
    })
    .to_string()
}

/// Parse, build (normalise, calculate, validate, digest, envelope) and serialise, as the silo
/// does with a bare document: read into the calculation's tree, numbers as serde_json reads
/// them, and the envelope written from that tree.
fn build_text(text: &str) -> String {
    build_tree(read(text), &OPTS).unwrap().to_json_string()
}

/// A fixed head uuid, validation on.
const OPTS: BuildOptions = BuildOptions {
    uuid: Some(uuid::Uuid::nil()),
    skip_validation: false,
};

/// The text read as the builder takes it (as the silo reads it: numbers rewritten as
/// serde_json writes them, when any needs it).
fn read(text: &str) -> gobl::json::Value {
    let (mut v, numbers_normal) =
        gobl::json::parse_noting_numbers(text, gobl::json::DEFAULT_MAX_DEPTH).unwrap();
    if !numbers_normal {
        v.normalize_numbers().unwrap();
    }
    v
}

/// Parse and serialise only.
fn roundtrip(text: &str) -> String {
    let v: Value = serde_json::from_str(text).unwrap();
    serde_json::to_string(&v).unwrap()
}

fn per_second(f: impl Fn() -> String, budget: Duration) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        black_box(f());
        n += 1;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// Median rates of `a` and `b` over rounds that alternate between them: on a shared two-core
/// machine one long run of either can catch a neighbour's burst (single 1.5 s runs gave ratios
/// from 0.25 to 0.37 for the same code).
fn alternating(a: impl Fn() -> String, b: impl Fn() -> String) -> (f64, f64) {
    const ROUNDS: usize = 5;
    let budget = Duration::from_millis(300);
    let (mut ra, mut rb) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        ra.push(per_second(&a, budget));
        rb.push(per_second(&b, budget));
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(ra), median(rb))
}

/// A reference example of an add-on family, its lines repeated to `lines`, with and without
/// its `$addons` (the same invoice either way).
fn with_and_without(example: &str, lines: usize) -> Option<(String, String)> {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    let text = std::fs::read_to_string(dir.join(example)).ok()?;
    let mut v = gobl::builder::parse_input(&text).ok()?;
    // An example is a bare document or an envelope whose head is still to be built.
    let mut doc = if v.get("doc").is_some() {
        v["doc"].take()
    } else {
        v
    };
    let first = doc["lines"].get(0)?.clone();
    doc["lines"] = Value::Array(vec![first; lines]);
    let with = doc.to_string();
    doc.as_object_mut()?.remove("$addons");
    Some((with, doc.to_string()))
}

/// Build whether or not the document validates: an add-on's validation is part of its cost.
fn build_any(text: &str) -> String {
    match build_tree(read(text), &OPTS) {
        Ok(env) => env.to_json_string(),
        Err(inv) => inv.envelope.to_json_string(),
    }
}

/// Whether a document gets as far as an envelope (valid or not): a row comparing a build
/// with one refused before calculation would measure nothing.
fn calculates(text: &str) -> bool {
    build_tree(read(text), &OPTS).map_or_else(|inv| !inv.envelope.is_null(), |_| true)
}

/// The add-on families of the add-on rows, each with the reference example it is built on.
const ADDONS: [(&str, &str); 3] = [
    ("es-verifactu-v1", "es/invoice-es-es-verifactu.yaml"),
    // Not b2b-deffered.json: its `deferred` tag is the add-on's, so without the add-on
    // the build stopped at normalisation and the row compared a build with a refusal.
    ("it-sdi-v1", "it/b2b-fund-contribution.json"),
    ("pl-favat-v3", "pl/invoice-simplified.json"),
];

/// One row per add-on family: the invoice with its add-on against the same without it.
fn addon_rows() {
    for (addon, example) in ADDONS {
        let Some((with, without)) = with_and_without(example, 10) else {
            eprintln!("{example}: not found, no row for {addon}");
            continue;
        };
        if let Some(text) = [&with, &without].into_iter().find(|t| !calculates(t)) {
            let side = if text == &with { "with" } else { "without" };
            eprintln!("{example} ({side} {addon}) is not calculated: no row");
            continue;
        }
        let (a, b) = alternating(|| build_any(&with), || build_any(&without));
        println!(
            "BENCH | invoice build with {addon}, 10 lines | {a:.0}/s | without the add-on {b:.0}/s | {:.2}",
            a / b
        );
    }
}

/// `INVOICE_COUNT=WHAT:LINES:N` runs one side (`build` or `json`, the baseline) N times and
/// nothing else, for an instruction count under callgrind: a build's instructions are the
/// count at N = 11 less the count at N = 1, over ten, and its ratio is that of `json` over it.
/// `INVOICE_COUNT=with:ADDON:N` and `without:ADDON:N` do the same for an add-on row's two sides.
fn count_only() -> bool {
    let Ok(spec) = std::env::var("INVOICE_COUNT") else {
        return false;
    };
    let mut parts = spec.split(':');
    let what = parts.next().unwrap_or("");
    let second = parts.next().unwrap_or("");
    let n: usize = parts.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    if what == "with" || what == "without" {
        let example = ADDONS.iter().find(|(a, _)| *a == second);
        let (_, example) = example.expect("INVOICE_COUNT: an add-on of the add-on rows");
        let (with, without) = with_and_without(example, 10).expect("the example");
        let text = if what == "with" { with } else { without };
        for _ in 0..n {
            drop(black_box(build_any(&text)));
        }
        return true;
    }
    let lines: usize = second.parse().unwrap_or(10);
    let text = invoice(lines);
    for _ in 0..n {
        match what {
            "build" => drop(black_box(build_text(&text))),
            "json" => drop(black_box(roundtrip(&text))),
            other => panic!("INVOICE_COUNT: unknown side {other:?}"),
        }
    }
    true
}

fn bench(c: &mut Criterion) {
    if count_only() {
        return;
    }
    addon_rows();
    for lines in [10usize, 200] {
        let text = invoice(lines);
        let mut g = c.benchmark_group(format!("invoice-{lines}-lines"));
        g.bench_function("gobl-build", |b| b.iter(|| build_text(black_box(&text))));
        g.bench_function("serde_json-roundtrip", |b| {
            b.iter(|| roundtrip(black_box(&text)))
        });
        g.finish();
        // A direct figure for the report: invoices per second and the ratio.
        let (built, plain) = alternating(|| build_text(&text), || roundtrip(&text));
        println!(
            "{lines:>3} lines: gobl build {built:>9.0}/s, serde_json parse+serialise {plain:>9.0}/s, ratio {:.1}x slower",
            plain / built
        );
        // the line `bench/run.sh` collects into its table
        println!(
            "BENCH | invoice build, {lines} lines | {built:.0}/s | serde_json parse+serialise {plain:.0}/s | {:.2}",
            built / plain
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
