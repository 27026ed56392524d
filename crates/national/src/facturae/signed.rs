//! Facturae signed as the format requires: XAdES-EPES enveloped, under Facturae's
//! signature policy 3.1, with the signer's role: `supplier` when the seller issues the
//! file, `third party` when a third party does.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::{Error, Options, from_envelope};
use crate::sign::{FACTURAE_3_1, Identity, XadesOptions, sign_enveloped};

/// Writes the Facturae XML of a built envelope, as [`from_envelope`] does, and signs it
/// with `identity` at `signing_time`.
pub fn from_envelope_signed(
    envelope: &Value,
    opts: &Options,
    identity: &Identity,
    signing_time: DateTime<Utc>,
) -> Result<String, Error> {
    let xml = from_envelope(envelope, opts)?;
    let role = if opts.third_party.is_some() {
        "third party"
    } else {
        "supplier"
    };
    let xades = XadesOptions {
        policy: &FACTURAE_3_1,
        signing_time,
        role: Some(role),
    };
    Ok(sign_enveloped(&xml, identity, &xades)?)
}
