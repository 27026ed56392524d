//! Why a document could not be signed: one error for the signer (`xades.rs`) and the helpers it
//! calls (`root.rs`, canonicalisation), kept below them so they need not import the signer.

/// Why a document could not be signed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    /// The document is not well-formed XML.
    #[error("the document is not well-formed XML: {0}")]
    NotWellFormed(String),
    /// The document element has no content to hold the signature (`<x/>`).
    #[error("the document element is empty (<x/>): there is nowhere to put the signature")]
    EmptyDocumentElement,
    /// The document element has an `xml:` attribute (`xml:lang`, `xml:space`…), which
    /// verifiers disagree on carrying into the signature's parts.
    #[error(
        "the document element has the attribute {0}: a signature of it would not verify everywhere"
    )]
    XmlAttributeOnDocumentElement(String),
    /// Canonical XML could not be made of the document.
    #[error("the document cannot be canonicalised: {0}")]
    Canonicalisation(String),
}

impl From<super::c14n::C14nError> for SignError {
    fn from(e: super::c14n::C14nError) -> SignError {
        SignError::Canonicalisation(e.0)
    }
}
