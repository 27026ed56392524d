//! FatturaPA 1.2.2 (Italy's SDI format) written from a built GOBL invoice: FPR12 for
//! businesses and consumers, FPA12 for the public administration.
//!
//! The document's codes come from the `it-sdi-v1` add-on's extensions (document type,
//! fiscal regime, exemption nature, payment means, retained-tax reason, fund type); the
//! writer maps the typed model in schema order, one business group per file: parties and
//! transmission (`header`), general data (`general`), lines (`lines`), the VAT summary
//! (`summary`), payment (`payment`), retained taxes, fund contributions and stamp duty
//! (`retained`). Prices that include VAT are restated without it first.
//!
//! The received side reads a file back ([`read`]): one `_parse` file beside each writer
//! file, a defensive element tree (`tree`), the comparison of the document's own totals
//! with GOBL's calculation (`summary_parse`), and [`p7m`] for files that arrive signed
//! inside CMS SignedData (`.xml.p7m`).

mod adjustment_parse;
mod ber;
mod codes;
mod findings;
mod format;
mod general;
mod general_parse;
mod header;
mod header_parse;
mod import_error;
mod json_put;
mod limits;
mod lines;
mod lines_parse;
pub mod p7m;
mod payment;
mod payment_parse;
mod read;
mod received;
mod retained;
mod retained_parse;
mod summary;
mod summary_parse;
mod tree;
mod values;
mod vat_parse;

pub use findings::{Finding, Severity};
pub use import_error::ImportError;
pub use limits::{MAX_BYTES, MAX_DEPTH, MAX_ELEMENTS};
pub use read::{Imported, read};
pub use received::{ReceiveError, Received, detect, receive};

use gobl::model::{Invoice, ReadError, head_uuid, without_included_taxes};
use serde_json::Value;

use crate::xml::Xml;

const NS_FATTURAPA: &str = "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2";
const NS_DSIG: &str = "http://www.w3.org/2000/09/xmldsig#";
const NS_XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";
const SCHEMA_LOCATION: &str = "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2 https://www.fatturapa.gov.it/export/documenti/fatturapa/v1.2.2/Schema_del_file_xml_FatturaPA_v1.2.2.xsd";

/// The party that transmits the file to SDI (`IdTrasmittente`): an intermediary, or the
/// supplier itself (the default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transmitter {
    /// ISO country code.
    pub country: String,
    /// Tax code (partita IVA or codice fiscale).
    pub code: String,
}

/// Options of the writer.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The transmitter; the supplier's tax identity when absent.
    pub transmitter: Option<Transmitter>,
}

/// Why an invoice cannot be written as FatturaPA.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The input is not a built invoice.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Restating prices without the included tax failed.
    #[error("removing included taxes: {0}")]
    Calculation(String),
    /// Something FatturaPA requires is missing (the path names it).
    #[error("{0} is required by FatturaPA")]
    Missing(&'static str),
    /// The invoice uses something this writer does not support.
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// Write the FatturaPA XML of a built envelope (or bare built invoice).
pub fn from_envelope(envelope: &Value, opts: &Options) -> Result<String, Error> {
    let net = without_included_taxes(envelope).map_err(|e| Error::Calculation(e.to_string()))?;
    let inv = Invoice::from_value(&net)?;
    let progressive = progressive_number(head_uuid(envelope), &inv);
    write(&inv, &progressive, opts)
}

/// The name SDI expects for the file of a built envelope: the transmitter's country and
/// code, `_`, and the first five characters of the file's progressive number.
pub fn file_name(envelope: &Value, opts: &Options) -> Result<String, Error> {
    let inv = Invoice::from_value(envelope)?;
    let (country, code) = match &opts.transmitter {
        Some(t) => (t.country.clone(), t.code.clone()),
        None => header::supplier_id(&inv.supplier)?,
    };
    let progressive = progressive_number(head_uuid(envelope), &inv);
    let short: String = progressive.chars().take(5).collect();
    Ok(format!("{country}{code}_{short}.xml"))
}

/// Write the FatturaPA XML of a built invoice whose prices do not include taxes.
/// `progressive` is the file's `ProgressivoInvio` (1–10 letters or digits).
pub fn write(inv: &Invoice, progressive: &str, opts: &Options) -> Result<String, Error> {
    let format = header::transmission_format(inv);
    let mut x = Xml::new();
    x.open_with(
        "p:FatturaElettronica",
        &[
            ("xmlns:p", NS_FATTURAPA),
            ("xmlns:ds", NS_DSIG),
            ("xmlns:xsi", NS_XSI),
            ("versione", format),
            ("xsi:schemaLocation", SCHEMA_LOCATION),
        ],
    );
    header::write(&mut x, inv, progressive, format, opts)?;
    x.open("FatturaElettronicaBody");
    general::write(&mut x, inv)?;
    x.open("DatiBeniServizi");
    lines::write(&mut x, inv)?;
    summary::write(&mut x, inv);
    x.close("DatiBeniServizi");
    payment::write(&mut x, inv)?;
    x.close("FatturaElettronicaBody");
    x.close("p:FatturaElettronica");
    Ok(x.finish())
}

/// The first eight characters of the envelope's uuid (unique per file, as SDI asks), else
/// of the document's, else its code.
fn progressive_number(head: Option<&str>, inv: &Invoice) -> String {
    let id = head.or(inv.uuid.as_deref()).unwrap_or(&inv.code);
    id.chars()
        .filter(char::is_ascii_alphanumeric)
        .take(8)
        .collect()
}

#[cfg(test)]
mod tests;
