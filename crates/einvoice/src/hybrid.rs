//! Hybrid invoices: a PDF/A-3 rendering with the CII invoice embedded — Factur-X (`factur-x.xml`),
//! ZUGFeRD (the same file and metadata since ZUGFeRD 2.1) and XRechnung (`xrechnung.xml`).
//!
//! The PDF half (the embedded file, `/AF`, `/AFRelationship`, the Factur-X XMP extension schema
//! and properties) is `en16931-formats`' `zugferd` module, appended as one incremental update
//! so the rendering's bytes stay an unchanged prefix. It only embeds an invoice that passes its
//! profile and a PDF that already declares PDF/A-3; folio's renderer writes PDF/A-3b.

use std::time::SystemTime;

use en16931::profiles::{En16931, XRechnung};
use en16931::validation::profile::Validated;
use en16931_formats::zugferd::{self, EmbedOptions, Embeddable, Limits};
use serde_json::Value;

use crate::context::RuleSet;
use crate::{Error, Format, Severity};

/// A hybrid PDF and the invoice it carries.
#[derive(Debug, Clone)]
pub struct Hybrid {
    /// The PDF/A-3 file.
    pub pdf: Vec<u8>,
    /// The embedded CII, byte for byte.
    pub xml: Vec<u8>,
    /// The embedded file's name (`factur-x.xml`, `xrechnung.xml`).
    pub file_name: String,
}

/// An invoice found in a PDF.
#[derive(Debug, Clone)]
pub struct Extracted {
    /// The embedded XML, byte for byte.
    pub xml: Vec<u8>,
    /// The embedded file's name.
    pub file_name: String,
    /// The conformance level the metadata declares (`EN 16931`, `XRECHNUNG`...).
    pub profile: String,
    /// How the PDF departs from what the Factur-X specification asks, if it does.
    pub divergences: Vec<String>,
}

/// Embeds the CII of a GOBL envelope or document (built for `format` first) in a PDF/A-3
/// rendering. `modified` fixes the embedded file's date for byte-identical output.
pub fn embed(
    pdf: &[u8],
    input: &Value,
    format: Format,
    modified: Option<SystemTime>,
) -> Result<Hybrid, Error> {
    let ctx = format.context();
    if !matches!(
        format,
        Format::CiiFacturx | Format::CiiZugferd | Format::CiiXrechnung
    ) {
        return Err(Error::NoCarrier(ctx.name.to_string()));
    }
    let model = crate::generate::model(input, ctx)?;
    let options = EmbedOptions {
        modified,
        ..EmbedOptions::default()
    };
    match ctx.rules {
        RuleSet::XRechnung => embed_as::<XRechnung>(pdf, model, &options),
        _ => embed_as::<En16931>(pdf, model, &options),
    }
}

/// Embeds an invoice that passes profile `P`. The payload and its name are what
/// `en16931-formats` writes for `P` (its embed reads the file back and refuses any other).
fn embed_as<P: Embeddable>(
    pdf: &[u8],
    model: en16931::Invoice,
    options: &EmbedOptions,
) -> Result<Hybrid, Error> {
    let proof = Validated::<P>::new(model).map_err(|rejected| {
        let fatal = crate::generate::findings(rejected.report())
            .into_iter()
            .filter(|f| f.severity == Severity::Fatal)
            .collect();
        Error::Rules(fatal)
    })?;
    let pdf = zugferd::embed(pdf, &proof, options).map_err(|e| Error::Pdf(e.to_string()))?;
    Ok(Hybrid {
        pdf,
        xml: en16931_formats::write(&proof, en16931_formats::Syntax::Cii)
            .xml
            .into_bytes(),
        file_name: P::FILENAME.to_string(),
    })
}

/// The invoice embedded in a PDF (folio's hybrids or anyone's).
pub fn extract(pdf: &[u8]) -> Result<Extracted, Error> {
    let found = zugferd::extract(pdf, &Limits::default()).map_err(|e| {
        // an encrypted file's names and streams cannot be read: say so rather than "no invoice"
        if pdf.windows(8).any(|w| w == b"/Encrypt") {
            Error::Pdf(
                "the PDF is encrypted; folio reads invoices only from unencrypted PDFs".into(),
            )
        } else {
            Error::Pdf(e.to_string())
        }
    })?;
    Ok(Extracted {
        xml: found.xml,
        file_name: found.filename,
        profile: found.profile.to_string(),
        divergences: found.divergence.iter().map(|d| format!("{d:?}")).collect(),
    })
}

/// Whether the bytes are a PDF (by its signature).
pub fn is_pdf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"%PDF-")
}
