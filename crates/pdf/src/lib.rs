//! PDF invoices from GOBL documents.
//!
//! [`render`] builds a *view* of the invoice — every label in the chosen language, every
//! amount, percentage and date in the locale's style — and lays it out with a Typst template
//! (folio's `templates/invoice.typ`, or an operator's) through Typst as a library. Output is
//! PDF/A-3b with the fonts embedded and subset, so the PDF can become a Factur-X / ZUGFeRD
//! hybrid without conversion. A Spanish invoice can carry its fiscal QR mark (VERI*FACTU or
//! TicketBAI, [`FiscalMark`]) where the law places it.
//!
//! Why Typst: real layout (tables whose header repeats on every page, page X of Y, text that
//! wraps and never overflows) from a short, readable template that operators can replace,
//! PDF/A-3b from its `krilla` backend, and no browser or external program at run time. Writing
//! the layout directly on a PDF crate would have meant hand-made line breaking and pagination.
//!
//! Pure: no I/O; fonts (DejaVu Sans) are compiled in.

mod fiscal;
mod format;
mod labels;
mod options;
mod view;
mod world;

use chrono::{Datelike, Timelike, Utc};
use serde_json::Value;
use typst::foundations::{Datetime, Smart};
use typst_layout::PagedDocument;
use typst_pdf::{PdfOptions, PdfStandard, PdfStandards, Timestamp};

pub use fiscal::{FiscalKind, FiscalMark};
pub use format::Style;
pub use labels::LOCALES;
pub use options::{Layout, Options};
pub use view::number as series_code;

/// folio's template.
pub const TEMPLATE: &str = include_str!("../templates/invoice.typ");

/// Why no PDF was made.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input is not a GOBL invoice.
    #[error("not a GOBL invoice: the document's schema is {0}")]
    NotInvoice(String),
    /// The logo is not PNG, JPEG or SVG.
    #[error("the logo is not a PNG, JPEG or SVG image")]
    Logo,
    /// The fiscal mark cannot be drawn (an empty or over-long URL, a TicketBAI mark without
    /// its identifier).
    #[error("the fiscal QR mark: {0}")]
    Fiscal(String),
    /// The template did not compile or lay out (an operator's template, usually).
    #[error("the template failed: {0}")]
    Template(String),
}

/// Renders a GOBL envelope or invoice as a PDF/A-3b file.
pub fn render(input: &Value, opts: &Options) -> Result<Vec<u8>, Error> {
    let mut view = view::build(input, opts)?;
    let mut files = images(&mut view, opts)?;
    files.push(("/view.json".to_string(), view.to_string().into_bytes()));
    let created = opts.created.unwrap_or_else(Utc::now);
    let now = Datetime::from_ymd_hms(
        created.year(),
        created.month() as u8,
        created.day() as u8,
        created.hour() as u8,
        created.minute() as u8,
        created.second() as u8,
    )
    .ok_or_else(|| Error::Template("the creation time is out of range".into()))?;
    let template = opts
        .template
        .clone()
        .unwrap_or_else(|| TEMPLATE.to_string());
    let world = world::RenderWorld::new(template, files, now);
    let document: PagedDocument = typst::compile(&world).output.map_err(diagnostics)?;
    let standards = PdfStandards::new(&[PdfStandard::A_3b])
        .map_err(|e| Error::Template(e.message().to_string()))?;
    let options = PdfOptions {
        creator: Smart::Custom(Some("folio".into())),
        timestamp: Some(Timestamp::new_utc(now)),
        standards,
        ..PdfOptions::default()
    };
    typst_pdf::pdf(&document, &options).map_err(diagnostics)
}

/// The logo and the fiscal QR code as virtual files, named in the view.
fn images(view: &mut Value, opts: &Options) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let mut files = Vec::new();
    if let Some(logo) = &opts.logo {
        let path = format!("/logo.{}", logo_kind(logo).ok_or(Error::Logo)?);
        view["logo"] = Value::String(path.clone());
        files.push((path, logo.clone()));
    }
    view["fiscal"] = Value::Null;
    if let Some(mark) = &opts.fiscal {
        let (entry, svg) = fiscal::view(mark)?;
        view["fiscal"] = entry;
        files.push((fiscal::QR_PATH.to_string(), svg));
    }
    Ok(files)
}

/// The extension of an image by its signature.
fn logo_kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG") {
        Some("png")
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("jpg")
    } else if String::from_utf8_lossy(&bytes[..bytes.len().min(512)]).contains("<svg") {
        Some("svg")
    } else {
        None
    }
}

fn diagnostics(errors: typst::ecow::EcoVec<typst::diag::SourceDiagnostic>) -> Error {
    let text: Vec<String> = errors.iter().map(|e| e.message.to_string()).collect();
    Error::Template(text.join("; "))
}
