//! What the unit tests of the formats share: building a GOBL document with folio's
//! builder without validation, the texts of an element, and the kit's `validate.py`.

use serde_json::Value;

/// Built and calculated but not validated, for cases that break an add-on's rules on
/// purpose.
pub(crate) fn build_unvalidated(doc: Value) -> Value {
    let opts = gobl::builder::BuildOptions {
        skip_validation: true,
        ..Default::default()
    };
    gobl::builder::build_with(doc, &opts).expect("builds")
}

/// Texts of every element whose opening tag is `<{name}>` (a prefix included), in order.
pub(crate) fn text<'a>(xml: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name}>");
    xml.match_indices(&open)
        .map(|(i, _)| {
            let rest = &xml[i + open.len()..];
            &rest[..rest.find('<').unwrap()]
        })
        .collect()
}

/// Whether the kit's `validate.py` accepts the document of this format (`fatturapa`,
/// `facturae`, `ksef`; its errors otherwise). `file` names the scratch file.
pub(crate) fn assert_valid_as(format: &str, file: &str, xml: &str, name: &str) {
    let kit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/national");
    let file = std::env::temp_dir().join(format!("folio-{file}-{}-{name}.xml", std::process::id()));
    std::fs::write(&file, xml).unwrap();
    let out = std::process::Command::new("python3")
        .arg(kit.join("validate.py"))
        .args(["--format", format, "--json"])
        .arg(&file)
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_file(&file);
    let report: Value = serde_json::from_slice(&out.stdout).expect("validate.py JSON");
    assert_eq!(report[0]["ok"], true, "{name}: {}", report[0]["xsd_errors"]);
}
