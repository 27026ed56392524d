//! What `folio convert` reads: a file or stdin, and a GOBL document in it.

use std::io::Read;
use std::process::ExitCode;

use serde_json::Value;

use super::outcome::{INVALID, USAGE, fail};

/// The bytes of a path, or of stdin for `-`.
pub(super) fn read(input: &str) -> std::io::Result<Vec<u8>> {
    if input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(input)
    }
}

/// A GOBL envelope or document, JSON or YAML.
pub(super) fn gobl_input(bytes: &[u8]) -> Result<Value, ExitCode> {
    let text =
        std::str::from_utf8(bytes).map_err(|_| fail(USAGE, "the input is not UTF-8 text"))?;
    let input = gobl::builder::parse_input(text)
        .map_err(|e| fail(USAGE, &format!("not a GOBL document (JSON or YAML): {e}")))?;
    if !input.is_object() {
        // YAML reads most text as a scalar: that is no document either
        return Err(fail(USAGE, "not a GOBL document (JSON or YAML object)"));
    }
    Ok(input)
}

/// The built envelope of a GOBL input: a built one as it is, anything else built first
/// (exit 1 with its faults when it does not pass validation).
pub(super) fn built(input: Value) -> Result<Value, ExitCode> {
    if gobl::builder::is_envelope(&input) && input.get("head").is_some() {
        return Ok(input);
    }
    gobl::builder::build(input).map_err(|faults| {
        eprintln!("{faults}");
        fail(INVALID, "the document does not pass validation")
    })
}
