//! What the readers notice while reading a received file ([`Finding`]s), and the context the
//! `_parse` files share to note them ([`Ctx`]).

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// Worth knowing; nothing was lost.
    Information,
    /// The document and GOBL disagree, or something was not carried over.
    Warning,
}

/// Something the reader noticed: a total the document states differently from GOBL's
/// calculation, a validation fault of the built invoice, a value not carried over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// How much it matters.
    pub severity: Severity,
    /// Where: the FatturaPA element (`DatiRiepilogo[22.00]/Imposta`) or the GOBL path.
    pub path: String,
    /// What, for a person.
    pub message: String,
}

/// What the readers of each business group share: the findings so far.
#[derive(Debug, Default)]
pub(crate) struct Ctx {
    pub findings: Vec<Finding>,
}

impl Ctx {
    pub(crate) fn note(&mut self, severity: Severity, path: &str, message: String) {
        self.findings.push(Finding {
            severity,
            path: path.to_string(),
            message,
        });
    }
}
