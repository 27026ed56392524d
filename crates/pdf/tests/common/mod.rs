//! What the PDF tests share: poppler's tools, which read the PDFs folio writes.

use std::path::PathBuf;
use std::process::Command;

/// Whether poppler's tools can run; panics in CI when they cannot.
pub fn poppler() -> bool {
    let found = Command::new("pdftotext").arg("-v").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "pdftotext is missing (apt-get install poppler-utils)"
        );
        eprintln!("skipped: pdftotext is not installed (apt-get install poppler-utils)");
    }
    found
}

/// The PDF's text with every run of white space (no-break spaces too) as one space.
pub fn text_of(pdf: &[u8]) -> String {
    text_of_pages(pdf, 1, u32::MAX)
}

/// The text of pages `first` to `last` (from 1), squashed as [`text_of`] does.
pub fn text_of_pages(pdf: &[u8], first: u32, last: u32) -> String {
    let (_dir, path) = on_disk(pdf);
    let out = Command::new("pdftotext")
        .args([
            "-enc",
            "UTF-8",
            "-f",
            &first.to_string(),
            "-l",
            &last.to_string(),
        ])
        .arg(&path)
        .arg("-")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pdftotext: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    squash(&String::from_utf8_lossy(&out.stdout))
}

/// Every run of white space as one space.
pub fn squash(text: &str) -> String {
    text.split(char::is_whitespace)
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The PDF written to a temporary folder, for poppler's tools (the folder goes with the guard).
pub fn on_disk(pdf: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pdf");
    std::fs::write(&path, pdf).unwrap();
    (dir, path)
}
