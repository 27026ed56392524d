//! The national formats' validation kit under `../shared/national`, as the tests use it:
//! reference data, `validate.py` (the official schemas), and `.p7m` files signed with the
//! kit's test certificate by openssl.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// `../shared` from the crate.
pub fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// The document of a reference envelope under `../shared`.
pub fn doc(path: &str) -> Value {
    let text = std::fs::read_to_string(shared().join(path)).unwrap();
    let envelope: Value = serde_json::from_str(&text).unwrap();
    envelope["doc"].clone()
}

/// Runs `../shared/national/validate.py` on files; panics with its report when one fails.
pub fn validate(files: &[PathBuf]) {
    let out = Command::new("python3")
        .arg(shared().join("national/validate.py"))
        .args(files)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "validate.py: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The kit's test certificate signs `content` as a `.p7m` (DER) with openssl.
pub fn p7m(dir: &Path, content: &[u8]) -> Vec<u8> {
    let certs = shared().join("national/fixtures/fatturapa/certificates");
    let (input, key, out) = (
        dir.join("p7m.xml"),
        dir.join("p7m-key.pem"),
        dir.join("p7m.der"),
    );
    std::fs::write(&input, content).unwrap();
    // the kit's PKCS#12 uses RC2: OpenSSL 3 reads it with -legacy
    let status = Command::new("openssl")
        .args([
            "pkcs12",
            "-legacy",
            "-nodes",
            "-nocerts",
            "-passin",
            "pass:invopop",
            "-in",
        ])
        .arg(certs.join("test.p12"))
        .arg("-out")
        .arg(&key)
        .status()
        .unwrap();
    assert!(status.success(), "openssl pkcs12");
    let status = Command::new("openssl")
        .args([
            "cms",
            "-sign",
            "-binary",
            "-nodetach",
            "-outform",
            "DER",
            "-md",
            "sha256",
        ])
        .arg("-in")
        .arg(&input)
        .arg("-signer")
        .arg(certs.join("test.pem"))
        .arg("-inkey")
        .arg(&key)
        .arg("-out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "openssl cms -sign");
    std::fs::read(out).unwrap()
}

/// A fresh signing identity made with openssl in `dir`: the PKCS#12 file and its password.
pub fn identity(dir: &Path) -> (PathBuf, &'static str) {
    let (key, cert, p12) = (
        dir.join("id-key.pem"),
        dir.join("id-cert.pem"),
        dir.join("id.p12"),
    );
    let status = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        ])
        .args(["-subj", "/CN=folio test signer/O=folio/C=ES", "-keyout"])
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .unwrap()
        .status;
    assert!(status.success(), "openssl req");
    let status = Command::new("openssl")
        .args(["pkcs12", "-export", "-passout", "pass:secret", "-inkey"])
        .arg(&key)
        .arg("-in")
        .arg(&cert)
        .arg("-out")
        .arg(&p12)
        .status()
        .unwrap();
    assert!(status.success(), "openssl pkcs12 -export");
    (p12, "secret")
}

/// [`validate`] with the signature checked against the identity `p12`.
pub fn validate_signed(files: &[PathBuf], p12: &Path, password: &str) {
    let out = Command::new("python3")
        .arg(shared().join("national/validate.py"))
        .arg("--verify-signature")
        .arg(p12)
        .args(["--password", password])
        .args(files)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "validate.py: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
