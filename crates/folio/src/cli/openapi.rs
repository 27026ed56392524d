//! `folio openapi --check | --write`: the committed contract snapshots under `api/`.

use std::process::ExitCode;

use anyhow::Context;
use folio_compat as compat;

use super::OpenapiArgs;

pub(super) fn run(args: &OpenapiArgs) -> anyhow::Result<ExitCode> {
    let report = crate::snapshots::compare(&args.dir)?;
    for change in &report.breaking {
        eprintln!("{change}");
    }
    if args.write {
        for (path, text) in &report.generated {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
        }
        eprintln!(
            "wrote {} snapshots under {}",
            report.generated.len(),
            args.dir.display()
        );
        if !report.breaking.is_empty() {
            eprintln!(
                "warning: the new contract breaks the old one; publish a new version instead"
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    for stale in &report.stale {
        eprintln!("stale: {stale} (run `folio openapi --write` and commit)");
    }
    if report.breaking.is_empty() && report.stale.is_empty() {
        eprintln!("{} snapshots are current", report.generated.len());
        Ok(ExitCode::SUCCESS)
    } else {
        if compat::is_breaking(&report.breaking) {
            eprintln!("breaking change: publish a new version of the service instead");
        }
        Ok(ExitCode::FAILURE)
    }
}
