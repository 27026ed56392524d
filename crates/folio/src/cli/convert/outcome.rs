//! What `folio convert` prints: a result as pretty JSON; when it writes nothing, the exit
//! code, and the findings and message on stderr.

use std::process::ExitCode;

use folio_einvoice::{Finding, Severity};

/// Unreadable input and bad usage: exit 2.
pub(super) const USAGE: u8 = 2;
/// A result that does not pass validation: exit 1.
pub(super) const INVALID: u8 = 1;

/// Findings on stderr, one per line, most severe first.
pub(super) fn report(findings: &[Finding]) {
    let mut sorted: Vec<&Finding> = findings.iter().collect();
    sorted.sort_by_key(|f| f.severity);
    for f in sorted {
        if f.severity != Severity::Information || std::env::var_os("FOLIO_VERBOSE").is_some() {
            eprintln!("{f}");
        }
    }
}

/// Prints `message` and gives the exit code.
pub(super) fn fail(code: u8, message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(code)
}

/// JSON for people, ending in a newline.
pub(super) fn pretty(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON");
    text.push('\n');
    text
}
