//! What the integration tests share: the national kit (`../shared/national`: golden pairs,
//! the `validate.py` XSD runner), the GOBL examples (`../shared/gobl/examples`, and the
//! folder `GOBL_EXTRA_EXAMPLES` names), scratch folders, and reading XML back as leaves.

// Each test binary uses only part of this module.
#![allow(dead_code)]

pub mod identities;

use std::path::{Path, PathBuf};
use std::process::Command;

use quick_xml::Reader;
use quick_xml::events::Event;
use serde_json::Value;

/// The national kit: `../shared/national`.
pub fn kit() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/national")
}

/// Every golden pair of a fixtures folder of the kit (`fixtures/<dir>`): (name, envelope,
/// reference XML), by name; at least `min` of them.
pub fn pairs(dir: &str, min: usize) -> Vec<(String, Value, String)> {
    let fixtures = kit().join("fixtures").join(dir);
    let mut out = Vec::new();
    for e in std::fs::read_dir(&fixtures).expect("the national kit") {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let env = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let xml = std::fs::read_to_string(fixtures.join(format!("out/{name}.xml"))).unwrap();
        out.push((name, env, xml));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= min, "only {} pairs", out.len());
    out
}

/// The GOBL example folders: the shared ones, and `GOBL_EXTRA_EXAMPLES` if set.
pub fn example_dirs() -> Vec<PathBuf> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    let mut dirs = vec![shared];
    if let Ok(extra) = std::env::var("GOBL_EXTRA_EXAMPLES") {
        dirs.push(PathBuf::from(extra));
    }
    dirs
}

/// Built examples of every example folder's `sub` (e.g. `es/out`) with this add-on:
/// (file, envelope), by file.
pub fn built_examples(sub: &str, addon: &str) -> Vec<(PathBuf, Value)> {
    let mut out = built_examples_as_found(sub, addon);
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// [`built_examples`] in the order the folders list them.
pub fn built_examples_as_found(sub: &str, addon: &str) -> Vec<(PathBuf, Value)> {
    let mut out = Vec::new();
    for path in example_files(sub) {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let addons = &v["doc"]["$addons"];
        if addons
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x == addon))
        {
            out.push((path, v));
        }
    }
    out
}

/// Example inputs (`<sub>/*.json` of every example folder) built by folio's builder:
/// (name, envelope), by name.
pub fn examples_built_by_folio(sub: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for path in example_files(sub) {
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let env = gobl::builder::build(doc.get("doc").cloned().unwrap_or(doc))
            .unwrap_or_else(|f| panic!("{}: {f:?}", path.display()));
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        out.push((name, env));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The files of every example folder's `sub`, folder by folder as listed (none from a
/// folder without `sub`).
pub fn example_files(sub: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in example_dirs() {
        let Ok(files) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        out.extend(files.map(|f| f.unwrap().path()));
    }
    out
}

/// A scratch folder of one test, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// `folio-<kind>-<pid>-<test>` in the temporary folder.
    pub fn new(kind: &str, test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("folio-{kind}-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Write `<name>.xml` in the folder.
    pub fn write(&self, name: &str, xml: &str) -> PathBuf {
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

/// Validate files of a format (`fatturapa`, `facturae`, `verifactu`, `ksef`) with the
/// kit's `validate.py`: one report per file.
pub fn validate(format: &str, files: &[PathBuf]) -> Vec<Value> {
    let out = Command::new("python3")
        .arg(kit().join("validate.py"))
        .args(["--format", format, "--json"])
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

/// The reports that fail, as `file: errors`.
pub fn failing(reports: &[Value]) -> Vec<String> {
    reports
        .iter()
        .filter(|r| r["ok"] != true)
        .map(|r| format!("{}: {}", r["file"], r["xsd_errors"]))
        .collect()
}

/// The kit's verdict on each file, one report per file asserted: the XSD errors of those
/// that fail, as `file: errors`.
pub fn xsd_failures(format: &str, files: &[PathBuf]) -> Vec<String> {
    let reports = validate(format, files);
    assert_eq!(reports.len(), files.len());
    failing(&reports)
}

/// Leaf elements as (path below the root, text), outside any element named in `skip`.
pub fn leaves(xml: &str, skip: &[&str]) -> Vec<(String, String)> {
    leaves_below(xml, skip, |_| Some(0))
}

/// Leaf elements as (path below the element of their path `at` picks, by index, text),
/// outside any element named in `skip`; those whose path `at` picks nothing in are left
/// out.
pub fn leaves_below(
    xml: &str,
    skip: &[&str],
    at: impl Fn(&[String]) -> Option<usize>,
) -> Vec<(String, String)> {
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
                let Some(at) = at(&path) else {
                    continue;
                };
                if !text.is_empty() && !path.iter().any(|p| skip.contains(&p.as_str())) {
                    let text = quick_xml::escape::unescape(&text).unwrap().to_string();
                    out.push((path[at + 1..].join("/"), text));
                }
            }
            Event::Eof => return out,
            _ => {}
        }
    }
}

/// Differences between two lists of values: those only one side has (as multisets), or
/// the same values in another order.
pub fn differences(ours: &[(String, String)], theirs: &[(String, String)]) -> Vec<String> {
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

/// Texts of every element whose opening tag is `<{name}>` (a prefix included), in order.
pub fn texts(xml: &str, name: &str) -> Vec<String> {
    let open = format!("<{name}>");
    xml.match_indices(&open)
        .map(|(i, _)| {
            let rest = &xml[i + open.len()..];
            rest[..rest.find('<').unwrap()].to_string()
        })
        .collect()
}
