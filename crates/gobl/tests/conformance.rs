//! Conformance: build every example input and compare with the reference output.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gobl::builder::{BuildOptions, build_with, parse_input};
use serde_json::Value;

const FIXED_UUID: &str = "8a51fd30-2a27-11ee-be56-0242ac120002";
/// The regimes folio implements.
const REGIMES: &[&str] = &[
    "ae", "ar", "at", "be", "br", "ca", "ch", "co", "de", "dk", "el", "es", "fi", "fr", "gb", "gr",
    "ie", "in", "it", "mx", "nl", "no", "pl", "pt", "sa", "se", "sg", "us",
];

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples")
}

/// Differences between two JSON values, as `path: expected → got` lines.
fn diff(path: &str, want: &Value, got: &Value, out: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                match b.get(k) {
                    Some(w) => diff(&format!("{path}.{k}"), v, w, out),
                    None => out.push(format!("{path}.{k}: missing (want {})", short(v))),
                }
            }
            for (k, v) in b {
                if !a.contains_key(k) {
                    out.push(format!("{path}.{k}: unexpected {}", short(v)));
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{i}]"), x, y, out);
            }
        }
        _ if want == got => {}
        _ => out.push(format!("{path}: want {} got {}", short(want), short(got))),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 120 {
        format!("{}…", &s[..120])
    } else {
        s
    }
}

struct Outcome {
    name: String,
    regime_known: bool,
    addons: Vec<String>,
    ok: bool,
    problems: Vec<String>,
}

fn run_example(base: &Path, input: &Path, output: &Path) -> Outcome {
    let name = input
        .strip_prefix(base)
        .unwrap_or(input)
        .display()
        .to_string();
    let cc = input
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|s| s.to_str())
        .unwrap_or("")
        .to_string();
    let text = std::fs::read_to_string(input).unwrap();
    let want: Value = serde_json::from_str(&std::fs::read_to_string(output).unwrap()).unwrap();
    let parsed = parse_input(&text);
    let addons = parsed
        .as_ref()
        .ok()
        .and_then(|v| v.get("doc").unwrap_or(v).get("$addons").cloned())
        .and_then(|a| a.as_array().cloned())
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let mut o = Outcome {
        name,
        regime_known: REGIMES.contains(&cc.as_str()),
        addons,
        ok: false,
        problems: vec![],
    };
    let input = match parsed {
        Ok(v) => v,
        Err(e) => {
            o.problems.push(e);
            return o;
        }
    };
    let opts = BuildOptions {
        uuid: Some(FIXED_UUID.parse().unwrap()),
        skip_validation: true,
    };
    let got = match build_with(input, &opts) {
        Ok(v) => v,
        Err(inv) if !inv.envelope.is_null() => inv.envelope,
        Err(inv) => {
            o.problems.push(format!("build failed: {}", inv.faults));
            return o;
        }
    };
    let mut problems = Vec::new();
    diff("doc", &want, &got, &mut problems);
    o.ok = problems.is_empty();
    o.problems = problems;
    o
}

/// Builds every `<cc>/<name>.{yaml,json}` under `dir` that has an `<cc>/out/<name>.json`.
fn walk(dir: &Path) -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    let mut ccs: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    ccs.sort();
    for cc in ccs {
        let mut files: Vec<_> = std::fs::read_dir(&cc)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for f in files {
            let ext = f.extension().and_then(|s| s.to_str()).unwrap_or("");
            if !(ext == "yaml" || ext == "json") || !f.is_file() {
                continue;
            }
            let stem = f.file_stem().unwrap().to_str().unwrap();
            let out = cc.join("out").join(format!("{stem}.json"));
            if out.is_file() {
                outcomes.push(run_example(dir, &f, &out));
            }
        }
    }
    outcomes
}

/// Prints the failures of non-add-on examples and the add-ons blocking the others.
fn report_failures(outcomes: &[Outcome]) {
    let mut blocking: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for o in outcomes {
        if o.ok {
            continue;
        }
        if o.addons.is_empty() {
            let why = if o.regime_known {
                ""
            } else {
                " (regime not implemented)"
            };
            println!("FAIL {}{why}: {} differences", o.name, o.problems.len());
            for p in o.problems.iter().take(8) {
                println!("    {p}");
            }
        } else {
            blocking
                .entry(o.addons.join(","))
                .or_default()
                .push(o.name.clone());
        }
    }
    for (addons, names) in &blocking {
        println!("blocked by add-on {addons}: {}", names.join(", "));
    }
}

