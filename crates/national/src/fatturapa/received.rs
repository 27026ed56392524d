//! A received file as it arrives: plain FatturaPA XML, or signed inside a `.p7m`. One
//! entry point for callers that do not know which (the CLI's `--to gobl`, `sdi-it.import`).

use super::import_error::ImportError;
use super::p7m::{self, P7mError, Signer};
use super::read::{Imported, read};

/// The invoices of a received file and, for a `.p7m`, its signers.
#[derive(Debug, Clone)]
pub struct Received {
    /// One invoice per `FatturaElettronicaBody`.
    pub invoices: Vec<Imported>,
    /// The signers of a `.p7m` (each with its signature's state); `None` for plain XML.
    pub signers: Option<Vec<Signer>>,
}

/// Why a received file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReceiveError {
    /// The `.p7m` wrapper cannot be opened.
    #[error(transparent)]
    P7m(#[from] P7mError),
    /// The XML is not a readable FatturaPA invoice.
    #[error(transparent)]
    Import(#[from] ImportError),
}

/// Whether the bytes start as XML (after a byte-order mark and white space).
fn looks_like_xml(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'<')
}

/// Read a received FatturaPA file, plain or `.p7m` (DER, BER or base64).
pub fn receive(bytes: &[u8]) -> Result<Received, ReceiveError> {
    if looks_like_xml(bytes) {
        return Ok(Received {
            invoices: read(bytes)?,
            signers: None,
        });
    }
    let unwrapped = p7m::unwrap(bytes)?;
    Ok(Received {
        invoices: read(&unwrapped.content)?,
        signers: Some(unwrapped.signers),
    })
}

/// Whether a file is FatturaPA, plain or inside a `.p7m` (its document element only is
/// looked at).
pub fn detect(bytes: &[u8]) -> bool {
    if looks_like_xml(bytes) {
        return super::tree::is_fatturapa(bytes);
    }
    p7m::unwrap(bytes).is_ok_and(|u| super::tree::is_fatturapa(&u.content))
}
