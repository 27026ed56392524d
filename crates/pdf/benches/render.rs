//! PDFs per second for a 10-line and a 200-line invoice, and the Factur-X hybrid (render and
//! embed), against a baseline measured in the same run with the same crate and fonts: a fixed
//! one-page document (a title and a paragraph) through the same Typst world and PDF/A-3b
//! writer. The ratio says what the invoice layout costs over Typst's fixed price per PDF.

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use folio_pdf::{Options, render};
use serde_json::{Value, json};

/// The allocator the folio server runs on (both sides of the comparison share it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn invoice(lines: usize) -> Value {
    let lines: Vec<Value> = (0..lines)
        .map(|i| json!({"quantity": format!("{}", 1 + i % 7),
                        "item": {"name": format!("Service {i}"), "price": format!("{}.{:02}", 10 + i % 90, i % 100)},
                        "taxes": [{"cat": "VAT", "rate": "standard"}]}))
        .collect();
    let doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "currency": "EUR", "issue_date": "2026-11-02", "series": "RE", "code": "0042",
        "supplier": {"name": "Muster Software GmbH", "tax_id": {"country": "DE", "code": "111111125"},
                     "addresses": [{"street": "Friedrichstraße", "num": "123", "locality": "Berlin", "code": "10117", "country": "DE"}]},
        "customer": {"name": "Kunde AG", "tax_id": {"country": "DE", "code": "282741168"},
                     "addresses": [{"street": "Platz der Republik", "num": "1", "locality": "Bonn", "code": "53113", "country": "DE"}]},
        "lines": lines,
        "payment": {"terms": {"due_dates": [{"date": "2026-12-02", "percent": "100%"}]},
                    "instructions": {"key": "credit-transfer+sepa",
                                     "credit_transfer": [{"iban": "DE89370400440532013000", "name": "Muster Software GmbH"}]}}
    });
    gobl::builder::build(doc).expect("the benchmark invoice builds")
}

const FIXED_PAGE: &str = "#set page(paper: \"a4\")\n#set text(font: \"DejaVu Sans\")\n= Invoice\nA fixed page of text, the same for every run.";

/// Calls per second of `f` over `budget`: the direct figure of the `BENCH` line that
/// `bench/run.sh` collects (criterion's own report stays as it is).
fn per_second<T>(f: impl Fn() -> T, budget: Duration) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        std::hint::black_box(f());
        n += 1;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

fn bench(c: &mut Criterion) {
    let de = Options {
        locale: Some("de".into()),
        ..Options::default()
    };
    let fixed = Options {
        template: Some(FIXED_PAGE.into()),
        ..Options::default()
    };
    for lines in [10, 200] {
        let envelope = invoice(lines);
        let mut group = c.benchmark_group(format!("{lines} lines"));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(5));
        group.bench_function("baseline fixed one-page PDF", |b| {
            b.iter(|| render(&envelope, &fixed).unwrap())
        });
        group.bench_function("invoice PDF", |b| {
            b.iter(|| render(&envelope, &de).unwrap())
        });
        group.bench_function("Factur-X hybrid", |b| {
            b.iter(|| {
                let pdf = render(&envelope, &de).unwrap();
                folio_einvoice::embed(&pdf, &envelope, folio_einvoice::Format::CiiFacturx, None)
                    .unwrap()
            })
        });
        group.finish();
        let budget = Duration::from_secs(2);
        let base = per_second(|| render(&envelope, &fixed).unwrap(), budget);
        let pdf = per_second(|| render(&envelope, &de).unwrap(), budget);
        println!(
            "BENCH | invoice PDF, {lines} lines | {pdf:.0}/s | fixed one-page PDF {base:.0}/s | {:.2}",
            pdf / base
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
