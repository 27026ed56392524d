//! `folio convert`, run as the real binary: every format from a German B2G invoice passes
//! the official rules of its profile; exit codes 0, 1 and 2; stdin and `-o`.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use folio_judge::{Judge, Rules};

use crate::harness::{binary, run_cli};

fn invoice() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/invoice-de-b2g.json")
}

#[test]
fn every_format_from_a_german_b2g_invoice_passes_its_rules() {
    let input = invoice();
    let mut by_rules: Vec<(Rules, Vec<(String, String)>)> =
        vec![(Rules::XRechnung, Vec::new()), (Rules::En16931, Vec::new())];
    for (to, rules) in [
        ("ubl-xrechnung", 0),
        ("cii-xrechnung", 0),
        ("ubl", 1),
        ("cii", 1),
        ("cii-facturx", 1),
        ("cii-zugferd", 1),
    ] {
        let (code, out, err) = run_cli(&["convert", "--to", to, input.to_str().unwrap()]);
        assert_eq!(code, 0, "{to}: {err}");
        assert!(out.starts_with("<?xml"), "{to}: {out}");
        by_rules[rules].1.push((to.to_string(), out));
    }
    let Some(judge) = Judge::find() else { return };
    for (rules, docs) in by_rules {
        for verdict in judge.check(rules, &docs) {
            assert!(verdict.ok, "{}", verdict.explain());
        }
    }
}

#[test]
fn an_invoice_that_fails_the_rules_exits_1_and_writes_nothing() {
    // Peppol wants participant identifiers, not e-mail addresses, as electronic addresses
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("peppol.xml");
    let (code, stdout, err) = run_cli(&[
        "convert",
        "--to",
        "ubl-peppol",
        "-o",
        out.to_str().unwrap(),
        invoice().to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("PEPPOL-EN16931-CL008"), "{err}");
    assert!(stdout.is_empty() && !out.exists());
}

#[test]
fn gobl_round_trip_through_stdin_and_output_file() {
    let tmp = tempfile::tempdir().unwrap();
    let xml = tmp.path().join("x.xml");
    let (code, _, err) = run_cli(&[
        "convert",
        "--to",
        "cii-xrechnung",
        "-o",
        xml.to_str().unwrap(),
        invoice().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let mut child = Command::new(binary())
        .args(["convert", "--to", "gobl", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(&xml).unwrap())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let envelope: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["doc"]["code"], "RE-2026-0042");
    // 10 h × 120.00 + 950.00 = 2,150.00 net, 19 % VAT
    assert_eq!(envelope["doc"]["totals"]["payable"], "2558.50");
}

#[test]
fn bad_usage_and_unreadable_input_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let html = tmp.path().join("page.xml");
    std::fs::write(&html, "<html><body/></html>").unwrap();
    let bomb = tmp.path().join("bomb.xml");
    std::fs::write(
        &bomb,
        r#"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&b;</ID></Invoice>"#,
    )
    .unwrap();
    let huge = tmp.path().join("huge.xml");
    let mut f = std::fs::File::create(&huge).unwrap();
    f.write_all(
        br#"<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><Note>"#,
    )
    .unwrap();
    f.write_all(&vec![b'x'; 50 * 1024 * 1024]).unwrap();
    drop(f);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["convert", "--to", "docx", "x.json"], "invalid value"),
        (
            vec!["convert", "--to", "ubl", "/no/such/file.json"],
            "cannot read",
        ),
        (
            vec!["convert", "--to", "ubl", html.to_str().unwrap()],
            "not a GOBL document",
        ),
        (
            vec!["convert", "--to", "gobl", html.to_str().unwrap()],
            "root element html",
        ),
        (
            vec!["convert", "--to", "gobl", bomb.to_str().unwrap()],
            "DTD",
        ),
        (
            vec!["convert", "--to", "gobl", huge.to_str().unwrap()],
            "at most",
        ),
    ];
    for (args, says) in cases {
        let (code, _, err) = run_cli(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
