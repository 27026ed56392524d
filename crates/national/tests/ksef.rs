//! KSeF FA(3) written from the golden GOBL envelopes of `../shared/national/fixtures` and
//! from every Polish GOBL example built with `pl-favat-v3`: every file passes the official
//! XSD (through the kit's `validate.py`) and carries the business values of the
//! reference's XML (number, dates, parties' tax ids, each tax category's base and tax,
//! total, lines, annotations, correction data).

use std::path::{Path, PathBuf};
use std::process::Command;

use folio_national::ksef::{self, Error, Options};
use quick_xml::Reader;
use quick_xml::events::Event;
use serde_json::Value;

fn kit() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/national")
}

fn fixtures() -> PathBuf {
    kit().join("fixtures/ksef/gobl.ksef")
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
    assert!(out.len() >= 2, "only {} pairs", out.len());
    out
}

/// A scratch folder of one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("folio-ksef-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, xml: &str) -> PathBuf {
        let file = self.0.join(format!("{name}.xml"));
        std::fs::write(&file, xml).unwrap();
        file
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The kit's verdict on each file: the XSD errors of those that fail.
fn xsd_failures(files: &[PathBuf]) -> Vec<String> {
    if files.is_empty() {
        return Vec::new();
    }
    let out = Command::new("python3")
        .arg(kit().join("validate.py"))
        .args(["--format", "ksef", "--json"])
        .args(files)
        .output()
        .expect("python3 runs");
    let reports: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "validate.py gave no JSON (pip install -r ../shared/national/requirements.txt): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let reports = reports.as_array().unwrap();
    assert_eq!(reports.len(), files.len());
    reports
        .iter()
        .filter(|r| r["ok"] != true)
        .map(|r| format!("{}: {}", r["file"], r["xsd_errors"]))
        .collect()
}

/// Leaf elements as (path below `Faktura`, text).
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
                if !text.is_empty() {
                    let text = quick_xml::escape::unescape(&text).unwrap().to_string();
                    out.push((path[1..].join("/"), text));
                }
            }
            Event::Eof => return out,
            _ => {}
        }
    }
}

