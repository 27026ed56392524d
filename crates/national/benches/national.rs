//! Conversions per second of each national format, 10 and 200 lines, against a serde_json
//! round trip (parse and serialise) of the same GOBL envelope, timed in the same run. A
//! conversion starts from the envelope's JSON text, as a workflow step or the CLI does.
//! Prints `BENCH | path | figure | baseline | ratio` lines (`bench/run.sh` collects them).
//! TicketBAI is measured unsigned (the draft); signing is `benches/sign.rs`.

use std::hint::black_box;
use std::path::PathBuf;

use chrono::{TimeZone, Utc};
use folio_national::{facturae, fatturapa, ksef, ticketbai, verifactu};
use serde_json::Value;

mod common;
use common::rates;

/// The allocator the folio server runs on (both sides of the comparison share it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Convert = fn(&Value) -> String;

/// The document of a reference envelope under `../shared`.
fn doc(path: &str) -> Value {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared")
        .join(path);
    let envelope: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    envelope["doc"].clone()
}

/// The envelope of `doc` with its first line repeated to `lines`, built by GOBL, as text.
fn envelope(mut doc: Value, lines: usize) -> String {
    let first = doc["lines"][0].clone();
    doc["lines"] = Value::Array(vec![first; lines]);
    for key in ["totals", "uuid"] {
        doc.as_object_mut().unwrap().remove(key);
    }
    let built = gobl::builder::build(doc).expect("the example builds");
    serde_json::to_string(&built).unwrap()
}

fn to_fatturapa(env: &Value) -> String {
    fatturapa::from_envelope(env, &fatturapa::Options::default()).unwrap()
}

fn to_facturae(env: &Value) -> String {
    facturae::from_envelope(env, &facturae::Options::default()).unwrap()
}

fn to_ksef(env: &Value) -> String {
    ksef::from_envelope(env, &ksef::Options::default()).unwrap()
}

fn to_verifactu(env: &Value) -> String {
    let opts = verifactu::Options {
        software: verifactu::Software::folio("Bench SL", "B98602642", "bench"),
        representative: None,
        environment: verifactu::Environment::Test,
    };
    verifactu::record_from_envelope(env, None, at(), &opts)
        .unwrap()
        .xml
}

fn to_ticketbai(env: &Value) -> String {
    let regions = [
        ticketbai::Region::Araba,
        ticketbai::Region::Bizkaia,
        ticketbai::Region::Gipuzkoa,
    ];
    let opts = ticketbai::Options {
        software: ticketbai::Software {
            licenses: regions
                .into_iter()
                .map(|r| (r, "TBAIARbench".into()))
                .collect(),
            developer_nif: "B98602642".into(),
            name: "folio".into(),
            version: "bench".into(),
        },
        role: ticketbai::IssuerRole::Supplier,
    };
    ticketbai::draft_from_envelope(env, None, at(), &opts)
        .unwrap()
        .xml
}

fn at() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 25, 10, 0, 0).unwrap()
}

fn main() {
    let formats: [(&str, &str, Convert); 5] = [
        (
            "FatturaPA",
            "national/fixtures/fatturapa/gobl.fatturapa/invoice-simple.json",
            to_fatturapa,
        ),
        (
            "Facturae",
            "national/fixtures/facturae/gobl.facturae/invoice-vat-irpf.json",
            to_facturae,
        ),
        (
            "KSeF FA(3)",
            "national/fixtures/ksef/gobl.ksef/invoice-self-billed.json",
            to_ksef,
        ),
        (
            "VERI*FACTU record",
            "gobl/examples/es/out/invoice-es-es-verifactu.json",
            to_verifactu,
        ),
        (
            "TicketBAI (unsigned)",
            "gobl/examples/es/out/invoice-es-es-tbai-simplified.json",
            to_ticketbai,
        ),
    ];
    for (name, path, convert) in formats {
        for lines in [10usize, 200] {
            let text = envelope(doc(path), lines);
            let (rate, plain) = rates(
                &|| {
                    let env: Value = serde_json::from_str(black_box(&text)).unwrap();
                    black_box(convert(&env));
                },
                &|| {
                    let env: Value = serde_json::from_str(black_box(&text)).unwrap();
                    black_box(serde_json::to_string(&env).unwrap());
                },
            );
            println!(
                "BENCH | GOBL → {name}, {lines} lines | {rate:.0}/s | serde_json parse+serialise {plain:.0}/s | {:.2}",
                rate / plain
            );
        }
    }
}
