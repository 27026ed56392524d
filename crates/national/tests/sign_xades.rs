//! XAdES-EPES enveloped signatures of documents that exercise canonicalisation (default
//! and prefixed namespaces, `xml:lang`, entities, CDATA, comments,
//! CRLF line ends, attribute values with tabs and quotes, non-ASCII text), under each
//! policy: the kit's signature check (signxml over lxml's C14N) accepts every one as
//! written, and refuses a copy with one character of text changed.

mod common;

use chrono::{TimeZone, Utc};
use common::Scratch;
use common::identities::{self, PASSWORD, Spec};
use folio_national::sign::{
    FACTURAE_3_1, Identity, Policy, SignError, TICKETBAI_ARABA, TICKETBAI_BIZKAIA,
    TICKETBAI_GIPUZKOA, XadesOptions, sign_enveloped, signature_value,
};

const DOCUMENTS: &[(&str, &str)] = &[
    (
        "default-namespace",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Root xmlns=\"urn:example:a\" b=\"2\" a=\"1\">\n  <Item>Año &amp; €</Item>\n  <Empty/>\n</Root>\n",
    ),
    (
        "prefixes-and-lang",
        "<T:TicketBai xmlns:T=\"urn:ticketbai:emision\" xmlns:x=\"urn:example:x\"><Cabecera xml:lang=\"eu\" x:at=\"a&#9;b &quot;c&quot;\"><IDVersionTBAI>1.2</IDVersionTBAI></Cabecera><!-- a comment --><Datos><![CDATA[<raw> & text]]></Datos></T:TicketBai>",
    ),
    (
        "crlf-and-ds-declared",
        "<?xml version=\"1.0\"?>\r\n<a:Doc xmlns:a=\"urn:example:a\" xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\">\r\n\t<a:Line n=\"1\">x &lt; y</a:Line>\r\n\t<?pi data?>\r\n</a:Doc>\r\n",
    ),
];

const POLICIES: &[Policy] = &[
    FACTURAE_3_1,
    TICKETBAI_ARABA,
    TICKETBAI_BIZKAIA,
    TICKETBAI_GIPUZKOA,
];

fn options(policy: &Policy) -> XadesOptions<'_> {
    XadesOptions {
        policy,
        signing_time: Utc.with_ymd_and_hms(2026, 1, 15, 8, 0, 0).unwrap(),
        role: Some("Supplier"),
    }
}

#[test]
fn tricky_documents_verify_under_every_policy() {
    let scratch = Scratch::new("xades", "tricky");
    let p12 = identities::make(&scratch.0, "signer", Spec::default());
    let id = Identity::from_pkcs12(&std::fs::read(&p12).unwrap(), PASSWORD, Utc::now()).unwrap();
    let mut files = Vec::new();
    let mut tampered = Vec::new();
    for (i, policy) in POLICIES.iter().enumerate() {
        for (name, xml) in DOCUMENTS {
            let signed = sign_enveloped(xml, &id, &options(policy)).unwrap();
            assert!(signed.contains(policy.identifier) && signed.contains(policy.digest));
            // The input is kept byte for byte around the signature.
            let at = signed.find("<ds:Signature").unwrap();
            let end = signed.find("</ds:Signature>").unwrap() + "</ds:Signature>".len();
            assert_eq!(format!("{}{}", &signed[..at], &signed[end..]), *xml);
            files.push(scratch.write(&format!("{i}-{name}"), &signed));
            let changed = signed.replacen("1", "3", 1);
            assert_ne!(changed, signed);
            tampered.push(scratch.write(&format!("{i}-{name}-changed"), &changed));
        }
    }
    // No format of the kit: only the signature is looked at.
    let reports = identities::verify_any(&files, &p12);
    let bad: Vec<_> = reports.iter().filter(|r| r["signature"] != true).collect();
    assert!(bad.is_empty(), "{bad:#?}");
    let reports = identities::verify_any(&tampered, &p12);
    let intact: Vec<_> = reports.iter().filter(|r| r["signature"] != false).collect();
    assert!(intact.is_empty(), "{intact:#?}");
}

#[test]
fn the_signature_value_is_found_and_changes_with_the_document() {
    let scratch = Scratch::new("xades", "value");
    let p12 = identities::make(&scratch.0, "signer", Spec::default());
    let id = Identity::from_pkcs12(&std::fs::read(&p12).unwrap(), PASSWORD, Utc::now()).unwrap();
    let a = sign_enveloped(DOCUMENTS[0].1, &id, &options(&TICKETBAI_BIZKAIA)).unwrap();
    let b = sign_enveloped(DOCUMENTS[1].1, &id, &options(&TICKETBAI_BIZKAIA)).unwrap();
    let (va, vb) = (signature_value(&a).unwrap(), signature_value(&b).unwrap());
    assert_eq!(va.len(), 344, "base64 of 256 bytes");
    assert_ne!(va, vb);
    // The same input, time and identity sign the same (PKCS#1 v1.5 is deterministic).
    let again = sign_enveloped(DOCUMENTS[0].1, &id, &options(&TICKETBAI_BIZKAIA)).unwrap();
    assert_eq!(a, again);
}

#[test]
fn what_cannot_be_signed_is_a_clear_error() {
    let scratch = Scratch::new("xades", "errors");
    let p12 = identities::make(&scratch.0, "signer", Spec::default());
    let id = Identity::from_pkcs12(&std::fs::read(&p12).unwrap(), PASSWORD, Utc::now()).unwrap();
    let opts = options(&FACTURAE_3_1);
    assert_eq!(
        sign_enveloped("<a/>", &id, &opts),
        Err(SignError::EmptyDocumentElement)
    );
    assert_eq!(
        sign_enveloped("<a xml:lang=\"es\"><b/></a>", &id, &opts),
        Err(SignError::XmlAttributeOnDocumentElement("xml:lang".into()))
    );
    for bad in ["", "<a><b></a>", "not xml", "<a>&undefined;</a>"] {
        let err = sign_enveloped(bad, &id, &opts).unwrap_err();
        assert!(
            matches!(
                err,
                SignError::NotWellFormed(_) | SignError::Canonicalisation(_)
            ),
            "{bad}: {err:?}"
        );
    }
}
