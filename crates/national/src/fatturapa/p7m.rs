//! `.xml.p7m`: a received FatturaPA signed CAdES-style, the XML inside a CMS `SignedData`
//! (DER, or its base64 text), unwrapped with RustCrypto's `cms` and `der`. Each signer's
//! signature is verified against the certificate the file carries: the message digest
//! attribute against the content, the signature over the signed attributes (or over the
//! content when there are none) with that certificate's RSA (PKCS#1 v1.5) or ECDSA P-256
//! key. **Not checked**: the certificate's chain of trust, its validity dates and its
//! revocation — an intact signature says the content is what that certificate's key
//! signed, not who holds the key.

use base64::Engine;
use cms::cert::CertificateChoices;
use cms::content_info::ContentInfo;
use cms::signed_data::{SignedData, SignerIdentifier, SignerInfo};
use der::asn1::OctetStringRef;
use der::oid::ObjectIdentifier;
use der::{Decode, Encode};
use sha2::Digest;
use x509_cert::Certificate;

/// The largest `.p7m` read.
pub const MAX_BYTES: usize = 32 * 1024 * 1024;
/// How many signatures deep a file may be wrapped (counter-signing by wrapping again).
const MAX_NESTING: usize = 4;

const SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
const MESSAGE_DIGEST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.4");
const SHA1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.14.3.2.26");
const SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");
const SHA384: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.2");
const SHA512: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.3");
const RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");

/// Why a file is not a readable `.p7m`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum P7mError {
    /// Larger than [`MAX_BYTES`].
    #[error("the file is {0} bytes; at most {max} are read", max = MAX_BYTES)]
    TooLarge(usize),
    /// Neither DER nor base64 of DER.
    #[error("not a CMS file: {0}")]
    NotCms(String),
    /// A CMS structure other than SignedData.
    #[error("the CMS content is {0}, not SignedData")]
    NotSignedData(String),
    /// A detached signature: the invoice is not inside.
    #[error("the signed content is not inside the file (detached signature)")]
    Detached,
}

/// What became of one signer's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureStatus {
    /// The signature verifies over the content with the signer's certificate.
    Intact,
    /// It does not: the content or the signature was changed.
    Broken(String),
    /// It could not be checked (no certificate, an algorithm not supported).
    Unverifiable(String),
}

/// One signer of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    /// The certificate's subject, when the file carries the certificate.
    pub subject: Option<String>,
    /// The signature's state (chain of trust not checked).
    pub status: SignatureStatus,
}

/// The content of a `.p7m` and its signers (outermost first when wrapped more than once).
#[derive(Debug, Clone)]
pub struct Unwrapped {
    /// The signed content: the FatturaPA XML.
    pub content: Vec<u8>,
    /// Every signer, each with its signature's state.
    pub signers: Vec<Signer>,
}

impl Unwrapped {
    /// Whether there is a signer and every signature is intact.
    pub fn intact(&self) -> bool {
        !self.signers.is_empty()
            && self
                .signers
                .iter()
                .all(|s| s.status == SignatureStatus::Intact)
    }
}

/// Whether the bytes look like a `.p7m` (DER SEQUENCE, or base64 text of one).
pub fn is_p7m(bytes: &[u8]) -> bool {
    der_bytes(bytes).is_ok_and(|d| ContentInfo::from_der(&d).is_ok())
}

/// The content of a `.p7m` and the state of each signature in it.
pub fn unwrap(bytes: &[u8]) -> Result<Unwrapped, P7mError> {
    if bytes.len() > MAX_BYTES {
        return Err(P7mError::TooLarge(bytes.len()));
    }
    let mut content = der_bytes(bytes)?;
    let mut signers = Vec::new();
    for depth in 0..MAX_NESTING {
        let (inner, mut found) = open(&content)?;
        signers.append(&mut found);
        content = inner;
        // A file signed again is SignedData inside SignedData.
        let nested = der_bytes(&content)
            .ok()
            .filter(|d| ContentInfo::from_der(d).is_ok_and(|ci| ci.content_type == SIGNED_DATA));
        match nested {
            Some(d) if depth + 1 < MAX_NESTING => content = d,
            _ => break,
        }
    }
    Ok(Unwrapped { content, signers })
}

