//! `folio convert --to pdf | facturx-pdf`: the invoice as a PDF/A-3b file, or as a Factur-X
//! EN 16931 hybrid (the PDF with its CII embedded).

use std::process::ExitCode;

use folio_einvoice::{Error, Format};

use super::input::{built, gobl_input};
use super::outcome::{INVALID, USAGE, fail, report};

/// GOBL → PDF, and with `hybrid` the Factur-X CII embedded in it.
pub(super) fn to_pdf(
    bytes: &[u8],
    options: &folio_pdf::Options,
    hybrid: bool,
) -> Result<Vec<u8>, ExitCode> {
    let input = gobl_input(bytes)?;
    let envelope = built(input.clone())?;
    let pdf = folio_pdf::render(&envelope, options).map_err(|e| fail(USAGE, &e.to_string()))?;
    if !hybrid {
        return Ok(pdf);
    }
    match folio_einvoice::embed(&pdf, &input, Format::CiiFacturx, None) {
        Ok(h) => Ok(h.pdf),
        Err(Error::Rules(findings) | Error::Gobl(findings)) => {
            report(&findings);
            Err(fail(
                INVALID,
                "the invoice does not pass the Factur-X (EN 16931) rules",
            ))
        }
        Err(e) => Err(fail(USAGE, &e.to_string())),
    }
}
