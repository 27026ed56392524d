//! `folio convert` for the EN 16931 family: GOBL → UBL or CII, and UBL or CII → GOBL.

use std::process::ExitCode;

use folio_einvoice::{Error, Format};

use super::input::gobl_input;
use super::outcome::{INVALID, USAGE, fail, pretty, report};

/// UBL or CII → the built GOBL envelope, with the reader's notes on stderr.
pub(super) fn to_gobl(bytes: &[u8]) -> Result<String, ExitCode> {
    let imported = folio_einvoice::import(bytes).map_err(|e| fail(USAGE, &e.to_string()))?;
    report(&imported.notes);
    Ok(pretty(&imported.envelope))
}

/// GOBL → XML in `format`, refused (exit 1) when it fails the format's rules.
pub(super) fn to_einvoice(bytes: &[u8], format: Format) -> Result<String, ExitCode> {
    let input = gobl_input(bytes)?;
    let generated = match folio_einvoice::generate(&input, format) {
        Ok(g) => g,
        Err(e @ Error::NotInvoice(_)) => return Err(fail(USAGE, &e.to_string())),
        Err(Error::Gobl(findings) | Error::Unwritable { findings, .. }) => {
            report(&findings);
            return Err(fail(INVALID, "the document does not pass validation"));
        }
        Err(e) => return Err(fail(USAGE, &e.to_string())),
    };
    report(&generated.findings);
    if !generated.is_valid() {
        return Err(fail(
            INVALID,
            &format!(
                "the {} document fails the rules above",
                format.context().name
            ),
        ));
    }
    Ok(generated.xml)
}
