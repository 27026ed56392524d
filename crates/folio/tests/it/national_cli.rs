//! `folio convert` to and from the national formats, run as the real binary: FatturaPA,
//! Facturae, KSeF FA(3) and VERI*FACTU files pass the official schemas (`validate.py`);
//! FatturaPA (plain and `.p7m`) and FA(3) read back to the same totals; a second VERI*FACTU
//! record chains to the first given with `--previous`; a tampered `.p7m` and an invoice a
//! format cannot carry exit 1; the README's Italian invoice passes FatturaPA's schema.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::harness::run_cli;
use crate::national_kit::{identity, p7m, shared, validate, validate_signed};

/// `folio convert --to TO [more...] INPUT -o OUT`; the exit code and stderr.
fn convert(to: &str, input: &Path, out: &Path, more: &[&str]) -> (i32, String) {
    let mut args = vec!["convert", "--to", to];
    args.extend_from_slice(more);
    args.extend_from_slice(&["-o", out.to_str().unwrap(), input.to_str().unwrap()]);
    let (code, _, err) = run_cli(&args);
    (code, err)
}

fn fixture(path: &str) -> PathBuf {
    shared().join("national/fixtures").join(path)
}

/// The payable total of a GOBL envelope file.
fn payable(path: &Path) -> Value {
    let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    v["doc"]["totals"]["payable"].clone()
}

#[test]
fn fatturapa_facturae_and_ksef_pass_their_schemas_and_read_back() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "fatturapa",
            "fatturapa/gobl.fatturapa/invoice-simple.json",
            true,
        ),
        (
            "facturae",
            "facturae/gobl.facturae/invoice-vat-irpf.json",
            false,
        ),
        ("ksef", "ksef/gobl.ksef/credit-note.json", true),
    ];
    for (to, input, reads_back) in cases {
        let xml = tmp.path().join(format!("{to}.xml"));
        let (code, err) = convert(to, &fixture(input), &xml, &[]);
        assert_eq!(code, 0, "{to}: {err}");
        validate(std::slice::from_ref(&xml));
        if reads_back {
            let gobl = tmp.path().join(format!("{to}.json"));
            let (code, err) = convert("gobl", &xml, &gobl, &[]);
            assert_eq!(code, 0, "{to} → gobl: {err}");
            assert_eq!(payable(&gobl), payable(&fixture(input)), "{to}");
        }
    }
}

/// The Italian invoice of the README's tour (its `fattura.json` block).
fn readme_fattura() -> String {
    let readme = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let text = std::fs::read_to_string(readme).unwrap();
    let start = text
        .find("cat > fattura.json <<'JSON'\n")
        .expect("the tour's fattura");
    let body = &text[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("\nJSON\n").unwrap()].to_string()
}

#[test]
fn the_readmes_italian_invoice_is_a_fatturapa_the_schema_accepts() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("fattura.json");
    std::fs::write(&input, readme_fattura()).unwrap();
    let xml = tmp.path().join("fattura.xml");
    let (code, err) = convert("fatturapa", &input, &xml, &[]);
    assert_eq!(code, 0, "{err}");
    validate(std::slice::from_ref(&xml));
    let text = std::fs::read_to_string(&xml).unwrap();
    assert!(text.contains("<ImportoTotaleDocumento>1317.60<"), "{text}");
}

#[test]
fn a_signed_p7m_reads_and_a_tampered_one_exits_1() {
    let tmp = tempfile::tempdir().unwrap();
    let xml = std::fs::read(fixture("fatturapa/gobl.fatturapa/out/invoice-simple.xml")).unwrap();
    let signed = p7m(tmp.path(), &xml);
    let good = tmp.path().join("good.xml.p7m");
    std::fs::write(&good, &signed).unwrap();
    let out = tmp.path().join("good.json");
    let (code, err) = convert("gobl", &good, &out, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("signature intact"), "{err}");
    assert_eq!(
        payable(&out),
        payable(&fixture("fatturapa/gobl.fatturapa/invoice-simple.json"))
    );
    let mut tampered = signed;
    let at = tampered.windows(8).position(|w| w == b"<Numero>").unwrap() + 8;
    tampered[at] ^= 0x01;
    let bad = tmp.path().join("bad.xml.p7m");
    std::fs::write(&bad, &tampered).unwrap();
    let out = tmp.path().join("bad.json");
    let (code, err) = convert("gobl", &bad, &out, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("does not verify"), "{err}");
    assert!(!out.exists());
}

