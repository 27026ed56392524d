//! The shared e-invoice kit (`../shared/einvoice/fixtures`) for the crate's tests: its files,
//! and the GOBL each of them gives `generate`.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The kit's files ending in `.ext` (as written: two of the kit's XML files end in `.XML`), in
/// every folder, sorted.
pub(crate) fn files(ext: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("a fixture folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, ext, out);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/einvoice/fixtures");
    let mut out = Vec::new();
    walk(&kit, ext, &mut out);
    out.sort();
    out
}

/// Every GOBL input the snapshot gives `generate`: the JSON fixtures, and the XML fixtures
/// imported, in the order of their paths.
pub(crate) fn inputs() -> Vec<(String, Value)> {
    let mut paths = files("json");
    paths.extend(files("xml"));
    paths.extend(files("XML"));
    paths.sort();
    let mut inputs = Vec::new();
    for path in paths {
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).expect("a fixture");
        if path.extension().is_some_and(|x| x == "json") {
            inputs.push((name, serde_json::from_slice(&bytes).expect("JSON")));
        } else if let Ok(i) = crate::import(&bytes) {
            inputs.push((
                name,
                i.envelope.to_serde().expect("numbers serde_json holds"),
            ));
        }
    }
    inputs
}
