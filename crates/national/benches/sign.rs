//! XAdES-EPES signing rate of a Facturae document next to a bare RSA PKCS#1 v1.5 SHA-256
//! signature of a 32-byte digest with the same key (a 2048-bit identity the openssl CLI
//! makes), timed in the same run, printed as signatures per second and their ratio.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

use chrono::Utc;
use folio_national::facturae;

mod common;
use common::rates;
use folio_national::sign::{FACTURAE_3_1, Identity, XadesOptions, sign_enveloped};

/// The allocator the folio server runs on (both sides of the comparison share it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PASSWORD: &str = "bench";

/// A 2048-bit RSA identity made with openssl in a scratch folder.
fn identity(dir: &Path) -> Identity {
    let (key, cert, p12) = (dir.join("k.pem"), dir.join("c.pem"), dir.join("i.p12"));
    let run = |args: &[&str]| {
        let ok = Command::new("openssl")
            .args(args)
            .output()
            .expect("openssl");
        assert!(
            ok.status.success(),
            "{}",
            String::from_utf8_lossy(&ok.stderr)
        );
    };
    let s = |p: &PathBuf| p.to_str().unwrap().to_owned();
    run(&[
        "req",
        "-x509",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=Folio bench",
        "-newkey",
        "rsa:2048",
        "-keyout",
        &s(&key),
        "-out",
        &s(&cert),
    ]);
    run(&[
        "pkcs12",
        "-export",
        "-in",
        &s(&cert),
        "-inkey",
        &s(&key),
        "-passout",
        &format!("pass:{PASSWORD}"),
        "-out",
        &s(&p12),
    ]);
    Identity::from_pkcs12(&std::fs::read(p12).unwrap(), PASSWORD, Utc::now()).unwrap()
}

/// The Facturae of the kit's first golden envelope, unsigned.
fn document() -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/national/fixtures/facturae/gobl.facturae");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the national kit")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let env = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    facturae::from_envelope(&env, &facturae::Options::default()).unwrap()
}

fn main() {
    let dir = std::env::temp_dir().join(format!("folio-bench-sign-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let id = identity(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let xml = document();
    let opts = XadesOptions {
        policy: &FACTURAE_3_1,
        signing_time: Utc::now(),
        role: Some("supplier"),
    };
    let digest = [7u8; 32];
    let (xades, bare) = rates(
        &|| {
            black_box(sign_enveloped(black_box(&xml), &id, &opts).unwrap());
        },
        &|| {
            black_box(id.sign_sha256_digest(black_box(&digest)));
        },
    );
    println!(
        "Facturae of {} bytes: XAdES-EPES {xades:.0} signatures/s, bare RSA-2048 PKCS#1 v1.5 SHA-256 {bare:.0} signatures/s, ratio {:.2}",
        xml.len(),
        xades / bare
    );
}
