//! Conformance: every example of the reference builds to its `out/` file exactly (digest
//! included, `head.uuid` aside) — one case per file, failing with the first differing path.
//!
//! Examples folio does not match yet are listed in [`KNOWN_DIFFERENCES`] with the reason; they
//! run as ignored cases, and `known-differences-are-current` fails as soon as one of them
//! matches, so the list cannot hide progress or a regression. `GOBL_EXTRA_EXAMPLES=<dir>` (a
//! folder of the same layout, e.g. the reference's full `examples/`) adds a report of that
//! folder that asserts nothing: it measures, by hand, the examples that are not in `shared/`.

use std::path::{Path, PathBuf};

use gobl::builder::{BuildOptions, build_with, parse_input};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;

mod common;
use common::diff;

const FIXED_UUID: &str = "8a51fd30-2a27-11ee-be56-0242ac120002";

/// Examples (`<cc>/<file>`) that do not build to the reference's output yet, and why.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples")
}

/// One example: its input and the reference's output.
#[derive(Clone)]
struct Example {
    name: String,
    input: PathBuf,
    output: PathBuf,
}

/// Every `<cc>/<name>.{yaml,json}` under `dir` that has an `<cc>/out/<name>.json`.
fn examples(dir: &Path) -> Vec<Example> {
    let mut found = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return found;
    };
    let mut ccs: Vec<_> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    ccs.sort();
    for cc in ccs {
        let mut files: Vec<_> = std::fs::read_dir(&cc)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|f| f.is_file())
            .collect();
        files.sort();
        for f in files {
            let ext = f.extension().and_then(|s| s.to_str()).unwrap_or("");
            let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let out = cc.join("out").join(format!("{stem}.json"));
            if (ext == "yaml" || ext == "json") && out.is_file() {
                let name = f.strip_prefix(dir).unwrap_or(&f).display().to_string();
                found.push(Example {
                    name,
                    input: f,
                    output: out,
                });
            }
        }
    }
    found
}

/// The differences between folio's build of an example and the reference's output.
fn differences(ex: &Example) -> Vec<String> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let (text, want) = match (read(&ex.input), read(&ex.output)) {
        (Ok(t), Ok(w)) => (t, w),
        (Err(e), _) | (_, Err(e)) => return vec![e],
    };
    let want: Value = match serde_json::from_str(&want) {
        Ok(v) => v,
        Err(e) => return vec![format!("reference output: {e}")],
    };
    let input = match parse_input(&text) {
        Ok(v) => v,
        Err(e) => return vec![format!("input: {e}")],
    };
    let opts = BuildOptions {
        uuid: Some(FIXED_UUID.parse().expect("a uuid")),
        skip_validation: true,
    };
    let got = match build_with(input, &opts) {
        Ok(v) => v,
        Err(inv) if !inv.envelope.is_null() => inv.envelope,
        Err(inv) => return vec![format!("build failed: {}", inv.faults)],
    };
    let mut problems = Vec::new();
    diff("", &want, &got, &mut problems);
    problems
}

fn check(ex: &Example) -> Result<(), Failed> {
    let problems = differences(ex);
    match problems.first() {
        None => Ok(()),
        Some(first) => Err(format!(
            "{} differences, first: {first}\n{}",
            problems.len(),
            problems
                .iter()
                .skip(1)
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        )
        .into()),
    }
}

fn known(name: &str) -> Option<&'static str> {
    KNOWN_DIFFERENCES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, why)| *why)
}

/// Known differences that no longer differ, or name no example.
fn stale_known(all: &[Example]) -> Result<(), Failed> {
    let mut stale = Vec::new();
    for (name, _) in KNOWN_DIFFERENCES {
        match all.iter().find(|e| e.name == *name) {
            None => stale.push(format!("{name}: no such example")),
            Some(ex) if differences(ex).is_empty() => {
                stale.push(format!("{name}: matches now, remove it from the list"))
            }
            Some(_) => {}
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(stale.join("\n").into())
    }
}

/// The validity check: folio's validation must not fault the reference's own examples.
fn validates(ex: &Example) -> Result<(), Failed> {
    let text = std::fs::read_to_string(&ex.input)?;
    let input = parse_input(&text)?;
    match build_with(input, &BuildOptions::default()) {
        Ok(_) => Ok(()),
        Err(inv) => Err(format!("faults: {}", inv.faults).into()),
    }
}

/// Counts for `dir` and every non-matching example's first difference (by hand, asserts
/// nothing).
fn report(label: &str, dir: &Path) -> Result<(), Failed> {
    let all = examples(dir);
    let mut ok = 0;
    for ex in &all {
        let problems = differences(ex);
        if problems.is_empty() {
            ok += 1;
        } else {
            println!(
                "{label}: FAIL {} ({} differences) {}",
                ex.name,
                problems.len(),
                problems[0]
            );
        }
    }
    println!("{label}: {ok} of {} examples match", all.len());
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let dir = examples_dir();
    let all = examples(&dir);
    let mut trials = Vec::new();
    for ex in &all {
        let why = known(&ex.name);
        let name = match why {
            Some(w) => format!("matches::{} (known: {w})", ex.name),
            None => format!("matches::{}", ex.name),
        };
        let e = ex.clone();
        trials.push(Trial::test(name, move || check(&e)).with_ignored_flag(why.is_some()));
        let e = ex.clone();
        if why.is_none() {
            trials.push(Trial::test(format!("validates::{}", ex.name), move || {
                validates(&e)
            }));
        }
    }
    let every = all.clone();
    trials.push(Trial::test("known-differences-are-current", move || {
        if every.is_empty() {
            return Err("no examples found in ../shared/gobl/examples".into());
        }
        stale_known(&every)
    }));
    trials.push(Trial::test("report", move || report("shared", &dir)));
    if let Some(extra) = std::env::var_os("GOBL_EXTRA_EXAMPLES") {
        trials.push(Trial::test("report-extra", move || {
            report("extra", Path::new(&extra))
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