/// The business values of an FA(3) file, in document order.
fn business(xml: &str) -> Vec<(String, String)> {
    const KEEP: &[&str] = &[
        "Podmiot1/DaneIdentyfikacyjne/",
        "Podmiot2/DaneIdentyfikacyjne/",
        "Podmiot2/JST",
        "Podmiot2/GV",
        "Podmiot3/",
        "Fa/KodWaluty",
        "Fa/P_1",
        "Fa/P_2",
        "Fa/P_6",
        "Fa/P_13_",
        "Fa/P_14_",
        "Fa/P_15",
        "Fa/Adnotacje/",
        "Fa/RodzajFaktury",
        "Fa/PrzyczynaKorekty",
        "Fa/TypKorekty",
        "Fa/DaneFaKorygowanej/",
        "Fa/FakturaZaliczkowa/",
        "Fa/FaWiersz/",
        "Fa/Platnosc/",
        "Fa/Zamowienie/",
    ];
    leaves(xml)
        .into_iter()
        .filter(|(p, _)| KEEP.iter().any(|k| p.starts_with(k)))
        .filter(|(p, _)| !p.ends_with("/P_7") && !p.ends_with("/Nazwa"))
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

/// The reference's options: a file generated on the issue date by `GOBL.KSEF`.
fn reference_options() -> Options {
    Options {
        system_info: Some("GOBL.KSEF".into()),
        ..Options::default()
    }
}

/// The amounts of a correcting invoice without their sign: the reference's FA(3) branch
/// wrote a credit note's amounts positive, where KSeF (and the reference since) writes the
/// difference the correction makes, negative.
fn unsigned(values: Vec<(String, String)>) -> Vec<(String, String)> {
    values
        .into_iter()
        .map(|(p, v)| (p, v.trim_start_matches('-').to_string()))
        .collect()
}

#[test]
fn every_golden_invoice_passes_the_schema_and_carries_the_reference_values() {
    let scratch = Scratch::new("golden");
    let mut files = Vec::new();
    let mut failures = Vec::new();
    for (name, env, reference) in pairs() {
        let xml = ksef::from_envelope(&env, &reference_options())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        files.push(scratch.write(&name, &xml));
        let (mut ours, mut theirs) = (business(&xml), business(&reference));
        assert!(theirs.len() > 20, "{name}: nothing compared");
        if name.starts_with("credit-note") {
            assert!(
                ours.iter()
                    .any(|(p, v)| p == "Fa/P_15" && v.starts_with('-'))
            );
            (ours, theirs) = (unsigned(ours), unsigned(theirs));
        }
        let d = differences(&ours, &theirs);
        if !d.is_empty() {
            failures.push(format!("{name}:\n  {}", d.join("\n  ")));
        }
    }
    failures.extend(xsd_failures(&files));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_other_element_matches_the_reference_too() {
    // Beyond the business values: names, addresses, contacts, the header. Only the
    // header's system name and the correction's signs differ, by choice.
    let mut failures = Vec::new();
    for (name, env, reference) in pairs() {
        let xml = ksef::from_envelope(&env, &reference_options()).unwrap();
        let (ours, theirs) = (unsigned(leaves(&xml)), unsigned(leaves(&reference)));
        let d = differences(&ours, &theirs);
        if !d.is_empty() {
            failures.push(format!("{name}:\n  {}", d.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn example_dirs() -> Vec<PathBuf> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    let mut dirs = vec![shared];
    if let Ok(extra) = std::env::var("GOBL_EXTRA_EXAMPLES") {
        dirs.push(PathBuf::from(extra));
    }
    dirs
}

/// Polish examples as inputs (`examples/pl/*.json`), built by folio's builder.
fn favat_examples() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for dir in example_dirs() {
        let Ok(files) = std::fs::read_dir(dir.join("pl")) else {
            continue;
        };
        for f in files {
            let path = f.unwrap().path();
            if path.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let env = gobl::builder::build(doc.get("doc").cloned().unwrap_or(doc))
                .unwrap_or_else(|f| panic!("{}: {f:?}", path.display()));
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            out.push((name, env));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Replace the KSeF number of each preceding document by a well-formed one.
fn with_wellformed_ksef_numbers(mut env: Value) -> Value {
    let preceding = env["doc"]
        .get_mut("preceding")
        .and_then(Value::as_array_mut);
    for p in preceding.into_iter().flatten() {
        let stamps = p.get_mut("stamps").and_then(Value::as_array_mut);
        for s in stamps.into_iter().flatten() {
            s["val"] = "9876543210-20260120-107FDF72DB53-F7".into();
        }
    }
    env
}

#[test]
fn polish_examples_pass_the_schema_and_keep_their_totals() {
    let examples = favat_examples();
    assert!(examples.len() >= 6, "only {} examples", examples.len());
    let scratch = Scratch::new("examples");
    let mut files = Vec::new();
    let mut failures = Vec::new();
    for (name, env) in &examples {
        let xml = match ksef::from_envelope(env, &Options::default()) {
            Ok(x) => x,
            // The examples' test KSeF numbers (`…-XYZ98765-AB`) are not KSeF numbers:
            // refused, and written once they are.
            Err(Error::Invalid(m)) if m.contains("is not a KSeF number") => ksef::from_envelope(
                &with_wellformed_ksef_numbers(env.clone()),
                &Options::default(),
            )
            .unwrap_or_else(|e| panic!("{name}: {e}")),
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let inv = gobl::model::Invoice::from_value(env).unwrap();
        let due = inv.totals.due.unwrap_or(inv.totals.payable);
        let due = due.rescale(2).unwrap();
        let want = if inv.kind == "credit-note" && !due.is_zero() {
            format!("-{due}")
        } else {
            due.to_string()
        };
        let p15: Vec<String> = leaves(&xml)
            .into_iter()
            .filter(|(p, _)| p == "Fa/P_15")
            .map(|(_, v)| v)
            .collect();
        if p15 != [want.clone()] {
            failures.push(format!("{name}: P_15 {p15:?} is not {want}"));
        }
        files.push(scratch.write(name, &xml));
    }
    failures.extend(xsd_failures(&files));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Read an FA(3) file back, build it with folio, write it again: the business values
/// survive (the address lines are free text both ways and are left out).
fn round_trip(name: &str, xml: &str, failures: &mut Vec<String>) {
    let doc = match ksef::read(xml) {
        Ok(d) => d,
        Err(e) => {
            failures.push(format!("{name}: read: {e}"));
            return;
        }
    };
    let env = match gobl::builder::build(doc.clone()) {
        Ok(e) => e,
        Err(f) => {
            failures.push(format!("{name}: build: {f:?}\n{doc:#}"));
            return;
        }
    };
    let again = match ksef::from_envelope(&env, &reference_options()) {
        Ok(x) => x,
        Err(e) => {
            failures.push(format!("{name}: write again: {e}"));
            return;
        }
    };
    let d = differences(&business(&again), &business(xml));
    if !d.is_empty() {
        failures.push(format!(
            "{name} (read and written again):\n  {}",
            d.join("\n  ")
        ));
    }
}

#[test]
fn fa3_files_read_back_to_invoices_with_the_same_values() {
    let mut failures = Vec::new();
    for (name, _, reference) in pairs() {
        round_trip(&format!("golden {name}"), &reference, &mut failures);
    }
    for (name, env) in favat_examples() {
        let env = with_wellformed_ksef_numbers(env);
        let xml = ksef::from_envelope(&env, &reference_options()).unwrap();
        round_trip(&name, &xml, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
