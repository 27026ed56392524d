//! A signing identity: the certificate and private key of a PKCS#12 (`.p12`, `.pfx`) file,
//! opened with `p12-keystore` (PBES2 AES + PBKDF2 as OpenSSL 3 writes by default, and the
//! legacy 3DES / RC2-40 schemes of older exports and many FNMT certificates). The
//! certificate must be valid at the time given and its public key must be the private
//! key's; RSA and ECDSA P-256 keys are supported.

use chrono::{DateTime, Utc};
use der::{Decode, Encode};
use p12_keystore::KeyStore;
use p12_keystore::error::Error as P12Error;
use rsa::pkcs8::DecodePrivateKey;
use rsa::traits::PublicKeyParts;
use sha2::{Digest, Sha256};
use x509_cert::Certificate;

const RSA: der::oid::ObjectIdentifier =
    der::oid::ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const EC_PUBLIC_KEY: der::oid::ObjectIdentifier =
    der::oid::ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const P256: der::oid::ObjectIdentifier =
    der::oid::ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");

/// Why a PKCS#12 file gives no signing identity.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    /// The password does not open the file (its integrity check or decryption failed).
    #[error("wrong password for the PKCS#12 file (its integrity check failed)")]
    WrongPassword,
    /// The certificate's validity ended before the time of the check.
    #[error("the certificate expired on {}", .not_after.format("%Y-%m-%d %H:%M:%S UTC"))]
    Expired {
        /// The end of the certificate's validity.
        not_after: DateTime<Utc>,
    },
    /// The certificate's validity starts after the time of the check.
    #[error("the certificate is not valid before {}", .not_before.format("%Y-%m-%d %H:%M:%S UTC"))]
    NotYetValid {
        /// The start of the certificate's validity.
        not_before: DateTime<Utc>,
    },
    /// The file holds no private key together with the certificate it belongs to.
    #[error("the PKCS#12 file holds no private key with its certificate")]
    NoPrivateKey,
    /// The certificate's public key is not the private key's.
    #[error("the certificate's public key is not the file's private key")]
    KeyMismatch,
    /// A key algorithm other than RSA and ECDSA P-256.
    #[error("the key is {0}: RSA and ECDSA P-256 keys are supported")]
    UnsupportedAlgorithm(String),
    /// An encryption or integrity scheme the reader does not know.
    #[error("the PKCS#12 file is protected with a scheme that is not supported: {0}")]
    UnsupportedProtection(String),
    /// Not a PKCS#12 file, or a damaged one.
    #[error("not a readable PKCS#12 file: {0}")]
    Malformed(String),
}

/// The algorithm of an identity's key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyAlgorithm {
    /// RSA, signing PKCS#1 v1.5; the modulus size in bits.
    Rsa {
        /// Modulus size in bits.
        bits: usize,
    },
    /// ECDSA on NIST P-256.
    EcdsaP256,
}

#[derive(Clone)]
enum PrivateKey {
    Rsa(Box<rsa::RsaPrivateKey>),
    EcdsaP256(p256::ecdsa::SigningKey),
}

/// A certificate and its private key, read from a PKCS#12 file and checked valid at the
/// time given. The key is never printed (`Debug` shows the certificate only).
#[derive(Clone)]
pub struct Identity {
    certificate_der: Vec<u8>,
    certificate: Certificate,
    not_before: DateTime<Utc>,
    not_after: DateTime<Utc>,
    key: PrivateKey,
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Identity")
            .field("subject", &self.subject())
            .field("issuer", &self.issuer())
            .field("serial", &self.serial_hex())
            .field("not_after", &self.not_after)
            .field("algorithm", &self.algorithm())
            .finish_non_exhaustive()
    }
}

