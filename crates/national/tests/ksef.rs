//! KSeF FA(3) written from the golden GOBL envelopes of `../shared/national/fixtures` and
//! from every Polish GOBL example built with `pl-favat-v3`: every file passes the official
//! XSD (through the kit's `validate.py`) and carries the business values of the
//! reference's XML (number, dates, parties' tax ids, each tax category's base and tax,
//! total, lines, annotations, correction data).

mod common;

use std::path::PathBuf;

use common::{Scratch, differences};
use folio_national::ksef::{self, Error, Options};
use serde_json::Value;

/// Every golden pair: (name, envelope, reference XML).
fn pairs() -> Vec<(String, Value, String)> {
    common::pairs("ksef/gobl.ksef", 2)
}

/// The kit's verdict on each file: the XSD errors of those that fail.
fn xsd_failures(files: &[PathBuf]) -> Vec<String> {
    if files.is_empty() {
        return Vec::new();
    }
    common::xsd_failures("ksef", files)
}

/// Leaf elements as (path below `Faktura`, text).
fn leaves(xml: &str) -> Vec<(String, String)> {
    common::leaves(xml, &[])
}

/// Polish examples as inputs (`examples/pl/*.json`), built by folio's builder.
fn favat_examples() -> Vec<(String, Value)> {
    common::examples_built_by_folio("pl")
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
    let scratch = Scratch::new("ksef", "golden");
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
    let scratch = Scratch::new("ksef", "examples");
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
