//! National e-invoice formats written from a built GOBL invoice, one module per format,
//! each a set of pure functions over `gobl::model` (no I/O).
//!
//! - `facturae`: Facturae 3.2.2 (Spain, public sector), unsigned.

pub mod facturae;
pub mod fatturapa;
mod xml;