/// DER bytes: as given, or decoded from base64 (PEM armour and whitespace ignored); BER
/// (indefinite lengths, chunked content) re-encoded as DER.
fn der_bytes(bytes: &[u8]) -> Result<Vec<u8>, P7mError> {
    let raw = raw_bytes(bytes)?;
    if ContentInfo::from_der(&raw).is_ok() {
        return Ok(raw);
    }
    Ok(super::ber::to_der(&raw).unwrap_or(raw))
}

fn raw_bytes(bytes: &[u8]) -> Result<Vec<u8>, P7mError> {
    if bytes.first() == Some(&0x30) {
        return Ok(bytes.to_vec());
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| P7mError::NotCms("neither DER nor base64".into()))?;
    let b64: String = text
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .flat_map(str::chars)
        .filter(|c| !c.is_whitespace())
        .collect();
    let der = base64::engine::general_purpose::STANDARD
        .decode(b64.as_bytes())
        .map_err(|e| P7mError::NotCms(format!("base64: {e}")))?;
    if der.first() != Some(&0x30) {
        return Err(P7mError::NotCms("the base64 text is not DER".into()));
    }
    Ok(der)
}

/// One level of SignedData: its content and signers.
fn open(der: &[u8]) -> Result<(Vec<u8>, Vec<Signer>), P7mError> {
    let ci = ContentInfo::from_der(der).map_err(|e| P7mError::NotCms(e.to_string()))?;
    if ci.content_type != SIGNED_DATA {
        return Err(P7mError::NotSignedData(ci.content_type.to_string()));
    }
    let sd: SignedData = ci
        .content
        .decode_as()
        .map_err(|e| P7mError::NotCms(format!("SignedData: {e}")))?;
    let econtent = sd
        .encap_content_info
        .econtent
        .as_ref()
        .ok_or(P7mError::Detached)?;
    let content = econtent
        .decode_as::<OctetStringRef>()
        .map_err(|e| P7mError::NotCms(format!("content: {e}")))?
        .as_bytes()
        .to_vec();
    let certs: Vec<&Certificate> = sd
        .certificates
        .iter()
        .flat_map(|set| set.0.iter())
        .filter_map(|c| match c {
            CertificateChoices::Certificate(c) => Some(c),
            _ => None,
        })
        .collect();
    let raw_attrs = super::ber::signed_attributes(der).unwrap_or_default();
    let signers = sd
        .signer_infos
        .0
        .iter()
        .map(|si| check(si, as_encoded(si, &raw_attrs), &certs, &content))
        .collect();
    Ok((content, signers))
}

/// The signer's attributes as the file encodes them (the decoded set is sorted, and so is
/// the set of signers: they are matched by value).
fn as_encoded<'a>(si: &SignerInfo, raw: &'a [Option<Vec<u8>>]) -> Option<&'a [u8]> {
    let attrs = si.signed_attrs.as_ref()?;
    raw.iter()
        .flatten()
        .find(|r| cms::signed_data::SignedAttributes::from_der(r).is_ok_and(|d| &d == attrs))
        .map(Vec::as_slice)
}

fn check(si: &SignerInfo, raw: Option<&[u8]>, certs: &[&Certificate], content: &[u8]) -> Signer {
    let Some(cert) = certs.iter().find(|c| identifies(&si.sid, c)) else {
        return Signer {
            subject: None,
            status: SignatureStatus::Unverifiable(
                "the signer's certificate is not in the file".into(),
            ),
        };
    };
    Signer {
        subject: Some(cert.tbs_certificate.subject.to_string()),
        status: verify(si, raw, cert, content).unwrap_or_else(|s| s),
    }
}

fn identifies(sid: &SignerIdentifier, cert: &Certificate) -> bool {
    let tbs = &cert.tbs_certificate;
    match sid {
        SignerIdentifier::IssuerAndSerialNumber(i) => {
            i.issuer == tbs.issuer && i.serial_number == tbs.serial_number
        }
        SignerIdentifier::SubjectKeyIdentifier(ski) => tbs
            .extensions
            .iter()
            .flatten()
            .filter(|e| e.extn_id == ObjectIdentifier::new_unwrap("2.5.29.14"))
            .any(|e| {
                OctetStringRef::from_der(e.extn_value.as_bytes())
                    .is_ok_and(|v| v.as_bytes() == ski.0.as_bytes())
            }),
    }
}

