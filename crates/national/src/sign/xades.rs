//! XAdES-EPES enveloped signatures (ETSI TS 101 903 v1.3.2) over a document folio wrote:
//! `ds:Signature` goes in as the last child of the document element, RSA-SHA256 (or
//! ECDSA-SHA256) over the inclusive Canonical XML 1.0 of its `SignedInfo`, which names
//! three SHA-256 references: the whole document (enveloped-signature transform), the
//! `KeyInfo` (certificate and RSA key value) and the XAdES `SignedProperties` (signing
//! time, signing certificate, signature policy, claimed role, data object format).
//!
//! Each part is digested over its canonical form in its final place: the namespaces in
//! scope come from the document element's start tag, so the parts are canonicalised
//! inside a copy of that start tag rather than in the whole document again.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::c14n::Parsed;
use super::error::SignError;
use super::identity::Identity;
use super::parts::{self, Digests, Ids, Properties};
use super::policy::Policy;
use super::root;

/// How to sign: under which policy, when, and in which role.
#[derive(Debug, Clone, Copy)]
pub struct XadesOptions<'a> {
    /// The signature policy (XAdES-EPES).
    pub policy: &'a Policy,
    /// The signing time written in the signed properties.
    pub signing_time: DateTime<Utc>,
    /// The signer's claimed role (`SignerRole/ClaimedRoles`), when the format asks for
    /// one (Facturae: `supplier`, `customer`, `third party`; TicketBAI: `Supplier`,
    /// `Customer`, `Thirdparty`).
    pub role: Option<&'a str>,
}

/// Signs `xml` with an enveloped XAdES-EPES signature and returns the signed document:
/// the input unchanged, with `ds:Signature` (no whitespace inside) inserted just before
/// the document element's end tag.
pub fn sign_enveloped(
    xml: &str,
    identity: &Identity,
    options: &XadesOptions,
) -> Result<String, SignError> {
    let root = root::find(xml)?;
    let document = Sha256::digest(Parsed::parse(xml)?.whole()?);
    let ids = Ids::new(signature_id(&document, identity, options));
    let key_info = parts::key_info(&ids, identity);
    let properties = Properties {
        policy: options.policy,
        signing_time: options.signing_time,
        role: options.role,
    };
    let object = parts::object(&ids, identity, &properties);

    let tail = format!("{key_info}{object}</ds:Signature>");
    let scratch = in_root(&root, &ids, &tail);
    let parsed = Parsed::parse(&scratch)?;
    let digests = Digests {
        document: B64.encode(document),
        key_info: B64.encode(Sha256::digest(parsed.element(&ids.key_info)?)),
        signed_properties: B64.encode(Sha256::digest(parsed.element(&ids.signed_properties)?)),
    };
    let signed_info = parts::signed_info(&ids, identity, &digests);
    let scratch = in_root(&root, &ids, &format!("{signed_info}</ds:Signature>"));
    let canonical = Parsed::parse(&scratch)?.element(&ids.signed_info)?;
    let value = parts::signature_value(&ids, &identity.sign_sha256(&canonical));

    let mut out =
        String::with_capacity(xml.len() + signed_info.len() + value.len() + tail.len() + 128);
    out.push_str(&xml[..root.end_tag_at]);
    out.push_str(&parts::signature_open(&ids));
    out.push_str(&signed_info);
    out.push_str(&value);
    out.push_str(&tail);
    out.push_str(&xml[root.end_tag_at..]);
    Ok(out)
}

/// The base64 `SignatureValue` of the first signature of a signed document (TicketBAI
/// chains each invoice to the previous one's).
pub fn signature_value(signed: &str) -> Option<&str> {
    let open = signed.find("<ds:SignatureValue")?;
    let start = open + signed[open..].find('>')? + 1;
    let end = start + signed[start..].find("</ds:SignatureValue>")?;
    Some(&signed[start..end])
}

/// `Signature-` and 16 hex digits of the document's digest with the certificate and the
/// signing time: the same document signed twice at once gets the same identifiers.
fn signature_id(document: &[u8], identity: &Identity, options: &XadesOptions) -> String {
    let mut h = Sha256::new();
    h.update(document);
    h.update(identity.certificate_sha256());
    h.update(options.signing_time.timestamp().to_be_bytes());
    let hex: String = h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("Signature-{hex}")
}

/// A small document with the context a signature part has in the signed document: the
/// document element's start tag, `ds:Signature`, then `inner`.
fn in_root(root: &root::Root, ids: &Ids, inner: &str) -> String {
    format!(
        "{}{}{inner}</{}>",
        root.start_tag,
        parts::signature_open(ids),
        root.name
    )
}
