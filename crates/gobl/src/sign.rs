//! ES256 keys (JWK) and envelope signatures (JWS compact).
//!
//! A signature is `base64url(header).base64url(payload).base64url(R‖S)` with header
//! `{"alg":"ES256","kid":"<key id>"}` and payload `{"uuid":..,"dig":{..},"iat":<unix seconds>}`.
//! The payload covers the envelope id and the document digest, so stamps, links, tags, meta and
//! notes may change after signing while the document may not.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use p256::ecdsa::signature::{Signer as _, Verifier as _};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::digest::Digest;
use crate::envelope::{Envelope, codes};
use crate::fault::Fault;
use crate::json;
use crate::json::{Map, Value};

/// The only JWS algorithm accepted.
pub const ES256: &str = "ES256";

/// A key that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid key: {0}")]
pub struct KeyError(pub String);

/// JWK members for an EC P-256 key.
#[derive(Serialize, Deserialize, Clone, PartialEq, Eq, Debug)]
pub struct Jwk {
    /// Key type, `EC`.
    pub kty: String,
    /// Curve, `P-256`.
    pub crv: String,
    /// X coordinate, base64url.
    pub x: String,
    /// Y coordinate, base64url.
    pub y: String,
    /// Private scalar, base64url (private keys only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d: Option<String>,
    /// Key id.
    pub kid: String,
    /// Algorithm, `ES256` when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alg: Option<String>,
    /// Intended use (`sig`), when given.
    #[serde(default, rename = "use", skip_serializing_if = "Option::is_none")]
    pub use_: Option<String>,
}

fn coord(name: &str, text: &str) -> Result<[u8; 32], KeyError> {
    let bytes = B64
        .decode(text)
        .map_err(|_| KeyError(format!("{name} is not base64url")))?;
    bytes
        .try_into()
        .map_err(|_| KeyError(format!("{name} must be 32 bytes")))
}

impl Jwk {
    fn verifying_key(&self) -> Result<VerifyingKey, KeyError> {
        if self.kty != "EC" || self.crv != "P-256" {
            return Err(KeyError(format!(
                "expected kty EC and crv P-256, found {} {}",
                self.kty, self.crv
            )));
        }
        if let Some(alg) = &self.alg
            && alg != ES256
        {
            return Err(KeyError(format!("unsupported alg {alg}")));
        }
        if self.kid.is_empty() {
            return Err(KeyError("kid is required".into()));
        }
        let (x, y) = (coord("x", &self.x)?, coord("y", &self.y)?);
        let point = p256::EncodedPoint::from_affine_coordinates(&x.into(), &y.into(), false);
        VerifyingKey::from_encoded_point(&point)
            .map_err(|_| KeyError("point is not on P-256".into()))
    }

    fn public_from(kid: &str, key: &VerifyingKey, d: Option<String>) -> Jwk {
        let point = key.to_encoded_point(false);
        let (x, y) = (
            point.x().map(|c| B64.encode(c)),
            point.y().map(|c| B64.encode(c)),
        );
        Jwk {
            kty: "EC".into(),
            crv: "P-256".into(),
            x: x.unwrap_or_default(),
            y: y.unwrap_or_default(),
            d,
            kid: kid.to_owned(),
            alg: Some(ES256.into()),
            use_: None,
        }
    }
}

/// An ES256 public key with its id.
#[derive(Clone, PartialEq, Eq)]
pub struct PublicKey {
    kid: String,
    key: VerifyingKey,
}

/// An ES256 private key with its id.
#[derive(Clone)]
pub struct PrivateKey {
    kid: String,
    key: SigningKey,
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicKey")
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrivateKey")
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

impl PublicKey {
    /// The key id.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// Reads a public JWK (a `d` member, if present, is ignored).
    pub fn from_jwk(jwk: &Jwk) -> Result<PublicKey, KeyError> {
        Ok(PublicKey {
            kid: jwk.kid.clone(),
            key: jwk.verifying_key()?,
        })
    }

    /// Parses a public JWK from JSON text.
    pub fn from_jwk_json(text: &str) -> Result<PublicKey, KeyError> {
        let jwk: Jwk = serde_json::from_str(text).map_err(|e| KeyError(e.to_string()))?;
        PublicKey::from_jwk(&jwk)
    }

