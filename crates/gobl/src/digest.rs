//! Document digests: SHA-256 of the canonical JSON of a document.

use serde::{Deserialize, Serialize};

use crate::canonical::{CanonicalError, canonical_pieces};
use crate::json::{Map, Value};

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
            val: sha256_hex(bytes),
        }
    }

    /// The digest as a JSON object value `{"alg":..,"val":..}`.
    pub fn to_value(&self) -> Value {
        Value::Object(Map::from(vec![
            ("alg".into(), Value::from(self.alg.as_str())),
            ("val".into(), Value::from(self.val.as_str())),
        ]))
    }
}

/// SHA-256 of the canonical JSON of `doc`, hashed as it is written: the whole text is never
/// held.
pub fn digest(doc: &Value) -> Result<Digest, CanonicalError> {
    let mut hasher = Sha256::new();
    canonical_pieces(doc, &mut |piece| hasher.update(piece.as_bytes()))?;
    Ok(Digest {
        alg: SHA256.to_owned(),
        val: hasher.finish_hex(),
    })
}

/// An incremental SHA-256. `ring`'s, not `sha2`'s: on a CPU without SHA instructions `sha2`
/// falls back to portable code, which `ring`'s assembly (vector units) runs at about twice the
/// speed, and a stored envelope is hashed two or three times (see docs/benchmarks.md).
pub struct Sha256(ring::digest::Context);

impl Default for Sha256 {
    fn default() -> Self {
        Self::new()
    }
}

impl Sha256 {
    /// An empty hash.
    pub fn new() -> Self {
        Sha256(ring::digest::Context::new(&ring::digest::SHA256))
    }

    /// Adds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The hash.
    pub fn finish(self) -> [u8; 32] {
        let mut out = [0; 32];
        out.copy_from_slice(self.0.finish().as_ref());
        out
    }

    /// The hash in lowercase hex.
    pub fn finish_hex(self) -> String {
        hex::encode(self.finish())
    }
}

/// The SHA-256 of `bytes` (see [`Sha256`]).
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(bytes);
    h.finish()
}

/// The SHA-256 of `bytes` in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(sha256(bytes))
}
