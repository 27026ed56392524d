//! Why a received file cannot be read: the one error of the element tree, the `_parse`
//! files and `read.rs`, kept below them all.

use super::limits::MAX_BYTES;

/// Why a file cannot be read as a FatturaPA invoice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Larger than [`MAX_BYTES`].
    #[error("the file is {0} bytes; at most {max} are read", max = MAX_BYTES)]
    TooLarge(usize),
    /// Not well-formed XML (or with a DTD).
    #[error("not XML: {0}")]
    NotXml(String),
    /// An encoding other than UTF-8 or a single-byte code page (ISO-8859-1, windows-1252).
    #[error("unsupported encoding {0}")]
    Encoding(String),
    /// Nesting or element count beyond the reader's limits.
    #[error("beyond the reader's limits: {0}")]
    Limit(String),
    /// The document element is not FatturaPA's.
    #[error("not a FatturaPA document: <{root}> in namespace {namespace:?}")]
    NotFatturaPa {
        /// Local name of the document element.
        root: String,
        /// Its namespace URI.
        namespace: String,
    },
    /// Something the invoice cannot be read without (the path names it).
    #[error("{0} is missing")]
    Missing(String),
    /// A value that is not what its element holds (an amount, a date).
    #[error("{path}: {value:?} is not a valid {what}")]
    Invalid {
        /// The element.
        path: String,
        /// Its text.
        value: String,
        /// What it should be.
        what: &'static str,
    },
    /// GOBL could not calculate the invoice (its faults).
    #[error("the invoice cannot be calculated: {}", .0.join("; "))]
    Build(Vec<String>),
}
