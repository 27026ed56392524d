//! The PDF app: `POST /apps/pdf/v1/preview` renders a GOBL envelope or document as a PDF with
//! the options of the `pdf` step, and stores nothing.
//!
//! A bare document is built first (calculated and validated, as silo's `gobl/build`); an
//! envelope is rendered as given. `logo_url` is fetched through transform's outbound guard
//! ([`logo`]), so a preview cannot be used to reach a private or loopback address.

pub mod logo;
mod preview;
pub mod v1;

pub use preview::render;
