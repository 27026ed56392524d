//! FatturaPA written from the golden GOBL envelopes of `../shared/national/fixtures`: every
//! file passes the official XSD (through the kit's `validate.py`) and carries the business
//! values of the reference's XML (number, date, parties' tax ids, per-rate summaries,
//! line amounts, retained taxes, fund contributions, payments, totals).

mod common;

use std::path::{Path, PathBuf};

use common::{Scratch, differences, failing};
use folio_national::fatturapa::{self, Options, Transmitter};
use serde_json::Value;

/// Every golden pair: (name, envelope, reference XML).
fn pairs() -> Vec<(String, Value, String)> {
    common::pairs("fatturapa/gobl.fatturapa", 8)
}

/// Validate files with the kit: one report per file.
fn validate(files: &[PathBuf]) -> Vec<Value> {
    common::validate("fatturapa", files)
}

/// Leaf elements as (path, text), outside the signature.
fn leaves(xml: &str) -> Vec<(String, String)> {
    common::leaves(xml, &["Signature"])
}

/// The reference's transmitter (its tests pass one; folio's default is the supplier).
fn options() -> Options {
    Options {
        transmitter: Some(Transmitter {
            country: "IT".into(),
            code: "01234567890".into(),
        }),
    }
}

/// The business values of a FatturaPA file, in document order.
fn business(xml: &str) -> Vec<(String, String)> {
    const KEEP: &[&str] = &[
        "DatiTrasmissione/FormatoTrasmissione",
        "DatiTrasmissione/CodiceDestinatario",
        "DatiTrasmissione/PECDestinatario",
        "CedentePrestatore/DatiAnagrafici/IdFiscaleIVA",
        "CedentePrestatore/DatiAnagrafici/CodiceFiscale",
        "CedentePrestatore/DatiAnagrafici/RegimeFiscale",
        "CessionarioCommittente/DatiAnagrafici/IdFiscaleIVA",
        "CessionarioCommittente/DatiAnagrafici/CodiceFiscale",
        "DatiGeneraliDocumento/",
        "DatiFattureCollegate/",
        "DettaglioLinee/NumeroLinea",
        "DettaglioLinee/Quantita",
        "DettaglioLinee/PrezzoUnitario",
        "DettaglioLinee/ScontoMaggiorazione",
        "DettaglioLinee/PrezzoTotale",
        "DettaglioLinee/AliquotaIVA",
        "DettaglioLinee/Natura",
        "DettaglioLinee/Ritenuta",
        "DatiRiepilogo/",
        "DatiPagamento/",
    ];
    leaves(xml)
        .into_iter()
        .filter(|(p, _)| KEEP.iter().any(|k| p.contains(k)))
        .collect()
}

/// The envelope without what the build derives: totals, and the document type and format
/// the it-sdi-v1 add-on's scenarios set.
fn derived_removed(mut env: Value) -> Value {
    let doc = env["doc"].as_object_mut().unwrap();
    // `totals.rounding` is an input (a rounding the issuer chose), the rest is derived.
    let rounding = doc["totals"].get("rounding").cloned();
    doc.remove("totals");
    if let Some(r) = rounding {
        doc.insert("totals".into(), serde_json::json!({ "rounding": r }));
    }
    if let Some(ext) = doc.get_mut("tax").and_then(|t| t.get_mut("ext")) {
        let ext = ext.as_object_mut().unwrap();
        ext.remove("it-sdi-document-type");
        ext.remove("it-sdi-format");
    }
    env
}

/// Each pair's envelope, rebuilt by folio's builder when `rebuild` (the fixtures were
/// built by the reference), written as FatturaPA into `dir`.
fn write_all(dir: &Path, rebuild: bool) -> Vec<(String, PathBuf, String, String)> {
    pairs()
        .into_iter()
        .map(|(name, env, reference)| {
            let env = if rebuild {
                gobl::builder::build(derived_removed(env))
                    .unwrap_or_else(|f| panic!("{name}: {f:?}"))
            } else {
                env
            };
            let xml = fatturapa::from_envelope(&env, &options())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let file = dir.join(format!("{name}.xml"));
            std::fs::write(&file, &xml).unwrap();
            (name, file, xml, reference)
        })
        .collect()
}

#[test]
fn every_golden_invoice_passes_the_official_schema() {
    let scratch = Scratch::new("fatturapa", "xsd");
    let written = write_all(&scratch.0, false);
    let files: Vec<PathBuf> = written.iter().map(|w| w.1.clone()).collect();
    let reports = validate(&files);
    assert_eq!(reports.len(), files.len());
    let bad = failing(&reports);
    assert!(bad.is_empty(), "XSD errors:\n{}", bad.join("\n"));
}

#[test]
fn every_golden_invoice_carries_the_reference_business_values() {
    let mut failures = Vec::new();
    let scratch = Scratch::new("fatturapa", "values");
    for (name, _, xml, reference) in write_all(&scratch.0, false) {
        let ours = business(&xml);
        let theirs = business(&reference);
        assert!(theirs.len() > 10, "{name}: nothing compared");
        let d = differences(&ours, &theirs);
        if !d.is_empty() {
            failures.push(format!("{name}:\n  {}", d.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_other_element_matches_the_reference_too() {
    // Beyond the business values: addresses, names, contacts, registration, descriptions.
    let mut failures = Vec::new();
    let scratch = Scratch::new("fatturapa", "all");
    for (name, _, xml, reference) in write_all(&scratch.0, false) {
        let d = differences(&leaves(&xml), &leaves(&reference));
        if !d.is_empty() {
            failures.push(format!("{name}:\n  {}", d.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rebuilt_by_folio_the_golden_invoices_give_the_same_values() {
    // The fixtures were built by the reference; folio's builder (with its it-sdi-v1 add-on
    // deriving the document type and format again) must give an envelope that writes the
    // same FatturaPA.
    let scratch = Scratch::new("fatturapa", "rebuilt");
    let mut failures = Vec::new();
    let written = write_all(&scratch.0, true);
    for (name, _, xml, reference) in &written {
        let d = differences(&business(xml), &business(reference));
        if !d.is_empty() {
            failures.push(format!("{name}:\n  {}", d.join("\n  ")));
        }
    }
    let files: Vec<PathBuf> = written.iter().map(|w| w.1.clone()).collect();
    failures.extend(failing(&validate(&files)));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
