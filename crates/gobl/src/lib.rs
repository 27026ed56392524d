//! GOBL documents in Rust: canonical JSON and digests, envelopes, ES256 signatures,
//! amounts, currencies, taxes and invoice calculation. A pure library: no I/O, no async.
pub mod addons;
pub mod bill;
pub mod builder;
pub mod canonical;
pub mod currency;
pub mod digest;
pub mod envelope;
pub mod fault;
pub use fault::{Fault, Faults, FieldError};
pub mod json;
pub mod model;
pub mod num;
pub mod regimes;
mod routing;
pub mod sign;
pub mod tax;
pub mod validate;
