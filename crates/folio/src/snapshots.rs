//! Compares the OpenAPI documents the code generates with the snapshots committed under `api/`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use folio_compat::{self as compat, Change};

/// What the code generates against what is committed.
pub struct Report {
    /// Every generated snapshot: its file and its text.
    pub generated: Vec<(PathBuf, String)>,
    /// Files that differ from (or are missing for, or are left over from) the code.
    pub stale: Vec<String>,
    /// Breaking changes of the code against the committed snapshots.
    pub breaking: Vec<Change>,
}

/// The `.json` files under `dir`, down to `depth` folders (`api/<service>/` and
/// `api/apps/<app>/`).
fn json_files(dir: &Path, depth: usize) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() && depth > 0 {
            files.extend(json_files(&path, depth - 1));
        } else if path.extension().is_some_and(|e| e == "json") {
            files.push(path);
        }
    }
    files
}

/// `api/<service>/v<N>.json` for a service version (`api/apps/<app>/v<N>.json` for an app).
pub fn file_of(dir: &Path, service: &str, version: u32) -> PathBuf {
    dir.join(service).join(format!("v{version}.json"))
}

/// Generates every document and compares it with `dir`.
pub fn compare(dir: &Path) -> anyhow::Result<Report> {
    let mut report = Report {
        generated: Vec::new(),
        stale: Vec::new(),
        breaking: Vec::new(),
    };
    for version in crate::services::all() {
        let path = file_of(dir, version.service, version.version);
        let text = folio_api::openapi::snapshot(&version.openapi());
        match std::fs::read_to_string(&path) {
            Ok(committed) if committed == text => {}
            Ok(committed) => {
                report.stale.push(path.display().to_string());
                let old: serde_json::Value = serde_json::from_str(&committed)
                    .with_context(|| format!("parsing {}", path.display()))?;
                let new: serde_json::Value = serde_json::from_str(&text)?;
                let changes = compat::compare(&old, &new);
                report.breaking.extend(
                    changes
                        .into_iter()
                        .filter(|c| c.severity == compat::Severity::Breaking),
                );
            }
            Err(_) => report.stale.push(format!("{} (missing)", path.display())),
        }
        report.generated.push((path, text));
    }
    // A snapshot with no version behind it means a version was dropped: a breaking change.
    for path in json_files(dir, 2) {
        if !report.generated.iter().any(|(p, _)| p == &path) {
            report
                .stale
                .push(format!("{} (no such service version)", path.display()));
        }
    }
    Ok(report)
}
