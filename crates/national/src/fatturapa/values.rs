//! Checked values read from the element tree (amounts, percentages, dates, required texts):
//! a value that is not what its element holds is an [`ImportError::Invalid`], never guessed.

use gobl::num::{Amount, Percentage};

use super::import_error::ImportError;
use super::tree::Node;

/// The amount at `path` under `node`, checked; `None` when absent.
pub(crate) fn amount(node: &Node, path: &str) -> Result<Option<Amount>, ImportError> {
    node.text(path).map(|t| parse_amount(t, path)).transpose()
}

pub(crate) fn parse_amount(text: &str, path: &str) -> Result<Amount, ImportError> {
    Amount::parse(text).map_err(|_| ImportError::Invalid {
        path: path.to_string(),
        value: text.to_string(),
        what: "amount",
    })
}

/// The percentage figure at `path` (`22.00` → `22.00%`); `None` when absent.
pub(crate) fn percent(node: &Node, path: &str) -> Result<Option<Percentage>, ImportError> {
    node.text(path)
        .map(|t| {
            Percentage::parse(&format!("{t}%")).map_err(|_| ImportError::Invalid {
                path: path.to_string(),
                value: t.to_string(),
                what: "percentage",
            })
        })
        .transpose()
}

/// The ISO date at `path`, checked; `None` when absent.
pub(crate) fn date(node: &Node, path: &str) -> Result<Option<String>, ImportError> {
    node.text(path)
        .map(|t| {
            chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d")
                .map(|d| d.to_string())
                .map_err(|_| ImportError::Invalid {
                    path: path.to_string(),
                    value: t.to_string(),
                    what: "date",
                })
        })
        .transpose()
}

/// A required text.
pub(crate) fn required<'a>(node: &'a Node, path: &str) -> Result<&'a str, ImportError> {
    node.text(path)
        .ok_or_else(|| ImportError::Missing(path.to_string()))
}
