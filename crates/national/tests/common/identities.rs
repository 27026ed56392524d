//! Signing identities made with the openssl CLI in a scratch folder: a key and a
//! self-signed certificate, exported as PKCS#12 the way OpenSSL 3 does by default (PBES2
//! AES-256-CBC, SHA-256 MAC) or with `-legacy` (3DES / RC2-40, SHA-1 MAC).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The password of every PKCS#12 file made here.
pub const PASSWORD: &str = "folio-test";

/// Runs openssl; panics with its error output when it fails.
pub fn openssl(args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .output()
        .expect("openssl installed");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// How to make an identity.
#[derive(Clone, Copy)]
pub struct Spec<'a> {
    /// `-newkey` of `openssl req`: `rsa:2048`, `ec` (P-256), `ed25519`.
    pub key: &'a str,
    /// Days of validity from now.
    pub days: u32,
    /// `-legacy` export (3DES / RC2-40).
    pub legacy: bool,
    /// Export the certificate without its key.
    pub without_key: bool,
}

impl Default for Spec<'_> {
    fn default() -> Self {
        Spec {
            key: "rsa:2048",
            days: 30,
            legacy: false,
            without_key: false,
        }
    }
}

/// Makes `<name>.p12` (password [`PASSWORD`]), with `<name>.key.pem` and
/// `<name>.cert.pem` beside it.
pub fn make(dir: &Path, name: &str, spec: Spec) -> PathBuf {
    let key = dir.join(format!("{name}.key.pem"));
    let cert = dir.join(format!("{name}.cert.pem"));
    let p12 = dir.join(format!("{name}.p12"));
    let days = spec.days.to_string();
    let mut req = vec![
        "req",
        "-x509",
        "-nodes",
        "-days",
        &days,
        "-subj",
        "/C=ES/O=Folio Pruebas/serialNumber=99999999R/CN=Folio Test Signer",
        "-newkey",
        spec.key,
    ];
    if spec.key == "ec" {
        req.extend(["-pkeyopt", "ec_paramgen_curve:P-256"]);
    }
    req.extend([
        "-keyout",
        key.to_str().unwrap(),
        "-out",
        cert.to_str().unwrap(),
    ]);
    openssl(&req);
    let pass = format!("pass:{PASSWORD}");
    let mut export = vec!["pkcs12", "-export", "-in", cert.to_str().unwrap()];
    if spec.without_key {
        export.push("-nokeys");
    } else {
        export.extend(["-inkey", key.to_str().unwrap()]);
    }
    if spec.legacy {
        export.push("-legacy");
    }
    export.extend(["-passout", &pass, "-out", p12.to_str().unwrap()]);
    openssl(&export);
    p12
}