impl Identity {
    /// Opens a PKCS#12 file with its password and checks that its certificate is valid at
    /// `now`, that its key is RSA or ECDSA P-256, and that the key is the certificate's.
    /// The first private key with a certificate is taken.
    pub fn from_pkcs12(
        bytes: &[u8],
        password: &str,
        now: DateTime<Utc>,
    ) -> Result<Identity, IdentityError> {
        let store = KeyStore::from_pkcs12(bytes, password).map_err(from_p12)?;
        let (_, chain) = store
            .private_key_chain()
            .ok_or(IdentityError::NoPrivateKey)?;
        let leaf = chain.chain().first().ok_or(IdentityError::NoPrivateKey)?;
        let certificate_der = leaf.as_der().to_vec();
        let certificate = Certificate::from_der(&certificate_der)
            .map_err(|e| IdentityError::Malformed(format!("certificate: {e}")))?;
        let validity = &certificate.tbs_certificate.validity;
        let not_before = to_chrono(validity.not_before.to_unix_duration())?;
        let not_after = to_chrono(validity.not_after.to_unix_duration())?;
        if now < not_before {
            return Err(IdentityError::NotYetValid { not_before });
        }
        if now > not_after {
            return Err(IdentityError::Expired { not_after });
        }
        let key = private_key(chain.key())?;
        matches_certificate(&key, &certificate)?;
        Ok(Identity {
            certificate_der,
            certificate,
            not_before,
            not_after,
            key,
        })
    }

    /// The certificate, DER-encoded.
    pub fn certificate_der(&self) -> &[u8] {
        &self.certificate_der
    }

    /// The certificate's subject as RFC 4514 text (`CN=…,O=…,C=ES`).
    pub fn subject(&self) -> String {
        self.certificate.tbs_certificate.subject.to_string()
    }

    /// The certificate's issuer as RFC 4514 text.
    pub fn issuer(&self) -> String {
        self.certificate.tbs_certificate.issuer.to_string()
    }

    /// The certificate's serial number, big-endian bytes as encoded.
    pub fn serial(&self) -> &[u8] {
        self.certificate.tbs_certificate.serial_number.as_bytes()
    }

