//! E-invoices from and to GOBL.
//!
//! GOBL invoices become EN 16931 invoices in UBL 2.1 or UN/CEFACT CII D16B, under the profiles
//! of [`Format`] (EN 16931, Peppol BIS Billing 3.0, XRechnung 3, Factur-X / ZUGFeRD), and UBL or
//! CII documents are read back into GOBL. The EN 16931 semantic model and its business rules come
//! from the `en16931` crate; this crate holds the mapping between GOBL and that model, one file
//! per business group, with the reading side in a `_parse` twin beside each writer, and its own
//! XML writers and readers of the model (`write_ubl`, `write_cii`, `read_ubl`, `read_cii`).
//! Each of those answers only where it gives exactly what the `en16931-formats` crate would,
//! with nothing to report, and that crate writes or reads everything else.
//!
//! Pure functions: no I/O, no async.

mod base64_text;
mod context;
mod error;
mod foreign;
mod generate;
mod gobl_doc;
mod hybrid;
mod import;
mod invoice;
mod invoice_parse;
mod lines;
mod lines_parse;
mod party;
mod party_parse;
mod payment;
mod payment_parse;
mod read_cii;
mod read_ubl;
mod taxes;
#[cfg(test)]
mod test_kit;
pub mod totals_parse;
mod write_cii;
mod write_ubl;
mod xml_escape;
mod xml_names;
mod xml_reference;

pub use context::{Context, Format, Syntax};
pub use error::{Error, Finding, Severity};
pub use generate::{Generated, generate};
pub use hybrid::{Extracted, Hybrid, embed, extract, is_pdf};
pub use import::{Imported, detect, import};

/// The largest XML document [`import`] reads (a PDF carrying one may be larger).
pub const MAX_XML_BYTES: usize = 16 * 1024 * 1024;
