//! Bill documents (invoice, payment, delivery, order, status): normalisation and
//! calculation, operating on the document as JSON so that every input field is carried
//! through unchanged next to the computed ones.

mod combo;
pub mod correct;
mod invoice;
mod invoice_ctx;
mod invoice_lines;
mod invoice_taxes;
mod invoice_totals;
mod line_amounts;
mod norm;
mod scenarios;
mod sublines;
mod total;
pub(crate) mod val;

pub use invoice::calculate_invoice;
pub use invoice_ctx::Rounding;
pub(crate) use norm::schema_path;
pub use norm::{normalize_document, normalize_tax_id_code};

/// Why a document could not be calculated: a message and the JSON path of the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct CalcError {
    /// JSON path of the offending field, in the fault syntax, e.g. `doc.lines[0].item.price`.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl CalcError {
    pub(crate) fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        CalcError {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// A document's number as GOBL joins its series and code (`SAMPLE-001`): either alone when the
/// other is empty, empty when both are.
pub fn series_code(series: &str, code: &str) -> String {
    match (series, code) {
        ("", code) => code.to_string(),
        (series, "") => series.to_string(),
        (series, code) => format!("{series}-{code}"),
    }
}
