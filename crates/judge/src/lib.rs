//! The judge for e-invoices in tests: the official EN 16931, XRechnung and Peppol rules and the
//! UBL / CII schemas, run by `../shared/einvoice/validate.py` (Saxon-HE through `saxonche`).
//!
//! When the kit cannot run (Python packages missing), [`Judge::find`] fails the test in CI
//! (`CI` set) and otherwise returns `None` after printing why, so the caller skips.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

/// The rule set a document is checked under (`validate.py --rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// XSD + EN 16931.
    En16931,
    /// XSD + EN 16931 + XRechnung 3.
    XRechnung,
    /// XSD + EN 16931 + Peppol BIS Billing 3.0.
    Peppol,
}

impl Rules {
    fn arg(self) -> &'static str {
        match self {
            Rules::En16931 => "en16931",
            Rules::XRechnung => "xrechnung",
            Rules::Peppol => "peppol",
        }
    }
}

/// One failed assertion of the rules.
#[derive(Debug, Clone, Deserialize)]
pub struct Failed {
    /// The rule id, e.g. `BR-CO-15`.
    pub id: String,
    /// `fatal`, `error`, `warning` or `information`.
    pub flag: String,
    /// XPath of the node the rule fired on.
    pub location: String,
    /// The rule's message.
    pub text: String,
}

/// What the kit said about one document.
#[derive(Debug, Clone, Deserialize)]
pub struct Verdict {
    /// The file checked.
    pub file: String,
    /// `ubl` or `cii`, or none when the root element is neither.
    pub syntax: Option<String>,
    /// No XSD error and no failed rule of flag `fatal` or `error`.
    pub ok: bool,
    /// XSD errors, `line N: ...`.
    pub xsd_errors: Vec<String>,
    /// Every failed assertion, warnings included.
    pub failed: Vec<Failed>,
}

impl Verdict {
    /// The failed rules that make the document invalid (`fatal` or `error`).
    pub fn errors(&self) -> Vec<&Failed> {
        self.failed
            .iter()
            .filter(|f| f.flag == "fatal" || f.flag == "error")
            .collect()
    }

    /// A one-paragraph account for an assertion message.
    pub fn explain(&self) -> String {
        let mut out = format!("{}: ", self.file);
        for e in &self.xsd_errors {
            out.push_str(&format!("\n  xsd {e}"));
        }
        for f in self.errors() {
            out.push_str(&format!(
                "\n  [{}] {} at {}: {}",
                f.flag, f.id, f.location, f.text
            ));
        }
        out
    }
}

/// The validation kit, found on this machine.
#[derive(Debug, Clone)]
pub struct Judge {
    kit: PathBuf,
}

impl Judge {
    /// The kit at `FOLIO_EINVOICE_KIT` or `../shared/einvoice` from the repository root, if its
    /// Python side can run here. In CI a kit that cannot run is a test failure, not a skip.
    pub fn find() -> Option<Judge> {
        let kit = std::env::var_os("FOLIO_EINVOICE_KIT")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/einvoice")
            });
        let problem = if !kit.join("validate.py").is_file() {
            Some(format!("no validate.py in {}", kit.display()))
        } else {
            let probe = Command::new("python3")
                .args(["-c", "import saxonche, lxml"])
                .output();
            match probe {
                Ok(o) if o.status.success() => None,
                Ok(o) => Some(format!(
                    "python3 cannot import saxonche and lxml ({}); run pip install -r {}/requirements.txt",
                    String::from_utf8_lossy(&o.stderr).trim(),
                    kit.display()
                )),
                Err(e) => Some(format!("python3 cannot run: {e}")),
            }
        };
        match problem {
            None => Some(Judge { kit }),
            Some(p) if std::env::var_os("CI").is_some() => {
                panic!("the e-invoice validation kit must run in CI: {p}")
            }
            Some(p) => {
                eprintln!("skipping official validation: {p}");
                None
            }
        }
    }

    /// Checks documents (name, XML) under one rule set, in one run of the kit.
    pub fn check(&self, rules: Rules, docs: &[(String, String)]) -> Vec<Verdict> {
        if docs.is_empty() {
            return Vec::new();
        }
        let dir = tempfile::tempdir().expect("a temporary folder");
        let paths: Vec<PathBuf> = docs
            .iter()
            .enumerate()
            .map(|(i, (name, xml))| {
                let safe: String = name
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect();
                let path = dir.path().join(format!("{i:03}-{safe}.xml"));
                std::fs::write(&path, xml).expect("write a document to check");
                path
            })
            .collect();
        let out = Command::new("python3")
            .arg(self.kit.join("validate.py"))
            .args(["--rules", rules.arg(), "--json"])
            .args(&paths)
            .output()
            .expect("run validate.py");
        let verdicts: Vec<Verdict> = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "validate.py gave no JSON report ({e}); exit {:?}, stderr: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        assert_eq!(verdicts.len(), docs.len(), "one verdict per document");
        verdicts
            .into_iter()
            .zip(docs)
            .map(|(mut v, (name, _))| {
                v.file = name.clone();
                v
            })
            .collect()
    }

    /// Checks one document.
    pub fn check_one(&self, rules: Rules, name: &str, xml: &str) -> Verdict {
        self.check(rules, &[(name.to_string(), xml.to_string())])
            .remove(0)
    }
}
