//! National e-invoice formats written from a built GOBL invoice, one module per format,
//! each a set of pure functions over `gobl::model` (no I/O).

pub mod fatturapa;
mod xml;
