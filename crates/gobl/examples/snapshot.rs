//! Writes what the builder makes of every GOBL document of the shared kit (the reference's
//! examples and their expected outputs, the regime and add-on data's documents) into a folder,
//! one file per document, so that a change meant to change no output (a speed change) can be
//! checked byte for byte against the code before it:
//!
//! ```sh
//! cargo run --release -p gobl --example snapshot -- /tmp/before
//! # change the code
//! cargo run --release -p gobl --example snapshot -- /tmp/after && diff -r /tmp/before /tmp/after
//! ```
//!
//! Each document is built as it is and with validation skipped, with a fixed head uuid; the
//! envelope (or the faults and the envelope of an invalid document) is written as JSON.

use std::path::{Path, PathBuf};

use gobl::builder::{BuildOptions, build_with, parse_input};

fn main() {
    let Some(out) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: snapshot OUT_DIR");
        std::process::exit(2);
    };
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl");
    std::fs::create_dir_all(&out).expect("the output folder");
    let mut files = Vec::new();
    walk(&kit, &mut files);
    files.sort();
    let mut written = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(input) = parse_input(&text) else {
            continue;
        };
        let name = path
            .strip_prefix(&kit)
            .expect("under the kit")
            .display()
            .to_string()
            .replace('/', "__");
        for skip_validation in [false, true] {
            let opts = BuildOptions {
                uuid: Some(uuid::Uuid::nil()),
                skip_validation,
            };
            let text = match build_with(input.clone(), &opts) {
                Ok(env) => serde_json::to_string_pretty(&env).expect("JSON"),
                Err(inv) => format!(
                    "{:#?}\n---\n{}",
                    inv.faults,
                    serde_json::to_string_pretty(&inv.envelope).expect("JSON")
                ),
            };
            let suffix = if skip_validation {
                "unvalidated"
            } else {
                "built"
            };
            std::fs::write(out.join(format!("{name}.{suffix}.out")), text).expect("write");
            written += 1;
        }
    }
    println!("{written} builds written to {}", out.display());
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, files);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("json" | "yaml" | "yml")
        ) {
            files.push(p);
        }
    }
}
