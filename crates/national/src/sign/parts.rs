//! The elements of an XAdES-EPES enveloped signature, written without whitespace between
//! elements (what is written is what is signed).

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use chrono::{DateTime, Utc};
use quick_xml::escape::{escape, partial_escape};

use super::identity::{Identity, KeyAlgorithm};
use super::policy::{DigestAlgorithm, Policy};

pub(crate) const NS_DS: &str = "http://www.w3.org/2000/09/xmldsig#";
pub(crate) const NS_XADES: &str = "http://uri.etsi.org/01903/v1.3.2#";
const ENVELOPED: &str = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
const SIGNED_PROPERTIES: &str = "http://uri.etsi.org/01903#SignedProperties";
const OBJECT: &str = "http://www.w3.org/2000/09/xmldsig#Object";
const RSA_SHA256: &str = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
const ECDSA_SHA256: &str = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
/// The object identifier of an invoice (`urn:oid:1.2.840.10003.5.109.10`), as Facturae
/// and TicketBAI signatures name the signed document's format.
const INVOICE_OID: &str = "urn:oid:1.2.840.10003.5.109.10";

/// The identifiers of one signature's elements, all derived from its `Id`.
pub(crate) struct Ids {
    pub(crate) signature: String,
    pub(crate) signed_info: String,
    pub(crate) signed_properties: String,
    pub(crate) key_info: String,
    pub(crate) reference: String,
}

impl Ids {
    pub(crate) fn new(signature: String) -> Ids {
        Ids {
            signed_info: format!("{signature}-SignedInfo"),
            signed_properties: format!("{signature}-SignedProperties"),
            key_info: format!("{signature}-KeyInfo"),
            reference: format!("{signature}-Reference"),
            signature,
        }
    }
}

/// `<ds:Signature …>`, the open tag.
pub(crate) fn signature_open(ids: &Ids) -> String {
    format!(
        "<ds:Signature xmlns:ds=\"{NS_DS}\" Id=\"{}\">",
        escape(&ids.signature)
    )
}

/// The digests the `SignedInfo` names, base64.
pub(crate) struct Digests {
    pub(crate) document: String,
    pub(crate) key_info: String,
    pub(crate) signed_properties: String,
}

/// `<ds:SignedInfo>`: the whole document (enveloped), the `KeyInfo` and the XAdES signed
/// properties, each digested with SHA-256.
pub(crate) fn signed_info(ids: &Ids, identity: &Identity, d: &Digests) -> String {
    let method = match identity.algorithm() {
        KeyAlgorithm::Rsa { .. } => RSA_SHA256,
        KeyAlgorithm::EcdsaP256 => ECDSA_SHA256,
    };
    let sha256 = DigestAlgorithm::Sha256.uri();
    let digest = |value: &str| {
        format!(
            "<ds:DigestMethod Algorithm=\"{sha256}\"></ds:DigestMethod><ds:DigestValue>{value}</ds:DigestValue>"
        )
    };
    format!(
        "<ds:SignedInfo Id=\"{si}\"><ds:CanonicalizationMethod Algorithm=\"{c14n}\"></ds:CanonicalizationMethod>\
<ds:SignatureMethod Algorithm=\"{method}\"></ds:SignatureMethod>\
<ds:Reference Id=\"{r}\" Type=\"{OBJECT}\" URI=\"\"><ds:Transforms><ds:Transform Algorithm=\"{ENVELOPED}\"></ds:Transform></ds:Transforms>{doc}</ds:Reference>\
<ds:Reference URI=\"#{ki}\">{key}</ds:Reference>\
<ds:Reference Type=\"{SIGNED_PROPERTIES}\" URI=\"#{sp}\">{props}</ds:Reference></ds:SignedInfo>",
        si = escape(&ids.signed_info),
        c14n = super::c14n::INCLUSIVE_1_0,
        r = escape(&ids.reference),
        ki = escape(&ids.key_info),
        sp = escape(&ids.signed_properties),
        doc = digest(&d.document),
        key = digest(&d.key_info),
        props = digest(&d.signed_properties),
    )
}

/// `<ds:SignatureValue>`.
pub(crate) fn signature_value(ids: &Ids, value: &[u8]) -> String {
    format!(
        "<ds:SignatureValue Id=\"{}-SignatureValue\">{}</ds:SignatureValue>",
        escape(&ids.signature),
        B64.encode(value)
    )
}

