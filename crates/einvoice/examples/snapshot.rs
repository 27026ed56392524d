//! Writes what the converters make of every fixture of the shared kit into a folder, one file
//! per conversion, so that a change meant to change no output (a speed change) can be checked
//! byte for byte against the code before it:
//!
//! ```sh
//! cargo run -p folio-einvoice --example snapshot -- /tmp/before
//! # change the code
//! cargo run -p folio-einvoice --example snapshot -- /tmp/after && diff -r /tmp/before /tmp/after
//! ```
//!
//! Every GOBL JSON fixture is written in every format (XML and findings); every XML fixture is
//! imported (envelope and notes, the random uuids and digest replaced by fixed ones) and the
//! imported envelope written back in every format.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use folio_einvoice::{Format, generate, import};
use serde_json::Value;

fn main() {
    let Some(out) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: snapshot OUT_DIR");
        std::process::exit(2);
    };
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/einvoice/fixtures");
    std::fs::create_dir_all(&out).expect("the output folder");
    let mut files = Vec::new();
    walk(&kit, &mut files);
    files.sort();
    let mut written = 0;
    for path in &files {
        let name = path
            .strip_prefix(&kit)
            .expect("under the kit")
            .display()
            .to_string()
            .replace('/', "__");
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        let bytes = std::fs::read(path).expect("a fixture");
        let input = match ext.as_str() {
            "json" => serde_json::from_slice(&bytes).expect("fixture JSON"),
            "xml" => match imported(&bytes, &out, &name) {
                Some(envelope) => envelope,
                None => continue,
            },
            _ => continue,
        };
        for format in Format::ALL {
            let text = match generate(&input, format) {
                Ok(g) => format!("{}\n---\n{}", g.xml, findings(&g.findings)),
                Err(e) => format!("error: {e:?}\n"),
            };
            let file = out.join(format!("{name}.{}.out", format.context().name));
            std::fs::write(file, text).expect("write");
            written += 1;
        }
    }
    println!(
        "{} fixtures, {written} conversions written to {}",
        files.len(),
        out.display()
    );
}

/// Imports an XML fixture, writes its envelope and notes, and returns the envelope.
fn imported(xml: &[u8], out: &Path, name: &str) -> Option<Value> {
    let file = out.join(format!("{name}.import.out"));
    match import(xml) {
        Ok(i) => {
            let mut envelope = i.envelope.to_serde().expect("numbers serde_json holds");
            fix_random(&mut envelope);
            let doc = serde_json::to_string_pretty(&envelope).expect("JSON");
            let text = format!("{doc}\n---\n{}", findings(&i.notes));
            std::fs::write(file, text).expect("write");
            Some(envelope)
        }
        Err(e) => {
            std::fs::write(file, format!("error: {e:?}\n")).expect("write");
            None
        }
    }
}

/// The build's random uuids (document and head) and the digest that depends on them, fixed.
fn fix_random(envelope: &mut Value) {
    const FIXED: &str = "00000000-0000-7000-8000-000000000000";
    if let Some(doc) = envelope.get_mut("doc").and_then(Value::as_object_mut)
        && doc.contains_key("uuid")
    {
        doc.insert("uuid".into(), FIXED.into());
    }
    if let Some(head) = envelope.get_mut("head").and_then(Value::as_object_mut) {
        head.insert("uuid".into(), FIXED.into());
        if head.contains_key("dig") {
            head.insert("dig".into(), "fixed".into());
        }
    }
}

fn findings(list: &[folio_einvoice::Finding]) -> String {
    let mut out = String::new();
    for f in list {
        let _ = writeln!(out, "{f:?}");
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a fixture folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}
