//! National e-invoice formats written from a built GOBL invoice, one module per format,
//! each a set of pure functions over `gobl::model` (no I/O): `fatturapa` (Italy, FatturaPA
//! 1.2.2, read back as well: `fatturapa::read`, and `fatturapa::p7m` for signed `.xml.p7m`
//! files), `verifactu` (Spain, AEAT's VERI*FACTU records with their fingerprint chain),
//! `ksef` (Poland, KSeF FA(3), written and read), `facturae` (Spain, Facturae 3.2.2, unsigned).

mod decimal;
pub mod facturae;
pub mod fatturapa;
pub mod ksef;
pub mod sign;
#[cfg(test)]
mod test_support;
pub mod verifactu;
mod xml;
