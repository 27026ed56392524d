//! What can go wrong, and what the checks found.

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The document is not valid under its profile.
    Fatal,
    /// Worth knowing; the document is still valid.
    Warning,
    /// Information only (for example a term a reader could not map).
    Information,
}

impl Severity {
    /// `fatal`, `warning` or `information`, as in the official reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Fatal => "fatal",
            Severity::Warning => "warning",
            Severity::Information => "information",
        }
    }
}

/// One result of a check, or one note of a reader: a rule id (`BR-CO-15`, `PEPPOL-EN16931-R001`,
/// `BR-DE-15`, or folio's own `folio-unmapped`), where and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's id.
    pub rule: String,
    /// How much it matters.
    pub severity: Severity,
    /// Where: a business term path (`BG-4/BT-27`) or an XML path.
    pub path: String,
    /// What, for a person.
    pub message: String,
}

impl Finding {
    /// A fault of the GOBL builder (rule `gobl-<code>`, its JSON path).
    pub(crate) fn gobl(fault: &gobl::Fault, severity: Severity) -> Finding {
        Finding {
            rule: format!("gobl-{}", fault.code),
            severity,
            path: fault.paths.join(", "),
            message: fault.message.clone(),
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "[{}] {} at {}: {}",
            self.severity.as_str(),
            self.rule,
            self.path,
            self.message
        )
    }
}

/// Why nothing was produced.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The GOBL input is not an invoice (`bill/invoice`).
    #[error("not a GOBL invoice: the document's schema is {0}")]
    NotInvoice(String),
    /// The GOBL input did not build (normalise, calculate, validate).
    #[error("the GOBL document is not valid: {}", join(.0))]
    Gobl(Vec<Finding>),
    /// The invoice cannot be expressed in the target syntax at all (for example no lines).
    #[error("cannot be written as {format}: {}", join(.findings))]
    Unwritable {
        /// The target.
        format: String,
        /// What is missing.
        findings: Vec<Finding>,
    },
    /// The input is not well-formed XML, or not XML at all.
    #[error("not a readable XML document: {0}")]
    NotXml(String),
    /// Well-formed XML that is neither a UBL Invoice / CreditNote nor a CII CrossIndustryInvoice.
    #[error("not a UBL or CII invoice: root element {root} in namespace {namespace}")]
    UnknownDocument {
        /// The root element's local name.
        root: String,
        /// The root element's namespace ("" for none).
        namespace: String,
    },
    /// UBL or CII, but without what an invoice needs to be read (for example no number).
    #[error("cannot read the invoice: {}", join(.0))]
    Unreadable(Vec<Finding>),
    /// The invoice fails its profile's rules, so it is not embedded in a PDF.
    #[error("the invoice fails the rules of its profile: {}", join(.0))]
    Rules(Vec<Finding>),
    /// The format has no PDF carrier (only the CII profiles Factur-X, ZUGFeRD and XRechnung do).
    #[error("{0} cannot be embedded in a PDF; use cii-facturx, cii-zugferd or cii-xrechnung")]
    NoCarrier(String),
    /// The PDF cannot carry the invoice (not PDF/A-3, encrypted, already a hybrid, unreadable),
    /// or holds no invoice to extract.
    #[error("{0}")]
    Pdf(String),
    /// Larger than [`crate::MAX_XML_BYTES`].
    #[error("the document is {0} bytes; at most {max} are read", max = crate::MAX_XML_BYTES)]
    TooLarge(usize),
}

fn join(findings: &[Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("{} {}: {}", f.rule, f.path, f.message))
        .collect::<Vec<_>>()
        .join("; ")
}
