//! KSeF FA(3) (Poland's national e-invoice, `http://crd.gov.pl/wzor/2025/06/25/13775/`)
//! written from a built GOBL invoice.
//!
//! The codes come from the `pl-favat-v3` add-on's extensions (invoice type, tax category
//! of each rate, payment means, annotations, third-party roles, effective date of a
//! correction); an invoice built without the add-on (only the `PL` regime) has them
//! derived the same way from its type, tags and tax combos. One file per business group:
//! header (`header`), the parties Podmiot1/2/3 (`parties`), the VAT summary P_13/P_14
//! (`summary`), annotations (`annotations`), corrections (`corrections`), lines
//! (`lines`), advance orders and settlements (`advances`), payment (`payment`).
//!
//! A credit note is a correcting invoice (KOR): its amounts are written negative, as the
//! difference it makes to the corrected invoice, with unit prices kept positive.
//!
//! [`read`] takes an FA(3) file back to a GOBL invoice document (received invoices).

mod advances;
mod annotations;
mod codes;
mod corrections;
mod ctx;
mod fa;
mod format;
mod header;
mod lines;
mod parties;
mod payment;
mod read;
mod summary;

use chrono::NaiveDateTime;
use gobl::model::{Invoice, ReadError};
use serde_json::Value;

use crate::xml::Xml;

pub use read::read;

const NS_FA3: &str = "http://crd.gov.pl/wzor/2025/06/25/13775/";
const NS_XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";
const NS_XSD: &str = "http://www.w3.org/2001/XMLSchema";

/// Options of the writer.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// When the file is generated (`DataWytworzeniaFa`); the issue date at midnight UTC
    /// when absent, so that the same invoice always writes the same file.
    pub created: Option<NaiveDateTime>,
    /// The invoicing system's name (`SystemInfo`); `folio` when absent.
    pub system_info: Option<String>,
}

/// Why an invoice cannot be written as FA(3).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The input is not a built invoice.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Something FA(3) requires is missing (the path names it).
    #[error("{0} is required by KSeF FA(3)")]
    Missing(&'static str),
    /// A value FA(3) cannot carry as it is.
    #[error("invalid for KSeF FA(3): {0}")]
    Invalid(String),
    /// The invoice uses something this writer does not support.
    #[error("unsupported by KSeF FA(3): {0}")]
    Unsupported(String),
}

/// Write the FA(3) XML of a built envelope (or bare built invoice).
pub fn from_envelope(envelope: &Value, opts: &Options) -> Result<String, Error> {
    let inv = Invoice::from_value(envelope)?;
    write(&inv, opts)
}

/// Write the FA(3) XML of a built invoice.
pub fn write(inv: &Invoice, opts: &Options) -> Result<String, Error> {
    check_document(inv)?;
    let mut x = Xml::new();
    x.open_with(
        "Faktura",
        &[
            ("xmlns:xsi", NS_XSI),
            ("xmlns:xsd", NS_XSD),
            ("xmlns", NS_FA3),
        ],
    );
    header::write(&mut x, inv, opts)?;
    parties::write(&mut x, inv)?;
    fa::write(&mut x, inv)?;
    x.close("Faktura");
    Ok(x.finish())
}

/// FA(3) knows invoices and their corrections only.
fn check_document(inv: &Invoice) -> Result<(), Error> {
    match inv.kind.as_str() {
        "standard" | "credit-note" => Ok(()),
        other => Err(Error::Unsupported(format!("invoice type '{other}'"))),
    }
}

#[cfg(test)]
mod tests;