/// `<ds:KeyInfo>`: the certificate, and the RSA public key's value.
pub(crate) fn key_info(ids: &Ids, identity: &Identity) -> String {
    let mut out = format!(
        "<ds:KeyInfo Id=\"{}\"><ds:X509Data><ds:X509Certificate>{}</ds:X509Certificate></ds:X509Data>",
        escape(&ids.key_info),
        B64.encode(identity.certificate_der())
    );
    if let Some((modulus, exponent)) = identity.rsa_public() {
        out.push_str(&format!(
            "<ds:KeyValue><ds:RSAKeyValue><ds:Modulus>{}</ds:Modulus><ds:Exponent>{}</ds:Exponent></ds:RSAKeyValue></ds:KeyValue>",
            B64.encode(modulus),
            B64.encode(exponent)
        ));
    }
    out.push_str("</ds:KeyInfo>");
    out
}

/// What the signed properties say besides the identity.
pub(crate) struct Properties<'a> {
    pub(crate) policy: &'a Policy,
    pub(crate) signing_time: DateTime<Utc>,
    pub(crate) role: Option<&'a str>,
}

/// `<ds:Object>` with the XAdES qualifying properties: signing time, signing certificate,
/// signature policy, the signer's claimed role, and the signed document's format.
pub(crate) fn object(ids: &Ids, identity: &Identity, p: &Properties) -> String {
    let sha256 = DigestAlgorithm::Sha256.uri();
    let cert_digest = B64.encode(identity.certificate_sha256());
    let role = p.role.map_or(String::new(), |r| {
        format!(
            "<xades:SignerRole><xades:ClaimedRoles><xades:ClaimedRole>{}</xades:ClaimedRole></xades:ClaimedRoles></xades:SignerRole>",
            partial_escape(r)
        )
    });
    format!(
        "<ds:Object><xades:QualifyingProperties xmlns:xades=\"{NS_XADES}\" Id=\"{sig}-QualifyingProperties\" Target=\"#{sig}\">\
<xades:SignedProperties Id=\"{sp}\"><xades:SignedSignatureProperties>\
<xades:SigningTime>{time}</xades:SigningTime>\
<xades:SigningCertificate><xades:Cert><xades:CertDigest><ds:DigestMethod Algorithm=\"{sha256}\"></ds:DigestMethod><ds:DigestValue>{cert_digest}</ds:DigestValue></xades:CertDigest>\
<xades:IssuerSerial><ds:X509IssuerName>{issuer}</ds:X509IssuerName><ds:X509SerialNumber>{serial}</ds:X509SerialNumber></xades:IssuerSerial></xades:Cert></xades:SigningCertificate>\
<xades:SignaturePolicyIdentifier><xades:SignaturePolicyId><xades:SigPolicyId><xades:Identifier>{pid}</xades:Identifier><xades:Description>{pdesc}</xades:Description></xades:SigPolicyId>\
<xades:SigPolicyHash><ds:DigestMethod Algorithm=\"{palg}\"></ds:DigestMethod><ds:DigestValue>{pdigest}</ds:DigestValue></xades:SigPolicyHash></xades:SignaturePolicyId></xades:SignaturePolicyIdentifier>\
{role}</xades:SignedSignatureProperties>\
<xades:SignedDataObjectProperties><xades:DataObjectFormat ObjectReference=\"#{r}\"><xades:Description>{ddesc}</xades:Description>\
<xades:ObjectIdentifier><xades:Identifier Qualifier=\"OIDAsURN\">{INVOICE_OID}</xades:Identifier></xades:ObjectIdentifier><xades:MimeType>text/xml</xades:MimeType></xades:DataObjectFormat></xades:SignedDataObjectProperties>\
</xades:SignedProperties></xades:QualifyingProperties></ds:Object>",
        sig = escape(&ids.signature),
        sp = escape(&ids.signed_properties),
        r = escape(&ids.reference),
        time = p.signing_time.format("%Y-%m-%dT%H:%M:%S+00:00"),
        issuer = partial_escape(identity.issuer()),
        serial = identity.serial_decimal(),
        pid = partial_escape(p.policy.identifier),
        pdesc = partial_escape(p.policy.description),
        palg = p.policy.digest_algorithm.uri(),
        pdigest = p.policy.digest,
        ddesc = partial_escape(p.policy.document_description),
    )
}
