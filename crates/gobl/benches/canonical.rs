//! Canonical JSON + digest throughput on the reference example envelopes' documents, next to a
//! plain serde_json parse + serialise of the same bytes, so the ratio can be read off one run.

use std::path::PathBuf;
use std::time::Instant;

use criterion::{Criterion, Throughput, black_box};

/// The allocator the folio server runs on (both sides of the comparison share it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The `doc` of every reference example envelope, as compact JSON text.
fn corpus() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    let mut docs = Vec::new();
    if let Ok(countries) = std::fs::read_dir(&root) {
        for country in countries.flatten() {
            let Ok(outs) = std::fs::read_dir(country.path().join("out")) else {
                continue;
            };
            for file in outs.flatten() {
                let text = std::fs::read_to_string(file.path()).unwrap_or_default();
                if let Ok(env) = gobl::json::parse(&text)
                    && let Some(doc) = env.get("doc")
                {
                    docs.push(doc.to_json_string());
                }
            }
        }
    }
    if docs.is_empty() {
        // Fallback so the bench still runs without the reference folder.
        docs.push(r#"{"$schema":"https://gobl.org/draft-0/bill/invoice","code":"1","lines":[{"i":1,"sum":"90.00","n":1.5}]}"#.to_owned());
    }
    docs
}

fn ours(docs: &[String]) {
    for d in docs {
        let v = gobl::json::parse(d).expect("parse");
        black_box(gobl::digest::digest(&v).expect("digest"));
    }
}

fn serde(docs: &[String]) {
    for d in docs {
        let v: serde_json::Value = serde_json::from_str(d).expect("parse");
        black_box(serde_json::to_vec(&v).expect("serialise"));
    }
}

fn bench(c: &mut Criterion) {
    let docs = corpus();
    let bytes: usize = docs.iter().map(String::len).sum();
    let mut group = c.benchmark_group("documents");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("gobl_parse_canonical_digest", |b| b.iter(|| ours(&docs)));
    group.bench_function("serde_json_parse_serialize", |b| b.iter(|| serde(&docs)));
    group.finish();
}

/// A short direct timing of both paths, printed as MB/s and a ratio.
fn summary() {
    let docs = corpus();
    let bytes: usize = docs.iter().map(String::len).sum();
    let rate = |f: &dyn Fn(&[String])| {
        let mut rounds = 0u32;
        let start = Instant::now();
        while start.elapsed().as_millis() < 1500 {
            f(&docs);
            rounds += 1;
        }
        (bytes as f64 * f64::from(rounds)) / start.elapsed().as_secs_f64() / 1e6
    };
    let (g, s) = (rate(&ours), rate(&serde));
    println!(
        "{} docs, {bytes} bytes: gobl canonical+digest {g:.1} MB/s, serde_json parse+serialise {s:.1} MB/s, ratio {:.2}",
        docs.len(),
        g / s
    );
    // The hash folio uses (`ring`'s) against `sha2`'s, which has no vector code of its own: on a
    // CPU without SHA instructions it runs portable code (see `gobl::digest::Sha256`).
    let (r, s) = (rate(&ring_sha256), rate(&sha2_sha256));
    println!(
        "SHA-256 of the same bytes: ring {r:.1} MB/s, sha2 {s:.1} MB/s, ratio {:.2}",
        r / s
    );
}

fn ring_sha256(docs: &[String]) {
    for d in docs {
        black_box(gobl::digest::sha256(d.as_bytes()));
    }
}

fn sha2_sha256(docs: &[String]) {
    use sha2::Digest as _;
    for d in docs {
        black_box(sha2::Sha256::digest(d.as_bytes()));
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
    summary();
}
