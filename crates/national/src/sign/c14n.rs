//! Inclusive Canonical XML 1.0 (without comments) by `xml-sec`: of a whole document, and
//! of the subtree of the element with a given `Id` (a same-document reference `#Id`).

use xml_sec::Document;
use xml_sec::c14n::{C14nAlgorithm, C14nMode, canonicalize};

/// Why a document cannot be canonicalised.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct C14nError(pub String);

/// The algorithm URI for the signature's `CanonicalizationMethod`.
pub const INCLUSIVE_1_0: &str = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";

/// A parsed document, canonicalised in parts.
pub struct Parsed<'a>(Document<'a>);

impl<'a> Parsed<'a> {
    /// Parses a document (no DTD, no external entities).
    pub fn parse(xml: &'a str) -> Result<Parsed<'a>, C14nError> {
        Document::parse(xml)
            .map(Parsed)
            .map_err(|e| C14nError(format!("not well-formed XML: {e}")))
    }

    /// The whole document.
    pub fn whole(&self) -> Result<Vec<u8>, C14nError> {
        self.subset(&|_| true)
    }

    /// The subtree of the element whose `Id` attribute is `id`, with the namespaces in
    /// scope there.
    pub fn element(&self, id: &str) -> Result<Vec<u8>, C14nError> {
        let apex = self
            .0
            .descendants()
            .find(|n| n.is_element() && n.attribute("Id") == Some(id))
            .ok_or_else(|| C14nError(format!("no element with Id {id}")))?
            .id();
        self.subset(&|n| n.ancestors().any(|a| a.id() == apex))
    }

    fn subset(&self, keep: &dyn Fn(xml_sec::Node) -> bool) -> Result<Vec<u8>, C14nError> {
        let algo = C14nAlgorithm::new(C14nMode::Inclusive1_0, false);
        let mut out = Vec::new();
        canonicalize(&self.0, Some(keep), &algo, &mut out)
            .map_err(|e| C14nError(format!("canonicalisation: {e}")))?;
        Ok(out)
    }
}
