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
        hex_of(&self.finish())
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
    hex_of(&sha256(bytes))
}

/// A hash in lowercase hex, written into a buffer of its size (`hex::encode` collects the
/// digits one `char` at a time, which cost a build about 1% of its time).
fn hex_of(hash: &[u8; 32]) -> String {
    let mut out = [0u8; 64];
    // The buffer is twice the hash's length (all `encode_to_slice` checks) and the digits
    // are ASCII (all `from_utf8` checks): neither default is ever taken.
    hex::encode_to_slice(hash, &mut out).unwrap_or_default();
    std::str::from_utf8(&out).unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn hex_of_known_hashes() {
        // FIPS 180-2's "abc" and the empty text
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let mut h = super::Sha256::new();
        h.update(b"");
        assert_eq!(
            h.finish_hex(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
