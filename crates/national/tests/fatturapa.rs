//! FatturaPA written from the golden GOBL envelopes of `../shared/national/fixtures`: every
//! file passes the official XSD (through the kit's `validate.py`) and carries the business
//! values of the reference's XML (number, date, parties' tax ids, per-rate summaries,
//! line amounts, retained taxes, fund contributions, payments, totals).

use std::path::{Path, PathBuf};
use std::process::Command;

use folio_national::fatturapa::{self, Options, Transmitter};
use quick_xml::Reader;
use quick_xml::events::Event;
use serde_json::Value;

fn kit() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/national")
}

fn fixtures() -> PathBuf {
    kit().join("fixtures/fatturapa/gobl.fatturapa")
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

/// Every golden pair: (name, envelope, reference XML).
fn pairs() -> Vec<(String, Value, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(fixtures()).expect("the national kit") {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let env = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let xml = std::fs::read_to_string(fixtures().join(format!("out/{name}.xml"))).unwrap();
        out.push((name, env, xml));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 8, "only {} pairs", out.len());
    out
}

/// Validate files with the kit: one report per file.
fn validate(files: &[PathBuf]) -> Vec<Value> {
    let out = Command::new("python3")
        .arg(kit().join("validate.py"))
        .args(["--format", "fatturapa", "--json"])
        .args(files)
        .output()
        .expect("python3 runs");
    let reports: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "validate.py gave no JSON (pip install -r ../shared/national/requirements.txt): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    reports.as_array().unwrap().clone()
}

/// Leaf elements as (path, text), outside the signature.
fn leaves(xml: &str) -> Vec<(String, String)> {
    let mut r = Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    let mut out = Vec::new();
    loop {
        match r.read_event().expect("well-formed XML") {
            Event::Start(e) => path.push(String::from_utf8_lossy(e.local_name().as_ref()).into()),
            Event::End(_) => {
                path.pop();
            }
            Event::Text(t) => {
                let text = t.decode().unwrap().trim().to_string();
                if !text.is_empty() && !path.iter().any(|p| p == "Signature") {
                    let text = quick_xml::escape::unescape(&text).unwrap().to_string();
                    out.push((path[1..].join("/"), text));
                }
            }
            Event::Eof => return out,
            _ => {}
        }
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

/// Differences between two lists of values: those only one side has (as multisets), or
/// the same values in another order.
fn differences(ours: &[(String, String)], theirs: &[(String, String)]) -> Vec<String> {
    let mut only_theirs: Vec<&(String, String)> = theirs.iter().collect();
    let mut d = Vec::new();
    for v in ours {
        match only_theirs.iter().position(|t| *t == v) {
            Some(i) => {
                only_theirs.remove(i);
            }
            None => d.push(format!("ours only: {v:?}")),
        }
    }
    d.extend(only_theirs.iter().map(|v| format!("reference only: {v:?}")));
    if d.is_empty() && ours != theirs {
        d.push("the same values in another order".into());
    }
    d
}

/// A scratch folder of one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("folio-fatturapa-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
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
    let scratch = Scratch::new("xsd");
    let written = write_all(&scratch.0, false);
    let files: Vec<PathBuf> = written.iter().map(|w| w.1.clone()).collect();
    let reports = validate(&files);
    assert_eq!(reports.len(), files.len());
    let bad: Vec<String> = reports
        .iter()
        .filter(|r| r["ok"] != true)
        .map(|r| format!("{}: {}", r["file"], r["xsd_errors"]))
        .collect();
    assert!(bad.is_empty(), "XSD errors:\n{}", bad.join("\n"));
}

#[test]
fn every_golden_invoice_carries_the_reference_business_values() {
    let mut failures = Vec::new();
    let scratch = Scratch::new("values");
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
    let scratch = Scratch::new("all");
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
    let scratch = Scratch::new("rebuilt");
    let mut failures = Vec::new();
    let written = write_all(&scratch.0, true);
    for (name, _, xml, reference) in &written {
        let d = differences(&business(xml), &business(reference));
        if !d.is_empty() {
            failures.push(format!("{name}:\n  {}", d.join("\n  ")));
        }
    }
    let files: Vec<PathBuf> = written.iter().map(|w| w.1.clone()).collect();
    for r in validate(&files).iter().filter(|r| r["ok"] != true) {
        failures.push(format!("{}: {}", r["file"], r["xsd_errors"]));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
