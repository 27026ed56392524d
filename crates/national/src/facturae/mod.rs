//! Facturae 3.2.2 (Spain's invoice format for the public sector, FACe) written from a
//! built GOBL invoice with the `es-facturae-v3` add-on, unsigned ([`from_envelope`]) or
//! signed XAdES-EPES under Facturae's signature policy ([`from_envelope_signed`]).
//!
//! One invoice per file (`Modality` `I`): the file header with the batch totals, the
//! parties (`parties`: seller and buyer, legal entity or individual from the kind of tax
//! code, the buyer's administrative centres), then the invoice: header and issue data
//! (`header`: document type and class from the add-on's extensions, the corrective block
//! with its reason code), taxes and totals (`taxes`), lines (`items`), payment and notes
//! (`payment`). Prices that include VAT are restated without it first, and a credit note
//! is written with negative amounts (`invert`), as the reference converter does.

mod codes;
mod format;
mod header;
mod invert;
mod items;
mod parties;
mod payment;
mod signed;
mod taxes;

pub use signed::from_envelope_signed;

use gobl::model::{Invoice, Party, ReadError, without_included_taxes};
use serde_json::Value;

use crate::xml::Xml;

const NS_FACTURAE: &str = "http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml";
const ADDON: &str = "es-facturae-v3";

/// Options of the writer.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A third party issuing the file for the seller (`InvoiceIssuerType` `TE`): its tax
    /// identity, name and address are written in the file header. The seller issues the
    /// file itself (`EM`) when absent.
    pub third_party: Option<Party>,
}

/// Why an invoice cannot be written as Facturae.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The input is not a built invoice.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Restating prices without the included tax failed.
    #[error("removing included taxes: {0}")]
    Calculation(String),
    /// Something Facturae requires is missing (the path names it).
    #[error("{0} is required by Facturae")]
    Missing(&'static str),
    /// The invoice uses something this writer does not support.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The written file could not be signed.
    #[error("signing: {0}")]
    Sign(#[from] crate::sign::SignError),
}

/// Write the Facturae XML of a built envelope (or bare built invoice).
pub fn from_envelope(envelope: &Value, opts: &Options) -> Result<String, Error> {
    let net = without_included_taxes(envelope).map_err(|e| Error::Calculation(e.to_string()))?;
    let inv = Invoice::from_value(&net)?;
    write(&inv, opts)
}

/// Write the Facturae XML of a built invoice whose prices do not include taxes.
pub fn write(inv: &Invoice, opts: &Options) -> Result<String, Error> {
    if !inv.addons.iter().any(|a| a == ADDON) {
        return Err(Error::Unsupported(format!(
            "an invoice without the {ADDON} add-on"
        )));
    }
    if !inv.lines.iter().any(|l| l.total.is_some()) {
        // `Items` needs an `InvoiceLine`: charges alone have nowhere to go.
        return Err(Error::Missing("lines"));
    }
    let inverted;
    let inv = if inv.kind == "credit-note" {
        inverted = invert::inverted(inv);
        &inverted
    } else {
        inv
    };
    let mut x = Xml::new();
    x.open_with("fe:Facturae", &[("xmlns:fe", NS_FACTURAE)]);
    header::file_header(&mut x, inv, opts.third_party.as_ref())?;
    parties::write(&mut x, inv)?;
    x.open("Invoices");
    x.open("Invoice");
    header::invoice_header(&mut x, inv)?;
    header::issue_data(&mut x, inv)?;
    taxes::invoice_taxes(&mut x, &inv.totals);
    taxes::invoice_totals(&mut x, inv);
    items::write(&mut x, inv);
    payment::write(&mut x, inv);
    payment::notes(&mut x, inv);
    x.close("Invoice");
    x.close("Invoices");
    x.close("fe:Facturae");
    Ok(x.finish())
}

#[cfg(test)]
mod tests;