    /// The serial number in lower-case hexadecimal.
    pub fn serial_hex(&self) -> String {
        self.serial().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The serial number in decimal (as XMLDSig's `X509SerialNumber` writes it).
    pub fn serial_decimal(&self) -> String {
        rsa::BigUint::from_bytes_be(self.serial()).to_string()
    }

    /// The start of the certificate's validity.
    pub fn not_before(&self) -> DateTime<Utc> {
        self.not_before
    }

    /// The end of the certificate's validity.
    pub fn not_after(&self) -> DateTime<Utc> {
        self.not_after
    }

    /// The key's algorithm.
    pub fn algorithm(&self) -> KeyAlgorithm {
        match &self.key {
            PrivateKey::Rsa(k) => KeyAlgorithm::Rsa { bits: k.n().bits() },
            PrivateKey::EcdsaP256(_) => KeyAlgorithm::EcdsaP256,
        }
    }

    /// SHA-256 of the certificate's DER, the certificate's usual fingerprint.
    pub fn certificate_sha256(&self) -> [u8; 32] {
        Sha256::digest(&self.certificate_der).into()
    }

    /// The RSA public key's modulus and exponent (big-endian), for XMLDSig's `RSAKeyValue`;
    /// `None` for an ECDSA key.
    pub fn rsa_public(&self) -> Option<(Vec<u8>, Vec<u8>)> {
        match &self.key {
            PrivateKey::Rsa(k) => Some((k.n().to_bytes_be(), k.e().to_bytes_be())),
            PrivateKey::EcdsaP256(_) => None,
        }
    }

    /// Signs `data` with SHA-256: RSA PKCS#1 v1.5 (`rsa-sha256`), or ECDSA P-256 as the
    /// 64 bytes r‖s that XMLDSig's `ecdsa-sha256` takes.
    pub fn sign_sha256(&self, data: &[u8]) -> Vec<u8> {
        self.sign_sha256_digest(&Sha256::digest(data).into())
    }

    /// [`Identity::sign_sha256`] of data whose SHA-256 digest is given.
    pub fn sign_sha256_digest(&self, digest: &[u8; 32]) -> Vec<u8> {
        match &self.key {
            PrivateKey::Rsa(k) => {
                // Blinded: the key is long-lived and signs on demand.
                let scheme = rsa::Pkcs1v15Sign::new::<Sha256>();
                k.sign_with_rng(&mut rand::rngs::OsRng, scheme, digest)
                    .expect("a PKCS#1 v1.5 SHA-256 signature fits any RSA key of 2048 bits or more")
            }
            PrivateKey::EcdsaP256(k) => {
                use p256::ecdsa::signature::hazmat::PrehashSigner;
                let sig: p256::ecdsa::Signature = k
                    .sign_prehash(digest)
                    .expect("a 32-byte digest is a valid P-256 prehash");
                sig.to_bytes().to_vec()
            }
        }
    }
}

/// The p12-keystore error as ours: a failed MAC or padding means a wrong password.
fn from_p12(e: P12Error) -> IdentityError {
    match e {
        P12Error::MacError(_) | P12Error::UnpadError => IdentityError::WrongPassword,
        P12Error::Pkcs5Error(m) if m.contains("decryption failed") => IdentityError::WrongPassword,
        P12Error::UnsupportedEncryptionScheme
        | P12Error::UnsupportedMacAlgorithm
        | P12Error::UnsupportedContentType
        | P12Error::UnsupportedCertificateType => {
            IdentityError::UnsupportedProtection(e.to_string())
        }
        P12Error::Pkcs5Error(m) => IdentityError::UnsupportedProtection(m),
        other => IdentityError::Malformed(other.to_string()),
    }
}

fn to_chrono(d: std::time::Duration) -> Result<DateTime<Utc>, IdentityError> {
    let secs = i64::try_from(d.as_secs()).map_err(|_| bad_time())?;
    DateTime::from_timestamp(secs, 0).ok_or_else(bad_time)
}

fn bad_time() -> IdentityError {
    IdentityError::Malformed("certificate validity out of range".into())
}

/// The PKCS#8 private key, RSA or ECDSA P-256.
fn private_key(pkcs8: &[u8]) -> Result<PrivateKey, IdentityError> {
    let info = rsa::pkcs8::PrivateKeyInfo::try_from(pkcs8)
        .map_err(|e| IdentityError::Malformed(format!("private key: {e}")))?;
    let bad = |e: &dyn std::fmt::Display| IdentityError::Malformed(format!("private key: {e}"));
    match info.algorithm.oid {
        RSA => {
            let key = rsa::RsaPrivateKey::from_pkcs8_der(pkcs8).map_err(|e| bad(&e))?;
            if key.n().bits() < 2048 {
                return Err(IdentityError::UnsupportedAlgorithm(format!(
                    "RSA of {} bits (at least 2048 are needed)",
                    key.n().bits()
                )));
            }
            Ok(PrivateKey::Rsa(Box::new(key)))
        }
        EC_PUBLIC_KEY => {
            let curve = info.algorithm.parameters_oid().ok();
            if curve != Some(P256) {
                let name = curve.map_or("an unnamed curve".to_string(), |c| format!("curve {c}"));
                return Err(IdentityError::UnsupportedAlgorithm(format!(
                    "ECDSA on {name}"
                )));
            }
            let key = p256::ecdsa::SigningKey::from_pkcs8_der(pkcs8).map_err(|e| bad(&e))?;
            Ok(PrivateKey::EcdsaP256(key))
        }
        other => Err(IdentityError::UnsupportedAlgorithm(format!(
            "algorithm {other}"
        ))),
    }
}

/// Checks that the certificate's public key is the private key's.
fn matches_certificate(key: &PrivateKey, cert: &Certificate) -> Result<(), IdentityError> {
    let spki = &cert.tbs_certificate.subject_public_key_info;
    let cert_key = spki
        .to_der()
        .map_err(|e| IdentityError::Malformed(format!("certificate key: {e}")))?;
    let ours = match key {
        PrivateKey::Rsa(k) => {
            use rsa::pkcs8::EncodePublicKey;
            k.to_public_key().to_public_key_der().map(|d| d.into_vec())
        }
        PrivateKey::EcdsaP256(k) => {
            use p256::pkcs8::EncodePublicKey;
            k.verifying_key().to_public_key_der().map(|d| d.into_vec())
        }
    }
    .map_err(|e| IdentityError::Malformed(format!("private key: {e}")))?;
    if ours == cert_key {
        Ok(())
    } else {
        Err(IdentityError::KeyMismatch)
    }
}