/// The signature's state; `Err` carries a state decided early.
fn verify(
    si: &SignerInfo,
    raw_attrs: Option<&[u8]>,
    cert: &Certificate,
    content: &[u8],
) -> Result<SignatureStatus, SignatureStatus> {
    let alg = si.digest_alg.oid;
    let signed = match &si.signed_attrs {
        None => content.to_vec(),
        Some(attrs) => {
            let stated = attrs
                .iter()
                .find(|a| a.oid == MESSAGE_DIGEST)
                .and_then(|a| a.values.iter().next())
                .and_then(|v| v.decode_as::<OctetStringRef>().ok())
                .ok_or_else(|| {
                    SignatureStatus::Broken("no message digest among the signed attributes".into())
                })?;
            if stated.as_bytes() != digest(alg, content)? {
                return Ok(SignatureStatus::Broken(
                    "the content does not match its signed digest".into(),
                ));
            }
            // Signed attributes are signed as a SET OF, not with their [0] tag, in the
            // order the signer wrote them.
            match raw_attrs {
                Some(raw) => raw.to_vec(),
                None => attrs
                    .to_der()
                    .map_err(|e| SignatureStatus::Unverifiable(e.to_string()))?,
            }
        }
    };
    let hashed = digest(alg, &signed)?;
    let spki = &cert.tbs_certificate.subject_public_key_info;
    let key_der = spki
        .to_der()
        .map_err(|e| SignatureStatus::Unverifiable(e.to_string()))?;
    let signature = si.signature.as_bytes();
    let ok = match spki.algorithm.oid {
        RSA => verify_rsa(&key_der, alg, &hashed, signature)?,
        EC_PUBLIC_KEY => verify_p256(&key_der, &hashed, signature)?,
        other => {
            return Err(SignatureStatus::Unverifiable(format!(
                "key algorithm {other} not supported"
            )));
        }
    };
    Ok(if ok {
        SignatureStatus::Intact
    } else {
        SignatureStatus::Broken(
            "the signature does not verify with the signer's certificate".into(),
        )
    })
}

fn digest(alg: ObjectIdentifier, data: &[u8]) -> Result<Vec<u8>, SignatureStatus> {
    Ok(match alg {
        SHA1 => sha1::Sha1::digest(data).to_vec(),
        SHA256 => sha2::Sha256::digest(data).to_vec(),
        SHA384 => sha2::Sha384::digest(data).to_vec(),
        SHA512 => sha2::Sha512::digest(data).to_vec(),
        other => {
            return Err(SignatureStatus::Unverifiable(format!(
                "digest algorithm {other} not supported"
            )));
        }
    })
}

fn verify_rsa(
    key: &[u8],
    alg: ObjectIdentifier,
    hashed: &[u8],
    sig: &[u8],
) -> Result<bool, SignatureStatus> {
    use rsa::pkcs8::DecodePublicKey;
    use rsa::{Pkcs1v15Sign, RsaPublicKey};
    let key = RsaPublicKey::from_public_key_der(key)
        .map_err(|e| SignatureStatus::Unverifiable(format!("RSA key: {e}")))?;
    let scheme = match alg {
        SHA1 => Pkcs1v15Sign::new::<sha1::Sha1>(),
        SHA256 => Pkcs1v15Sign::new::<sha2::Sha256>(),
        SHA384 => Pkcs1v15Sign::new::<sha2::Sha384>(),
        _ => Pkcs1v15Sign::new::<sha2::Sha512>(),
    };
    Ok(key.verify(scheme, hashed, sig).is_ok())
}

fn verify_p256(key: &[u8], hashed: &[u8], sig: &[u8]) -> Result<bool, SignatureStatus> {
    use p256::ecdsa::signature::hazmat::PrehashVerifier;
    use p256::ecdsa::{Signature, VerifyingKey};
    use p256::pkcs8::DecodePublicKey;
    let key = VerifyingKey::from_public_key_der(key)
        .map_err(|e| SignatureStatus::Unverifiable(format!("EC key (P-256 only): {e}")))?;
    let Ok(sig) = Signature::from_der(sig) else {
        return Ok(false);
    };
    Ok(key.verify_prehash(hashed, &sig).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_cms() {
        assert!(matches!(unwrap(b"<xml/>"), Err(P7mError::NotCms(_))));
        assert!(matches!(
            unwrap(&[0x30, 0x03, 1, 2]),
            Err(P7mError::NotCms(_))
        ));
        assert!(!is_p7m(b"MIIB"));
        assert!(matches!(
            unwrap(&vec![0x30; MAX_BYTES + 1]),
            Err(P7mError::TooLarge(_))
        ));
    }
}
