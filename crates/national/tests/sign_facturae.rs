//! Facturae signed XAdES-EPES under Facturae's policy 3.1: every golden envelope of the kit
//! and every Spanish GOBL example with the `es-facturae-v3` add-on, signed with an
//! identity the test makes, passes the XSD and the kit's signature check as written;
//! a copy changed after signing does not.

mod common;

use std::path::PathBuf;

use chrono::{TimeZone, Utc};
use common::identities::{self, PASSWORD, Spec};
use common::{Scratch, with_customer_address};
use folio_national::facturae::{self, Options};
use folio_national::sign::{Identity, signature_value};
use serde_json::Value;

/// Every envelope the Facturae tests write: the kit's golden ones and the Spanish
/// examples the writer takes.
fn envelopes() -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = common::pairs("facturae/gobl.facturae", 4)
        .into_iter()
        .map(|(name, env, _)| (name, env))
        .collect();
    for (path, env) in common::built_examples("es/out", "es-facturae-v3") {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        match facturae::from_envelope(&env, &Options::default()) {
            Ok(_) => out.push((format!("example-{name}"), env)),
            Err(facturae::Error::Missing("customer.addresses")) => {
                out.push((format!("example-{name}"), with_customer_address(&env)))
            }
            // Nor can Facturae carry an invoice without lines (charges alone).
            Err(facturae::Error::Missing("lines")) => {}
            Err(e) => panic!("{name}: {e}"),
        }
    }
    assert!(out.len() >= 6, "only {} envelopes", out.len());
    out
}

fn identity(scratch: &Scratch, spec: Spec) -> (Identity, PathBuf) {
    let p12 = identities::make(&scratch.0, "signer", spec);
    let id = Identity::from_pkcs12(&std::fs::read(&p12).unwrap(), PASSWORD, Utc::now()).unwrap();
    (id, p12)
}

fn signing_time() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, 10, 30, 0).unwrap()
}

/// Signs every envelope and writes the files: (file, signed XML).
fn sign_all(scratch: &Scratch, id: &Identity) -> Vec<(PathBuf, String)> {
    envelopes()
        .into_iter()
        .map(|(name, env)| {
            let xml = facturae::from_envelope_signed(&env, &Options::default(), id, signing_time())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            (scratch.write(&name, &xml), xml)
        })
        .collect()
}

#[test]
fn every_facturae_signed_verifies_as_written() {
    let scratch = Scratch::new("sign-facturae", "rsa");
    let (id, p12) = identity(&scratch, Spec::default());
    let signed = sign_all(&scratch, &id);
    let files: Vec<PathBuf> = signed.iter().map(|(f, _)| f.clone()).collect();
    let failures = identities::not_verified(&identities::verify("facturae", &files, &p12));
    assert!(failures.is_empty(), "{failures:#?}");
    for (file, xml) in &signed {
        assert!(
            xml.contains("<xades:ClaimedRole>supplier</xades:ClaimedRole>"),
            "{file:?}"
        );
        assert!(xml.contains("politica_de_firma_formato_facturae_v3_1.pdf"));
        assert!(
            xml.trim_end().ends_with("</ds:Signature></fe:Facturae>"),
            "{file:?}"
        );
        assert!(signature_value(xml).is_some_and(|v| v.len() >= 340));
    }
}

#[test]
fn a_facturae_signed_with_the_legacy_kind_of_p12_verifies() {
    let scratch = Scratch::new("sign-facturae", "legacy");
    let spec = Spec {
        legacy: true,
        key: "rsa:3072",
        ..Spec::default()
    };
    let (id, p12) = identity(&scratch, spec);
    let (name, env) = envelopes().remove(0);
    let xml =
        facturae::from_envelope_signed(&env, &Options::default(), &id, signing_time()).unwrap();
    let file = scratch.write(&name, &xml);
    let failures = identities::not_verified(&identities::verify("facturae", &[file], &p12));
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_facturae_signed_with_an_ecdsa_identity_verifies() {
    let scratch = Scratch::new("sign-facturae", "ecdsa");
    let spec = Spec {
        key: "ec",
        ..Spec::default()
    };
    let (id, p12) = identity(&scratch, spec);
    let (name, env) = envelopes().remove(0);
    let xml =
        facturae::from_envelope_signed(&env, &Options::default(), &id, signing_time()).unwrap();
    assert!(xml.contains("#ecdsa-sha256"));
    let file = scratch.write(&name, &xml);
    let failures = identities::not_verified(&identities::verify("facturae", &[file], &p12));
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_changed_amount_or_another_certificate_fails_the_check() {
    let scratch = Scratch::new("sign-facturae", "tampered");
    let (id, p12) = identity(&scratch, Spec::default());
    let (name, env) = envelopes().remove(0);
    let xml =
        facturae::from_envelope_signed(&env, &Options::default(), &id, signing_time()).unwrap();
    let total = common::texts(&xml, "InvoiceTotal").remove(0);
    let tampered = xml.replacen(
        &format!("<InvoiceTotal>{total}</InvoiceTotal>"),
        &format!("<InvoiceTotal>{total}1</InvoiceTotal>"),
        1,
    );
    assert_ne!(tampered, xml);
    let good = scratch.write(&name, &xml);
    let bad = scratch.write(&format!("{name}-tampered"), &tampered);
    let reports = identities::verify("facturae", &[good.clone(), bad], &p12);
    assert_eq!(reports[0]["signature"], true, "{}", reports[0]);
    assert_eq!(reports[1]["signature"], false, "{}", reports[1]);
    assert_eq!(reports[1]["ok"], false);
    // The untouched file against a certificate it was not signed with.
    let other = Scratch::new("sign-facturae", "other");
    let other_p12 = identities::make(&other.0, "other", Spec::default());
    let reports = identities::verify("facturae", &[good], &other_p12);
    assert_eq!(reports[0]["signature"], false, "{}", reports[0]);
}

#[test]
fn a_third_party_issuer_signs_as_third_party() {
    let scratch = Scratch::new("sign-facturae", "third");
    let (id, p12) = identity(&scratch, Spec::default());
    let (name, env) = envelopes().remove(0);
    let party = serde_json::json!({
        "name": "Hypeprop S.L.",
        "tax_id": {"country": "ES", "code": "B23103039"},
        "addresses": [{"street": "Calle Campo Real 74", "code": "28023",
            "locality": "Torrejón De La Calzada", "region": "Madrid", "country": "ES"}]
    });
    let opts = Options {
        third_party: Some(serde_json::from_value(party).unwrap()),
    };
    let xml = facturae::from_envelope_signed(&env, &opts, &id, signing_time()).unwrap();
    assert!(xml.contains("<xades:ClaimedRole>third party</xades:ClaimedRole>"));
    let file = scratch.write(&name, &xml);
    let failures = identities::not_verified(&identities::verify("facturae", &[file], &p12));
    assert!(failures.is_empty(), "{failures:#?}");
}
