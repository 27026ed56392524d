//! National e-invoice formats written from a built GOBL invoice, one module per format,
//! each a set of pure functions over `gobl::model` (no I/O). FatturaPA is read back as well
//! (`fatturapa::read`, and `fatturapa::p7m` for signed `.xml.p7m` files).

pub mod fatturapa;
mod xml;
