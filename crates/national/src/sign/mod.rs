//! Signing: identities read from PKCS#12 files ([`Identity`]) and XAdES-EPES enveloped
//! signatures of XML documents ([`sign_enveloped`]) under a signature [`Policy`]
//! (Facturae 3.1, TicketBAI of Araba, Bizkaia and Gipuzkoa).

mod c14n;
mod error;
mod identity;
mod parts;
mod policy;
mod root;
mod xades;

pub use error::SignError;
pub use identity::{Identity, IdentityError, KeyAlgorithm};
pub use policy::{
    DigestAlgorithm, FACTURAE_3_1, Policy, TICKETBAI_ARABA, TICKETBAI_BIZKAIA, TICKETBAI_GIPUZKOA,
};
pub use xades::{XadesOptions, sign_enveloped, signature_value};
