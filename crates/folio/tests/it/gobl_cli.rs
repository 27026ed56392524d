//! `folio gobl build | verify | sign | keygen`, run as the real binary.

use std::path::PathBuf;

use crate::harness::run_cli;

fn examples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: reference examples not found at {}",
            dir.display()
        );
        None
    }
}

#[test]
fn build_an_example_then_sign_and_verify_it() {
    let Some(examples) = examples() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let input = examples.join("es/invoice-es-es-freelance.yaml");
    let reference: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(examples.join("es/out/invoice-es-es-freelance.json")).unwrap(),
    )
    .unwrap();

    let (code, out, err) = run_cli(&["gobl", "build", input.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let built: serde_json::Value = serde_json::from_str(&out).expect("the envelope on stdout");
    assert_eq!(
        built["head"]["dig"], reference["head"]["dig"],
        "same digest as the reference"
    );
    assert_eq!(built["doc"]["totals"], reference["doc"]["totals"]);
    let envelope = tmp.path().join("envelope.json");
    std::fs::write(&envelope, &out).unwrap();

    let (code, key, _) = run_cli(&["gobl", "keygen"]);
    assert_eq!(code, 0);
    let key_file = tmp.path().join("key.jwk");
    std::fs::write(&key_file, &key).unwrap();
    let (code, signed, err) = run_cli(&[
        "gobl",
        "sign",
        envelope.to_str().unwrap(),
        "--key",
        key_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let signed_file = tmp.path().join("signed.json");
    std::fs::write(&signed_file, &signed).unwrap();
    let (code, out, err) = run_cli(&[
        "gobl",
        "verify",
        signed_file.to_str().unwrap(),
        "--key",
        key_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("ok"), "{out}");

    // Tampering with the document after signing is caught.
    let mut tampered: serde_json::Value = serde_json::from_str(&signed).unwrap();
    tampered["doc"]["code"] = "OTHER".into();
    std::fs::write(&signed_file, tampered.to_string()).unwrap();
    let (code, _, err) = run_cli(&[
        "gobl",
        "verify",
        signed_file.to_str().unwrap(),
        "--key",
        key_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.is_empty());
}

#[test]
fn invalid_documents_exit_non_zero_with_faults_on_stderr() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("bad.json");
    std::fs::write(
        &file,
        r#"{"$schema": "https://gobl.org/draft-0/bill/invoice", "currency": "EUR",
            "issue_date": "2024-01-10", "code": "X1",
            "supplier": {"name": "S", "tax_id": {"country": "ES", "code": "B12345675"}},
            "lines": [{"quantity": "1", "item": {"name": "A", "price": "10.00"},
                       "taxes": [{"cat": "VAT", "rate": "general"}]}]}"#,
    )
    .unwrap();
    let (code, out, err) = run_cli(&["gobl", "build", file.to_str().unwrap()]);
    assert_eq!(code, 1, "stdout: {out}");
    assert!(
        out.trim().is_empty(),
        "no envelope for an invalid document: {out}"
    );
    assert!(
        err.to_lowercase().contains("tax"),
        "the fault names the tax id: {err}"
    );

    let (code, _, err) = run_cli(&["gobl", "build", "/no/such/file.yaml"]);
    assert_ne!(code, 0);
    assert!(err.contains("/no/such/file.yaml"), "{err}");
}

/// A small invoice with the given `$regime` and `$addons` members.
fn invoice_with(extra: &str) -> String {
    format!(
        r#"{{"$schema": "https://gobl.org/draft-0/bill/invoice", {extra} "currency": "EUR",
            "issue_date": "2024-01-10", "code": "X1",
            "supplier": {{"name": "S", "tax_id": {{"country": "ES", "code": "B98602642"}}}},
            "lines": [{{"quantity": "1", "item": {{"name": "A", "price": "10.00"}},
                       "taxes": [{{"cat": "VAT", "rate": "general"}}]}}]}}"#
    )
}

#[test]
fn an_unknown_regime_or_addon_exits_1_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    for (extra, named) in [
        (r#""$regime": "XX","#, "'XX'"),
        (r#""$addons": ["xx-nothing-v1"],"#, "'xx-nothing-v1'"),
    ] {
        let file = tmp.path().join("doc.json");
        std::fs::write(&file, invoice_with(extra)).unwrap();
        let (code, out, err) = run_cli(&["gobl", "build", file.to_str().unwrap()]);
        assert_eq!(code, 1, "stdout: {out}");
        assert!(err.contains(named), "the fault names {named}: {err}");
    }
}

/// The reference's Italian, Polish and Greek examples build to the reference's envelope.
#[test]
fn italian_polish_and_greek_examples_build_to_the_reference() {
    let Some(examples) = examples() else { return };
    for (input, output) in [
        ("it/b2b-deffered.json", "it/out/b2b-deffered.json"),
        (
            "pl/invoice-simplified.json",
            "pl/out/invoice-simplified.json",
        ),
        ("gr/invoice-el-el.yaml", "gr/out/invoice-el-el.json"),
    ] {
        let reference: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(examples.join(output)).unwrap()).unwrap();
        let path = examples.join(input);
        let (code, out, err) = run_cli(&["gobl", "build", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{input}: {err}");
        let built: serde_json::Value = serde_json::from_str(&out).expect("an envelope");
        assert_eq!(built["doc"], reference["doc"], "{input}");
        assert_eq!(built["head"]["dig"], reference["head"]["dig"], "{input}");
    }
}