/// The `Huella` of a record file (issue or cancellation) and the one its `RegistroAnterior`
/// names.
fn huellas(path: &Path) -> (String, Option<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let alta = doc
        .descendants()
        .find(|n| matches!(n.tag_name().name(), "RegistroAlta" | "RegistroAnulacion"))
        .unwrap();
    let own = alta
        .children()
        .find(|n| n.tag_name().name() == "Huella")
        .and_then(|n| n.text())
        .unwrap()
        .to_string();
    let previous = alta
        .descendants()
        .find(|n| n.tag_name().name() == "RegistroAnterior")
        .and_then(|r| r.children().find(|n| n.tag_name().name() == "Huella"))
        .and_then(|n| n.text())
        .map(str::to_string);
    (own, previous)
}

#[test]
fn verifactu_records_and_a_cancellation_chain_with_previous() {
    let tmp = tempfile::tempdir().unwrap();
    let input = shared().join("gobl/examples/es/out/invoice-es-es-verifactu.json");
    let first = tmp.path().join("first.xml");
    let (code, err) = convert("verifactu", &input, &first, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("ValidarQR"), "the QR URL is printed: {err}");
    let second = tmp.path().join("second.xml");
    let (code, err) = convert(
        "verifactu",
        &input,
        &second,
        &["--previous", first.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let cancel = tmp.path().join("cancel.xml");
    let previous = ["--previous", second.to_str().unwrap(), "--cancel"];
    let (code, err) = convert("verifactu", &input, &cancel, &previous);
    assert_eq!(code, 0, "{err}");
    validate(&[first.clone(), second.clone(), cancel.clone()]);
    let (one, none) = huellas(&first);
    let (two, previous) = huellas(&second);
    assert_eq!(none, None);
    assert_eq!(previous, Some(one));
    let written = std::fs::read_to_string(&cancel).unwrap();
    assert!(written.contains("RegistroAnulacion>") && !written.contains("RegistroAlta>"));
    assert_eq!(
        huellas(&cancel).1,
        Some(two),
        "the cancellation chains to the second"
    );
    // a --previous that holds no record is bad usage
    let (code, err) = convert(
        "verifactu",
        &input,
        &tmp.path().join("third.xml"),
        &["--previous", input.to_str().unwrap()],
    );
    assert_eq!(code, 2, "{err}");
}

#[test]
fn an_invoice_a_format_cannot_carry_exits_1_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    // VERI*FACTU records are for suppliers with a Spanish tax id
    let german =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/invoice-de-b2g.json");
    let out = tmp.path().join("de.xml");
    let (code, err) = convert("verifactu", &german, &out, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("Spanish"), "{err}");
    assert!(!out.exists());
}

#[test]
fn facturae_and_ticketbai_sign_with_the_identity_given() {
    let tmp = tempfile::tempdir().unwrap();
    let (p12, password) = identity(tmp.path());
    let pw = tmp.path().join("password");
    std::fs::write(&pw, format!("{password}\n")).unwrap();
    let sign = [
        "--identity",
        p12.to_str().unwrap(),
        "--password-file",
        pw.to_str().unwrap(),
    ];
    let facturae = tmp.path().join("facturae.xsig");
    let input = fixture("facturae/gobl.facturae/invoice-vat-irpf.json");
    let (code, err) = convert("facturae", &input, &facturae, &sign);
    assert_eq!(code, 0, "{err}");
    let tbai = shared().join("gobl/examples/es/out/invoice-es-es-tbai-simplified.json");
    let mut licence = sign.to_vec();
    licence.extend([
        "--license",
        "TBAIARbjjMClHKH00849",
        "--developer-nif",
        "B98602642",
    ]);
    let first = tmp.path().join("tbai-1.xml");
    let (code, err) = convert("ticketbai", &tbai, &first, &licence);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("tbai: TBAI-"), "{err}");
    let second = tmp.path().join("tbai-2.xml");
    let mut chained = licence.clone();
    chained.extend(["--previous", first.to_str().unwrap()]);
    let (code, err) = convert("ticketbai", &tbai, &second, &chained);
    assert_eq!(code, 0, "{err}");
    validate_signed(&[facturae, first.clone(), second.clone()], &p12, password);
    let text = std::fs::read_to_string(&second).unwrap();
    assert!(text.contains("EncadenamientoFacturaAnterior"), "{text}");
    // a wrong password is bad usage, naming the problem; nothing is written
    std::fs::write(&pw, "wrong").unwrap();
    let out = tmp.path().join("wrong.xsig");
    let (code, err) = convert("facturae", &input, &out, &sign);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("wrong password"), "{err}");
    assert!(!out.exists());
    // TicketBAI is never written unsigned
    let (code, err) = convert("ticketbai", &tbai, &tmp.path().join("x.xml"), &[]);
    assert_eq!(code, 2, "{err}");
}
