//! Signing identities read from PKCS#12 files that the openssl CLI writes (OpenSSL 3's
//! default and `-legacy`), and from the kit's FNMT test certificate.

mod common;

use chrono::{Duration, TimeZone, Utc};
use common::identities::{PASSWORD, Spec, make, openssl};
use common::{Scratch, kit};
use folio_national::sign::{Identity, IdentityError, KeyAlgorithm};

fn read(path: &std::path::Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn openssl_default_export_opens() {
    let s = Scratch::new("identity", "default");
    let p12 = make(&s.0, "id", Spec::default());
    let id = Identity::from_pkcs12(&read(&p12), PASSWORD, Utc::now()).unwrap();
    assert_eq!(id.algorithm(), KeyAlgorithm::Rsa { bits: 2048 });
    assert!(
        id.subject().contains("CN=Folio Test Signer"),
        "{}",
        id.subject()
    );
    assert_eq!(id.subject(), id.issuer(), "self-signed");
    assert!(id.not_after() - id.not_before() >= Duration::days(29));
    // The certificate is the one openssl wrote, and the serial is its serial.
    let out = std::process::Command::new("openssl")
        .args(["x509", "-noout", "-serial", "-in"])
        .arg(s.0.join("id.cert.pem"))
        .output()
        .unwrap();
    let serial = String::from_utf8(out.stdout).unwrap();
    let serial = serial.trim().trim_start_matches("serial=").to_lowercase();
    assert_eq!(
        id.serial_hex().trim_start_matches("00"),
        serial.trim_start_matches("00")
    );
    assert!(format!("{id:?}").contains("Folio Test Signer"));
}

#[test]
fn openssl_legacy_export_opens() {
    let s = Scratch::new("identity", "legacy");
    let p12 = make(
        &s.0,
        "id",
        Spec {
            legacy: true,
            ..Spec::default()
        },
    );
    let id = Identity::from_pkcs12(&read(&p12), PASSWORD, Utc::now()).unwrap();
    assert_eq!(id.algorithm(), KeyAlgorithm::Rsa { bits: 2048 });
}

#[test]
fn the_kits_fnmt_certificate_opens_before_it_expired_and_is_refused_after() {
    // RC2-40 certificate bag, 3DES key bag, SHA-1 MAC: as FNMT exports often are.
    let p12 = read(&kit().join("fixtures/facturae/certificates/facturae.p12"));
    let then = Utc.with_ymd_and_hms(2023, 6, 1, 0, 0, 0).unwrap();
    let id = Identity::from_pkcs12(&p12, "invopop", then).unwrap();
    assert!(id.subject().contains("99999999R"), "{}", id.subject());
    assert!(matches!(id.algorithm(), KeyAlgorithm::Rsa { .. }));
    match Identity::from_pkcs12(&p12, "invopop", Utc::now()) {
        Err(IdentityError::Expired { not_after }) => {
            assert_eq!(not_after, id.not_after());
            let msg = IdentityError::Expired { not_after }.to_string();
            assert!(msg.contains("2024-11-05"), "{msg}");
        }
        other => panic!("expected Expired, got {other:?}"),
    }
}

#[test]
fn ecdsa_p256_opens() {
    let s = Scratch::new("identity", "ecdsa");
    let p12 = make(
        &s.0,
        "id",
        Spec {
            key: "ec",
            ..Spec::default()
        },
    );
    let id = Identity::from_pkcs12(&read(&p12), PASSWORD, Utc::now()).unwrap();
    assert_eq!(id.algorithm(), KeyAlgorithm::EcdsaP256);
    assert!(id.rsa_public().is_none());
    assert_eq!(id.sign_sha256(b"abc").len(), 64);
}

#[test]
fn a_short_lived_certificate_is_expired_after_its_end() {
    let s = Scratch::new("identity", "expired");
    let p12 = read(&make(
        &s.0,
        "id",
        Spec {
            days: 1,
            ..Spec::default()
        },
    ));
    let later = Utc::now() + Duration::days(2);
    let err = Identity::from_pkcs12(&p12, PASSWORD, later).unwrap_err();
    let IdentityError::Expired { not_after } = err else {
        panic!("expected Expired, got {err:?}");
    };
    assert!(not_after < later && not_after > Utc::now());
    assert!(
        err.to_string().starts_with("the certificate expired on "),
        "{err}"
    );
    let earlier = Utc::now() - Duration::days(1);
    let err = Identity::from_pkcs12(&p12, PASSWORD, earlier).unwrap_err();
    assert!(matches!(err, IdentityError::NotYetValid { .. }), "{err:?}");
}

#[test]
fn a_wrong_password_is_refused() {
    let s = Scratch::new("identity", "password");
    for legacy in [false, true] {
        let p12 = read(&make(
            &s.0,
            "id",
            Spec {
                legacy,
                ..Spec::default()
            },
        ));
        let err = Identity::from_pkcs12(&p12, "not-the-password", Utc::now()).unwrap_err();
        assert_eq!(err, IdentityError::WrongPassword, "legacy {legacy}");
        assert!(err.to_string().contains("wrong password"));
    }
}

#[test]
fn a_file_without_key_is_refused() {
    let s = Scratch::new("identity", "nokey");
    let p12 = read(&make(
        &s.0,
        "id",
        Spec {
            without_key: true,
            ..Spec::default()
        },
    ));
    let err = Identity::from_pkcs12(&p12, PASSWORD, Utc::now()).unwrap_err();
    assert_eq!(err, IdentityError::NoPrivateKey);
}

#[test]
fn an_ed25519_key_is_an_unsupported_algorithm() {
    let s = Scratch::new("identity", "ed25519");
    let p12 = read(&make(
        &s.0,
        "id",
        Spec {
            key: "ed25519",
            ..Spec::default()
        },
    ));
    let err = Identity::from_pkcs12(&p12, PASSWORD, Utc::now()).unwrap_err();
    assert!(
        matches!(err, IdentityError::UnsupportedAlgorithm(_)),
        "{err:?}"
    );
}

#[test]
fn what_is_not_pkcs12_is_malformed() {
    for bytes in [
        &b"not a pkcs12 file"[..],
        b"",
        &[0x30, 0x03, 0x02, 0x01, 0x03],
    ] {
        let err = Identity::from_pkcs12(bytes, PASSWORD, Utc::now()).unwrap_err();
        assert!(matches!(err, IdentityError::Malformed(_)), "{err:?}");
    }
}

#[test]
fn an_rsa_signature_verifies_with_openssl() {
    let s = Scratch::new("identity", "verify");
    let p12 = make(&s.0, "id", Spec::default());
    let id = Identity::from_pkcs12(&read(&p12), PASSWORD, Utc::now()).unwrap();
    let data = s.0.join("data");
    std::fs::write(&data, b"folio signs this").unwrap();
    let sig = s.0.join("sig");
    std::fs::write(&sig, id.sign_sha256(b"folio signs this")).unwrap();
    let public = s.0.join("public.pem");
    let cert = s.0.join("id.cert.pem");
    openssl(&[
        "x509",
        "-pubkey",
        "-noout",
        "-in",
        cert.to_str().unwrap(),
        "-out",
        public.to_str().unwrap(),
    ]);
    openssl(&[
        "dgst",
        "-sha256",
        "-verify",
        public.to_str().unwrap(),
        "-signature",
        sig.to_str().unwrap(),
        data.to_str().unwrap(),
    ]);
    // Another message gives a signature that does not verify.
    std::fs::write(&sig, id.sign_sha256(b"something else")).unwrap();
    let out = std::process::Command::new("openssl")
        .args(["dgst", "-sha256", "-verify"])
        .arg(&public)
        .arg("-signature")
        .args([&sig, &data])
        .output()
        .unwrap();
    assert!(!out.status.success());
}
