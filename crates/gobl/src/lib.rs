//! GOBL documents in Rust: canonical JSON and digests, envelopes, ES256 signatures,
//! amounts, currencies, taxes and invoice calculation. A pure library: no I/O, no async.
pub mod num;
pub mod currency;
pub mod regimes;
pub mod tax;
pub mod json;
pub mod canonical;
pub mod digest;
pub mod bill;
pub mod builder;
pub mod validate;
pub mod envelope;
pub mod sign;
