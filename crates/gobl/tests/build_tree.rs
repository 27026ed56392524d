//! The two ways into the builder give the same envelope: JSON text read into a
//! `serde_json::Value` and built with `build_with` (the CLI, the converters), and the same text
//! read into `gobl::json`'s tree, its numbers normalised, and built with `build_tree` (the silo,
//! which has read the request into that tree already). Every JSON document of the shared GOBL
//! kit is built both ways, valid or not, and the envelopes and faults compared.

use std::path::{Path, PathBuf};

use gobl::builder::{BuildOptions, build_tree, build_with};

const OPTS: BuildOptions = BuildOptions {
    uuid: Some(uuid::Uuid::nil()),
    skip_validation: false,
};

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("the shared GOBL kit")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// The envelope (or `null`) and the faults, as text.
fn by_serde(text: &str) -> (String, String) {
    let input: serde_json::Value = serde_json::from_str(text).expect("JSON");
    match build_with(input, &OPTS) {
        Ok(env) => (env.to_string(), String::new()),
        Err(inv) => (inv.envelope.to_string(), format!("{:?}", inv.faults)),
    }
}

fn by_tree(text: &str) -> (String, String) {
    let mut input = gobl::json::parse(text).expect("JSON");
    input.normalize_numbers().expect("numbers serde_json reads");
    let text = |v: &gobl::json::Value| serde_json::to_string(v).expect("serialises");
    match build_tree(input, &OPTS) {
        Ok(env) => (text(&env), String::new()),
        Err(inv) => (text(&inv.envelope), format!("{:?}", inv.faults)),
    }
}

#[test]
fn both_ways_into_the_builder_give_the_same_envelope() {
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl");
    let mut files = Vec::new();
    json_files(&kit, &mut files);
    files.sort();
    let mut compared = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        // only documents both readers accept (the tree refuses repeated keys)
        if serde_json::from_str::<serde_json::Value>(&text).is_err()
            || gobl::json::parse(&text).is_err()
        {
            continue;
        }
        let (a, b) = (by_serde(&text), by_tree(&text));
        assert_eq!(a, b, "{}", path.display());
        compared += 1;
    }
    assert!(compared > 100, "only {compared} documents compared");
}