/// An optional second folder of examples (same layout), given by `GOBL_EXTRA_EXAMPLES`; its
/// figures are reported separately and assert nothing.
fn report_extra() {
    let Some(dir) = std::env::var_os("GOBL_EXTRA_EXAMPLES") else {
        return;
    };
    let dir = PathBuf::from(dir);
    if !dir.is_dir() {
        println!("extra: {} not found", dir.display());
        return;
    }
    let outcomes = walk(&dir);
    let ok = outcomes.iter().filter(|o| o.ok).count();
    println!("extra: {ok} of {} match", outcomes.len());
    let plain_known: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| o.addons.is_empty() && o.regime_known)
        .collect();
    println!(
        "extra: without add-ons in folio's eight regimes: {} of {} match",
        plain_known.iter().filter(|o| o.ok).count(),
        plain_known.len()
    );
    report_failures(&outcomes);
}

#[test]
fn examples_match_reference() {
    report_extra();
    let dir = examples_dir();
    if !dir.is_dir() {
        println!("conformance skipped: {} not found", dir.display());
        return;
    }
    let outcomes = walk(&dir);
    let plain: Vec<&Outcome> = outcomes.iter().filter(|o| o.addons.is_empty()).collect();
    let plain_known: Vec<&&Outcome> = plain.iter().filter(|o| o.regime_known).collect();
    let with: Vec<&Outcome> = outcomes.iter().filter(|o| !o.addons.is_empty()).collect();
    let n = |v: &[&Outcome]| v.iter().filter(|o| o.ok).count();
    let total_ok = outcomes.iter().filter(|o| o.ok).count();
    println!("{total_ok} of {} examples match", outcomes.len());
    println!("  without add-ons: {} of {} match", n(&plain), plain.len());
    println!(
        "    in folio's eight regimes: {} of {} match",
        plain_known.iter().filter(|o| o.ok).count(),
        plain_known.len()
    );
    println!("  with add-ons:    {} of {} match", n(&with), with.len());
    report_failures(&outcomes);
    for o in outcomes.iter().filter(|o| !o.ok && !o.addons.is_empty()) {
        println!(
            "  add-on example {}: {} differences, first: {}",
            o.name,
            o.problems.len(),
            o.problems.first().map(String::as_str).unwrap_or("")
        );
    }
    // Floors reflecting what folio achieves, so that regressions fail.
    let known_ok = plain_known.iter().filter(|o| o.ok).count();
    assert!(
        known_ok >= MIN_PLAIN_KNOWN,
        "only {known_ok} non-add-on examples in folio's regimes match"
    );
    assert!(total_ok >= MIN_TOTAL, "only {total_ok} examples match");
}

const MIN_PLAIN_KNOWN: usize = 16;
const MIN_TOTAL: usize = 19;

/// Validate the non-add-on examples of folio's regimes under `dir`: how many were checked,
/// and the faults of those that did not validate.
fn validate_folder(dir: &Path) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut faulty = Vec::new();
    for cc in REGIMES {
        let Ok(rd) = std::fs::read_dir(dir.join(cc)) else {
            continue;
        };
        let mut files: Vec<_> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let Ok(v) = parse_input(&text) else { continue };
            if v.get("doc").unwrap_or(&v).get("$addons").is_some() {
                continue;
            }
            checked += 1;
            if let Err(inv) = build_with(v, &BuildOptions::default()) {
                faulty.push(format!("{}: {}", f.display(), inv.faults));
            }
        }
    }
    (checked, faulty)
}

/// The reference's examples are valid documents: folio's validation must not fault the
/// non-add-on examples of its own regimes.
#[test]
fn reference_examples_validate() {
    let dir = examples_dir();
    if !dir.is_dir() {
        println!("validation check skipped: {} not found", dir.display());
        return;
    }
    let (checked, faulty) = validate_folder(&dir);
    println!("{checked} examples validated, {} with faults", faulty.len());
    if let Some(extra) = std::env::var_os("GOBL_EXTRA_EXAMPLES") {
        let (n, bad) = validate_folder(Path::new(&extra));
        println!("extra: {n} examples validated, {} with faults", bad.len());
        for b in &bad {
            println!("    {b}");
        }
    }
    assert!(
        faulty.is_empty(),
        "unexpected faults:\n{}",
        faulty.join("\n")
    );
}
