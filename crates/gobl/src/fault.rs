//! What is wrong with a document, an envelope or a request: the one fault type and the one
//! field-error type of folio, from the GOBL rules up to the HTTP error body.
//!
//! Paths have one syntax: dotted keys with bracketed indices, relative to the envelope
//! (`doc.lines[0].item.price`, `head.uuid`, `sigs[0]`), or to the value read when there is no
//! envelope (a request body: `data.head.stamps[0].prv`). `$` alone is the whole value.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A problem found in a document, as reported by a provider (e.g. `gobl`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct Fault {
    /// Who found the fault (`gobl`, `silo`, `webhook`, ...).
    // Faults stored before the provider was kept are GOBL's: a default, yet always written.
    #[serde(default = "gobl")]
    #[cfg_attr(feature = "schema", schema(required = true))]
    pub provider: String,
    /// Machine-readable code.
    pub code: String,
    /// Human-readable explanation.
    pub message: String,
    /// JSON paths of the offending fields, when known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
}

fn gobl() -> String {
    PROVIDER.into()
}

/// The provider of the faults this crate finds.
pub const PROVIDER: &str = "gobl";

impl Fault {
    /// A GOBL fault with a code, message and paths.
    pub fn new(code: &str, message: impl Into<String>, paths: Vec<String>) -> Fault {
        Fault {
            provider: PROVIDER.into(),
            code: code.into(),
            message: message.into(),
            paths,
        }
    }

    /// A GOBL fault at one path.
    pub fn at(path: impl Into<String>, code: &str, message: impl Into<String>) -> Fault {
        Fault::new(code, message, vec![path.into()])
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)?;
        if !self.paths.is_empty() {
            write!(f, " ({})", self.paths.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for Fault {}

/// A path in the [fault syntax](self), spelled out only when a fault or error needs it:
/// building one costs nothing, where a `String` per line and per field would be allocated
/// on every build.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Path<'a> {
    /// A path given whole, e.g. `doc.totals`.
    Root(&'a str),
    /// `parent.key`.
    Member(&'a Path<'a>, &'a str),
    /// `parent[i]`.
    Item(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    /// `self.key`.
    pub(crate) fn member(&'a self, key: &'a str) -> Path<'a> {
        Path::Member(self, key)
    }

    /// `self[i]`.
    pub(crate) fn item(&'a self, i: usize) -> Path<'a> {
        Path::Item(self, i)
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root(s) => f.write_str(s),
            Path::Member(p, k) => write!(f, "{p}.{k}"),
            Path::Item(p, i) => write!(f, "{p}[{i}]"),
        }
    }
}

/// A list of faults, as a build or a validation returns them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faults(pub Vec<Fault>);

impl fmt::Display for Faults {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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

/// A value of the wrong shape or type at a path: in an envelope read, a request body, a query
/// string or a workflow's configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    /// Where, e.g. `head.stamps[0].prv`; `$` for the whole value.
    pub path: String,
    /// What is wrong there.
    pub message: String,
}

impl FieldError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }

    /// The same error one level down, under `prefix` (`head.uuid` under `data` is
    /// `data.head.uuid`; `$` under `data` is `data`).
    pub fn under(self, prefix: &str) -> FieldError {
        let path = match self.path.as_str() {
            "$" | "" => prefix.to_owned(),
            p if p.starts_with('[') => format!("{prefix}{p}"),
            p => format!("{prefix}.{p}"),
        };
        FieldError { path, ..self }
    }

    /// Every error in one line, as an error message says them.
    pub fn describe(errors: &[FieldError]) -> String {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_spell_out_as_written() {
        let lines = Path::Root("doc.lines");
        let line = lines.item(3);
        let taxes = line.member("taxes");
        assert_eq!(
            taxes.item(0).member("rate").to_string(),
            "doc.lines[3].taxes[0].rate"
        );
    }

    #[test]
    fn field_errors_go_under_a_prefix() {
        let e = |p: &str| FieldError::new(p, "x").under("data").path;
        assert_eq!(e("head.stamps[0].prv"), "data.head.stamps[0].prv");
        assert_eq!(e("$"), "data");
        assert_eq!(e("[2]"), "data[2]");
        assert_eq!(e("$schema"), "data.$schema");
    }

    #[test]
    fn stored_faults_without_a_provider_are_gobl_s() {
        let f: Fault = serde_json::from_str(r#"{"code":"x","message":"m"}"#).unwrap();
        assert_eq!(f.provider, "gobl");
        assert_eq!(
            serde_json::to_string(&f).unwrap(),
            r#"{"provider":"gobl","code":"x","message":"m"}"#
        );
    }
}
