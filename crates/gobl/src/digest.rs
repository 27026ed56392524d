//! Document digests: SHA-256 of the canonical JSON of a document.

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::canonical::{CanonicalError, canonical_bytes, canonical_serde_pieces};
use crate::json::Value;

/// The only digest algorithm GOBL uses.
pub const SHA256: &str = "sha256";

/// A digest as it appears in an envelope head: `{"alg":"sha256","val":"<lowercase hex>"}`.
#[derive(Serialize, Deserialize, Clone, PartialEq, Eq, Debug)]
pub struct Digest {
    /// Algorithm name, `sha256`.
    pub alg: String,
    /// Lowercase hex of the hash.
    pub val: String,
}

impl Digest {
    /// A SHA-256 digest of arbitrary bytes.
    pub fn sha256(bytes: &[u8]) -> Digest {
        Digest {
            alg: SHA256.to_owned(),
            val: hex::encode(Sha256::digest(bytes)),
        }
    }

    /// The digest as a JSON object value `{"alg":..,"val":..}`.
    pub fn to_value(&self) -> Value {
        Value::Object(vec![
            ("alg".into(), Value::from(self.alg.as_str())),
            ("val".into(), Value::from(self.val.as_str())),
        ])
    }
}

/// SHA-256 of the canonical JSON of `doc`.
pub fn digest(doc: &Value) -> Result<Digest, CanonicalError> {
    Ok(Digest::sha256(&canonical_bytes(doc)?))
}

/// [`digest`] of a `serde_json` value, the same as of its [`Value`] conversion.
pub fn digest_serde(doc: &serde_json::Value) -> Result<Digest, CanonicalError> {
    // Hashed as it is written: the whole text is never held.
    let mut hasher = Sha256::new();
    canonical_serde_pieces(doc, &mut |piece| hasher.update(piece.as_bytes()))?;
    Ok(Digest {
        alg: SHA256.to_owned(),
        val: hex::encode(hasher.finalize()),
    })
}
