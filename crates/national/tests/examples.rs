//! Every Italian GOBL example built with the `it-sdi-v1` add-on (`../shared/gobl/examples`,
//! and the folder `GOBL_EXTRA_EXAMPLES` names, if any) written as FatturaPA: the official
//! XSD accepts it, and it carries the envelope's VAT rates and payable total.

use std::path::{Path, PathBuf};
use std::process::Command;

use folio_national::fatturapa::{self, Options};
use gobl::model::Invoice;
use serde_json::Value;

fn example_dirs() -> Vec<PathBuf> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    let mut dirs = vec![shared];
    if let Ok(extra) = std::env::var("GOBL_EXTRA_EXAMPLES") {
        dirs.push(PathBuf::from(extra));
    }
    dirs
}

/// Built Italian invoices with the SDI add-on: (file, envelope).
fn sdi_examples() -> Vec<(PathBuf, Value)> {
    let mut out = Vec::new();
    for dir in example_dirs() {
        let Ok(files) = std::fs::read_dir(dir.join("it/out")) else {
            continue;
        };
        for f in files {
            let path = f.unwrap().path();
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let addons = &v["doc"]["$addons"];
            if addons
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x == "it-sdi-v1"))
            {
                out.push((path, v));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Texts of every element with this local name, in order.
fn texts(xml: &str, name: &str) -> Vec<String> {
    let open = format!("<{name}>");
    xml.match_indices(&open)
        .map(|(i, _)| {
            let rest = &xml[i + open.len()..];
            rest[..rest.find('<').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn italian_examples_pass_the_schema_and_keep_their_totals() {
    let examples = sdi_examples();
    assert!(examples.len() >= 5, "only {} examples", examples.len());
    let dir = std::env::temp_dir().join(format!("folio-fatturapa-examples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    let mut failures = Vec::new();
    for (path, env) in &examples {
        let name = path.file_stem().unwrap().to_string_lossy();
        let xml = match fatturapa::from_envelope(env, &Options::default()) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let inv = Invoice::from_value(env).unwrap();
        let payable = inv.totals.payable.rescale(2).unwrap().to_string();
        if texts(&xml, "ImportoTotaleDocumento") != [payable.clone()] {
            failures.push(format!("{name}: total is not {payable}"));
        }
        let vat = inv.totals.category("VAT").unwrap();
        let taxes: Vec<String> = vat.rates.iter().map(|r| r.amount.to_string()).collect();
        if texts(&xml, "Imposta") != taxes {
            failures.push(format!(
                "{name}: VAT {:?} is not {taxes:?}",
                texts(&xml, "Imposta")
            ));
        }
        let file = dir.join(format!("{name}.xml"));
        std::fs::write(&file, xml).unwrap();
        files.push(file);
    }
    let out = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/national/validate.py"))
        .args(["--format", "fatturapa", "--json"])
        .args(&files)
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_dir_all(&dir);
    let reports: Value = serde_json::from_slice(&out.stdout).expect("validate.py JSON");
    for r in reports
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["ok"] != true)
    {
        failures.push(format!("{}: {}", r["file"], r["xsd_errors"]));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
