//! Validation of calculated documents: faults with a code, a message and a JSON path.

use serde_json::{Map, Value};

/// One validation or calculation problem.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fault {
    /// JSON path of the offending field, e.g. `$.supplier.tax_id.code`.
    pub path: String,
    /// Short machine-readable code, e.g. `required` or `tax_id`.
    pub code: String,
    /// Human-readable message.
    pub message: String,
}

impl Fault {
    /// A fault at `path`.
    pub fn new(path: &str, code: &str, message: &str) -> Self {
        Fault {
            path: path.into(),
            code: code.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} ({})", self.path, self.message, self.code)
    }
}

/// A list of faults.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Faults(pub Vec<Fault>);

impl std::fmt::Display for Faults {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, x) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{x}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Faults {}

/// Validate a calculated document.
pub fn validate_document(_doc: &Map<String, Value>) -> Faults {
    Faults::default()
}
