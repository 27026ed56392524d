//! Signing: identities read from PKCS#12 files ([`Identity`]).

mod identity;

pub use identity::{Identity, IdentityError, KeyAlgorithm};
