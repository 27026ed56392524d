//! Conversions per second (GOBL → UBL, GOBL → CII, UBL → GOBL, CII → GOBL) for a 10-line and
//! a 200-line invoice, against a baseline measured in the same run: `serde_json` parse + serialise of the
//! same GOBL envelope.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use folio_einvoice::{Format, generate, import};
use serde_json::{Value, json};

// The national formats' bench times its rows the same way.
#[path = "../../national/benches/common/mod.rs"]
mod common;

/// The allocator the folio server runs on (both sides of the comparison share it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A built German invoice with `lines` lines, from the shared minimal EN 16931 fixture.
fn invoice(lines: usize) -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/einvoice/fixtures/ubl/convert/en16931/invoice-minimal.json"
    );
    let text = std::fs::read_to_string(path).expect("the shared fixture");
    let envelope: Value = serde_json::from_str(&text).expect("fixture JSON");
    let mut doc = envelope["doc"].clone();
    let doc_obj = doc.as_object_mut().expect("a document");
    doc_obj.remove("totals");
    doc_obj.remove("uuid");
    let template = doc_obj["lines"][0].clone();
    let lines: Vec<Value> = (0..lines)
        .map(|i| {
            let mut line = template.clone();
            let l = line.as_object_mut().expect("a line");
            for computed in ["i", "sum", "total"] {
                l.remove(computed);
            }
            l.insert("quantity".into(), json!(format!("{}", 1 + i % 7)));
            l["item"]["name"] = json!(format!("Service {i}"));
            l["item"]["price"] = json!(format!("{}.{:02}", 10 + i % 90, i % 100));
            line
        })
        .collect();
    doc_obj.insert("lines".into(), Value::Array(lines));
    gobl::builder::build(doc).expect("the benchmark invoice builds")
}

/// The serde_json round trip of the baseline.
fn round_trip(text: &str) -> String {
    let v: Value = serde_json::from_str(text).expect("parse");
    serde_json::to_string(&v).expect("serialise")
}

/// `CONVERT_COUNT=WHAT:LINES:N` runs one conversion (`json`, `ubl`, `cii`, `ubl-import`,
/// `cii-import`) N times and nothing else, for an instruction count under callgrind: the
/// conversion's instructions are the difference between two counts, over that of `json`.
fn count_only() -> bool {
    let Ok(spec) = std::env::var("CONVERT_COUNT") else {
        return false;
    };
    let mut parts = spec.split(':');
    let what = parts.next().unwrap_or("");
    let lines: usize = parts.next().and_then(|l| l.parse().ok()).unwrap_or(10);
    let n: usize = parts.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let envelope = invoice(lines);
    let text = serde_json::to_string(&envelope).expect("serialise");
    let ubl = generate(&envelope, Format::Ubl).expect("UBL").xml;
    let cii = generate(&envelope, Format::Cii).expect("CII").xml;
    for _ in 0..n {
        match what {
            "json" => drop(black_box(round_trip(&text))),
            "ubl" => drop(black_box(generate(&envelope, Format::Ubl))),
            "cii" => drop(black_box(generate(&envelope, Format::Cii))),
            "ubl-import" => drop(black_box(import(ubl.as_bytes()))),
            "cii-import" => drop(black_box(import(cii.as_bytes()))),
            other => panic!("CONVERT_COUNT: unknown conversion {other:?}"),
        }
    }
    true
}

fn bench(c: &mut Criterion) {
    if count_only() {
        return;
    }
    for lines in [10, 200] {
        let envelope = invoice(lines);
        let text = serde_json::to_string(&envelope).expect("serialise");
        let ubl = generate(&envelope, Format::Ubl).expect("UBL").xml;
        let cii = generate(&envelope, Format::Cii).expect("CII").xml;
        let mut group = c.benchmark_group(format!("{lines} lines"));
        group.bench_function("baseline serde_json parse+serialise", |b| {
            b.iter(|| round_trip(&text))
        });
        group.bench_function("GOBL to UBL", |b| {
            b.iter(|| generate(&envelope, Format::Ubl).expect("UBL"))
        });
        group.bench_function("GOBL to CII", |b| {
            b.iter(|| generate(&envelope, Format::Cii).expect("CII"))
        });
        group.bench_function("UBL to GOBL", |b| {
            b.iter(|| import(ubl.as_bytes()).expect("import"))
        });
        group.bench_function("CII to GOBL", |b| {
            b.iter(|| import(cii.as_bytes()).expect("import"))
        });
        group.finish();
        // Each conversion timed in slices alternating with the baseline's, so that a burst of
        // other work on the machine slows both alike (a baseline timed once, before the four
        // conversions, moved every ratio with the machine's load).
        let plain = || drop(black_box(round_trip(&text)));
        let rows: [(&str, &dyn Fn()); 4] = [
            ("GOBL → UBL", &|| {
                drop(black_box(generate(&envelope, Format::Ubl)))
            }),
            ("GOBL → CII", &|| {
                drop(black_box(generate(&envelope, Format::Cii)))
            }),
            ("UBL → GOBL", &|| drop(black_box(import(ubl.as_bytes())))),
            ("CII → GOBL", &|| drop(black_box(import(cii.as_bytes())))),
        ];
        for (name, convert) in rows {
            let (rate, plain) = common::rates(convert, &plain);
            println!(
                "BENCH | {name}, {lines} lines | {rate:.0}/s | serde_json parse+serialise {plain:.0}/s | {:.2}",
                rate / plain
            );
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
