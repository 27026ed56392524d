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

/// The kit's verdict on signed files: XSD and the signature checked against `p12`
/// (password [`PASSWORD`]), as written (no whitespace stripped). One report per file.
pub fn verify(format: &str, files: &[PathBuf], p12: &Path) -> Vec<serde_json::Value> {
    let out = Command::new("python3")
        .arg(super::kit().join("validate.py"))
        .args(["--format", format, "--json", "--verify-signature"])
        .arg(p12)
        .args(["--password", PASSWORD])
        .args(files)
        .output()
        .expect("python3 runs");
    let reports: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!(
            "validate.py gave no JSON: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let reports = reports.as_array().unwrap().clone();
    assert_eq!(reports.len(), files.len());
    reports
}

/// The reports of [`verify`] whose file is not valid with an intact signature, as
/// `file: signature error, XSD errors`.
pub fn not_verified(reports: &[serde_json::Value]) -> Vec<String> {
    reports
        .iter()
        .filter(|r| r["ok"] != true || r["signature"] != true)
        .map(|r| {
            format!(
                "{}: signature {} {}, xsd {}",
                r["file"], r["signature"], r["signature_error"], r["xsd_errors"]
            )
        })
        .collect()
}

/// The kit's signature check of files of any format (or none): one report per file, its
/// `signature` true, false or "absent".
pub fn verify_any(files: &[PathBuf], p12: &Path) -> Vec<serde_json::Value> {
    let out = Command::new("python3")
        .arg(super::kit().join("validate.py"))
        .args(["--json", "--verify-signature"])
        .arg(p12)
        .args(["--password", PASSWORD])
        .args(files)
        .output()
        .expect("python3 runs");
    let reports: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reports = reports.as_array().unwrap().clone();
    assert_eq!(reports.len(), files.len());
    reports
}