    /// The public JWK (`kty`, `crv`, `x`, `y`, `kid`, `alg`).
    pub fn to_jwk(&self) -> Jwk {
        Jwk::public_from(&self.kid, &self.key, None)
    }

    /// Checks an ES256 signature over `message`.
    fn verify(&self, message: &[u8], signature: &Signature) -> bool {
        self.key.verify(message, signature).is_ok()
    }
}

impl PrivateKey {
    /// A fresh random key whose kid is a new UUID v4.
    pub fn generate() -> PrivateKey {
        PrivateKey {
            kid: Uuid::new_v4().to_string(),
            key: SigningKey::random(&mut rand::rngs::OsRng),
        }
    }

    /// The key id.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The matching public key, same kid.
    pub fn public(&self) -> PublicKey {
        PublicKey {
            kid: self.kid.clone(),
            key: *self.key.verifying_key(),
        }
    }

    /// Reads a private JWK; `x`/`y` must match `d`.
    pub fn from_jwk(jwk: &Jwk) -> Result<PrivateKey, KeyError> {
        let public = jwk.verifying_key()?;
        let d = coord(
            "d",
            jwk.d
                .as_deref()
                .ok_or_else(|| KeyError("d is required".into()))?,
        )?;
        let key = SigningKey::from_bytes(&d.into())
            .map_err(|_| KeyError("d is not a valid scalar".into()))?;
        if *key.verifying_key() != public {
            return Err(KeyError("x/y do not match d".into()));
        }
        Ok(PrivateKey {
            kid: jwk.kid.clone(),
            key,
        })
    }

    /// Parses a private JWK from JSON text.
    pub fn from_jwk_json(text: &str) -> Result<PrivateKey, KeyError> {
        let jwk: Jwk = serde_json::from_str(text).map_err(|e| KeyError(e.to_string()))?;
        PrivateKey::from_jwk(&jwk)
    }

    /// The private JWK, including `d`.
    pub fn to_jwk(&self) -> Jwk {
        Jwk::public_from(
            &self.kid,
            self.key.verifying_key(),
            Some(B64.encode(self.key.to_bytes())),
        )
    }

