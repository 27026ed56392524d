//! The fiscal QR mark of a Spanish invoice: VERI*FACTU (AEAT) or TicketBAI (the Basque
//! provinces). The caller gives the verification URL (and the TBAI identifier); this module
//! draws the code and says what the template prints around it and where.
//!
//! What the law asks, and how folio's template meets it:
//! - VERI*FACTU (Orden HAC/1177/2024, arts. 20–21, and AEAT's «Características del QR y
//!   especificaciones del servicio de cotejo»): a QR code of ISO/IEC 18004, error correction
//!   level M, 30×30 to 40×40 mm, with a blank margin around it (2 mm at least, 6 mm
//!   recommended), at the start of the invoice before its content (on a portrait page near the
//!   top margin, centred or to the left), once, on the first page; the text «QR tributario:»
//!   before it and, from a VERI*FACTU system, the legend «VERI*FACTU», in type no smaller than
//!   the invoice's.
//! - TicketBAI (the provinces' «Especificaciones funcionales y técnicas del sistema TicketBAI»,
//!   § 4.3): the TBAI identifier on one line with the QR code below it, the code 30×30 to
//!   40×40 mm, level M, with 6 mm of blank margin, at the start of the invoice; an invoice of
//!   several pages carries both on its last page (on the others they may be).
//!
//! folio draws the symbol 35 mm wide (the middle of the range) with a 6 mm blank margin for
//! both. invopop/gobl.html places both marks in the invoice's header as well.

use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};
use serde_json::{Value, json};

use crate::Error;

/// The virtual file of the QR code's drawing.
pub(crate) const QR_PATH: &str = "/fiscal-qr.svg";

/// Width of the QR symbol (its modules, without the blank margin), in millimetres.
pub(crate) const QR_SIZE_MM: f64 = 35.0;

/// Blank margin kept around the symbol, in millimetres.
pub(crate) const QR_MARGIN_MM: f64 = 6.0;

/// The fiscal system whose mark an invoice carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FiscalKind {
    /// AEAT's VERI*FACTU: «QR tributario:», the code and «VERI*FACTU».
    VeriFactu,
    /// The Basque provinces' TicketBAI: the TBAI identifier and the code.
    TicketBai,
}

/// The fiscal QR mark printed on an invoice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FiscalMark {
    /// Which system's mark.
    pub kind: FiscalKind,
    /// The verification URL the QR code carries (AEAT's `ValidarQR`, the province's
    /// `qrtbai`), exactly as given.
    pub qr_url: String,
    /// The TBAI identifier (required for TicketBAI, not printed for VERI*FACTU).
    pub identifier: Option<String>,
}

impl FiscalMark {
    /// A VERI*FACTU mark for the record's `ValidarQR` URL.
    pub fn verifactu(qr_url: impl Into<String>) -> Self {
        FiscalMark {
            kind: FiscalKind::VeriFactu,
            qr_url: qr_url.into(),
            identifier: None,
        }
    }

    /// A TicketBAI mark for the invoice's QR URL and TBAI identifier.
    pub fn ticketbai(qr_url: impl Into<String>, identifier: impl Into<String>) -> Self {
        FiscalMark {
            kind: FiscalKind::TicketBai,
            qr_url: qr_url.into(),
            identifier: Some(identifier.into()),
        }
    }
}

/// The mark's entry in the view and the SVG drawing of its QR code.
pub(crate) fn view(mark: &FiscalMark) -> Result<(Value, Vec<u8>), Error> {
    if mark.qr_url.trim().is_empty() {
        return Err(Error::Fiscal("the QR URL is empty".into()));
    }
    let (above, below, last_page) = match mark.kind {
        FiscalKind::VeriFactu => ("QR tributario:".to_string(), Some("VERI*FACTU"), false),
        FiscalKind::TicketBai => {
            let id = mark
                .identifier
                .as_deref()
                .map(str::trim)
                .filter(|id| !id.is_empty())
                .ok_or_else(|| {
                    Error::Fiscal("a TicketBAI mark needs its TBAI identifier".into())
                })?;
            (id.to_string(), None, true)
        }
    };
    let entry = json!({
        "qr": QR_PATH,
        "url": mark.qr_url,
        "above": above,
        "below": below,
        "size_mm": QR_SIZE_MM,
        "margin_mm": QR_MARGIN_MM,
        "last_page": last_page,
    });
    Ok((entry, qr_svg(&mark.qr_url)?.into_bytes()))
}

/// The code as SVG, one unit a module and no quiet zone: the template scales it to
/// [`QR_SIZE_MM`] and keeps the margin blank itself.
fn qr_svg(url: &str) -> Result<String, Error> {
    let code = QrCode::with_error_correction_level(url.as_bytes(), EcLevel::M)
        .map_err(|e| Error::Fiscal(format!("the QR URL cannot be encoded: {e}")))?;
    Ok(code
        .render::<svg::Color>()
        .quiet_zone(false)
        .module_dimensions(1, 1)
        .build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ticketbai_mark_needs_its_identifier_and_a_url_that_fits() {
        let mut mark = FiscalMark::ticketbai("https://batuz.eus/QRTBAI/?id=x", " ");
        assert!(matches!(view(&mark), Err(Error::Fiscal(_))));
        mark.identifier = None;
        assert!(matches!(view(&mark), Err(Error::Fiscal(_))));
        assert!(matches!(
            view(&FiscalMark::verifactu("")),
            Err(Error::Fiscal(_))
        ));
        // more than a version 40 code holds at level M
        let long = "x".repeat(2400);
        assert!(matches!(
            view(&FiscalMark::verifactu(long)),
            Err(Error::Fiscal(_))
        ));
    }

    #[test]
    fn the_drawing_has_no_quiet_zone() {
        let (entry, svg) = view(&FiscalMark::verifactu("https://example.test/q")).unwrap();
        let svg = String::from_utf8(svg).unwrap();
        // version 2 (25 modules) holds this URL at level M
        assert!(svg.contains(r#"viewBox="0 0 25 25""#), "{svg}");
        assert_eq!(entry["above"], "QR tributario:");
        assert_eq!(entry["below"], "VERI*FACTU");
    }
}
