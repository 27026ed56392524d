//! National e-invoice formats written from a built GOBL invoice, one module per format,
//! each a set of pure functions over `gobl::model` (no I/O): FatturaPA 1.2.2 (Italy),
//! KSeF FA(3) (Poland).

pub mod fatturapa;
pub mod ksef;
mod xml;