    /// A JWS compact string over `payload` with header `{"alg":"ES256","kid":..}`.
    pub fn sign_jws(&self, payload: &SignaturePayload) -> String {
        let header = Value::Object(Map::from(vec![
            ("alg".into(), Value::String(ES256.into())),
            ("kid".into(), Value::from(self.kid.as_str())),
        ]));
        let input = format!(
            "{}.{}",
            B64.encode(header.to_json_string()),
            B64.encode(payload.to_value().to_json_string())
        );
        let signature: Signature = self.key.sign(input.as_bytes());
        format!("{input}.{}", B64.encode(signature.to_bytes()))
    }
}

impl Serialize for PublicKey {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_jwk().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PublicKey {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        PublicKey::from_jwk(&Jwk::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

/// The claims a signature covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignaturePayload {
    /// Envelope uuid.
    pub uuid: Uuid,
    /// Document digest.
    pub dig: Digest,
    /// Issued at, unix seconds.
    pub iat: i64,
}

impl SignaturePayload {
    fn to_value(&self) -> Value {
        Value::Object(Map::from(vec![
            (
                "uuid".into(),
                Value::from(self.uuid.hyphenated().to_string()),
            ),
            ("dig".into(), self.dig.to_value()),
            ("iat".into(), Value::from_i64(self.iat)),
        ]))
    }
}

/// A JWS split into its verified-later parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedJws {
    /// `kid` from the protected header.
    pub kid: Option<String>,
    /// The decoded payload.
    pub payload: SignaturePayload,
    signing_input: String,
    signature: Signature,
}

/// Parses an ES256 JWS compact string and its GOBL payload, without verifying it.
pub fn parse_jws(jws: &str) -> Result<ParsedJws, String> {
    let mut parts = jws.split('.');
    let (Some(h), Some(p), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("expected three dot-separated parts".into());
    };
    let decode_json = |name: &str, part: &str| -> Result<Value, String> {
        let bytes = B64
            .decode(part)
            .map_err(|_| format!("{name} is not base64url"))?;
        json::parse_bytes(&bytes).map_err(|e| format!("{name}: {e}"))
    };
    let header = decode_json("header", h)?;
    match header.get("alg").and_then(Value::as_str) {
        Some(ES256) => {}
        Some(other) => return Err(format!("unsupported alg {other:?}, only ES256")),
        None => return Err("header has no alg".into()),
    }
    if header.get("crit").is_some() {
        return Err("critical header parameters are not supported".into());
    }
    let kid = match header.get("kid") {
        None => None,
        Some(Value::String(k)) => Some(k.to_string()),
        Some(_) => return Err("kid must be a string".into()),
    };
    let payload = decode_json("payload", p)?;
    let uuid = payload
        .get("uuid")
        .and_then(Value::as_str)
        .and_then(|s| Uuid::parse_str(s).ok())
        .ok_or("payload uuid missing or not a UUID")?;
    let dig = payload.get("dig").ok_or("payload has no dig")?;
    let dig = Digest {
        alg: dig
            .get("alg")
            .and_then(Value::as_str)
            .ok_or("payload dig.alg missing")?
            .to_owned(),
        val: dig
            .get("val")
            .and_then(Value::as_str)
            .ok_or("payload dig.val missing")?
            .to_owned(),
    };
    let iat = match payload.get("iat") {
        None => 0,
        Some(v) => v.as_i64().ok_or("payload iat must be an integer")?,
    };
    let raw = B64
        .decode(s)
        .map_err(|_| "signature is not base64url".to_owned())?;
    if raw.len() != 64 {
        return Err(format!("signature must be 64 bytes, found {}", raw.len()));
    }
    let signature =
        Signature::from_slice(&raw).map_err(|_| "signature is not a valid R‖S".to_owned())?;
    Ok(ParsedJws {
        kid,
        payload: SignaturePayload { uuid, dig, iat },
        signing_input: format!("{h}.{p}"),
        signature,
    })
}

impl ParsedJws {
    /// The key that verifies this signature: keys whose kid matches are tried first, then,
    /// when no given key has that kid, every key.
    pub fn verify_with<'k>(&self, keys: &'k [PublicKey]) -> Option<&'k PublicKey> {
        let matching: Vec<&PublicKey> = keys
            .iter()
            .filter(|k| Some(k.kid()) == self.kid.as_deref())
            .collect();
        let candidates = if matching.is_empty() {
            keys.iter().collect()
        } else {
            matching
        };
        candidates
            .into_iter()
            .find(|k| k.verify(self.signing_input.as_bytes(), &self.signature))
    }
}

impl Envelope {
    /// Signs the envelope's uuid and digest with `key` at `iat` (unix seconds) and appends the
    /// JWS to `sigs`. Fails if the digest does not match the document.
    pub fn sign(&mut self, key: &PrivateKey, iat: i64) -> Result<(), Fault> {
        self.verify_digest()?;
        let payload = SignaturePayload {
            uuid: self.head.uuid,
            dig: self.head.dig.clone(),
            iat,
        };
        self.sigs.push(key.sign_jws(&payload));
        Ok(())
    }

    /// Checks the digest, then that every signature is an ES256 JWS verified by one of `keys`
    /// whose payload names this head's uuid and digest. No signatures is not an error.
    pub fn verify_signatures(&self, keys: &[PublicKey]) -> Result<(), Fault> {
        self.verify_digest()?;
        for (i, jws) in self.sigs.iter().enumerate() {
            let path = vec![format!("sigs[{i}]")];
            let parsed = parse_jws(jws)
                .map_err(|m| Fault::new(codes::SIGNATURE_MALFORMED, m, path.clone()))?;
            if parsed.verify_with(keys).is_none() {
                let kid = parsed.kid.as_deref().unwrap_or("(none)");
                return Err(Fault::new(
                    codes::SIGNATURE_INVALID,
                    format!("signature (kid {kid}) does not verify with any given key"),
                    path,
                ));
            }
            if parsed.payload.uuid != self.head.uuid || parsed.payload.dig != self.head.dig {
                return Err(Fault::new(
                    codes::SIGNATURE_MISMATCH,
                    "signature payload does not match head.uuid and head.dig",
                    path,
                ));
            }
        }
        Ok(())
    }
}
