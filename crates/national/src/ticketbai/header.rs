//! `CabeceraFactura`: series and number, the moment of issue, the simplified flag, and
//! for a credit or debit note the invoices it corrects (`FacturaRectificativa`,
//! `FacturasRectificadasSustituidas`).

use gobl::model::{DocumentRef, Invoice};

use super::Error;
use super::time::{self, Issued};
use crate::xml::Xml;

const CORRECTION: &str = "es-tbai-correction";
const SIMPLIFIED: &str = "es-tbai-simplified";

/// `Tipo` of a correction: by differences, the only kind the reference writes.
const BY_DIFFERENCES: &str = "I";

/// The invoice header, its values written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    pub series: Option<String>,
    pub number: String,
    pub issued: Issued,
    pub simplified: bool,
    /// `Codigo` (R1–R5) of a correction.
    pub correction: Option<String>,
    pub corrected: Vec<Corrected>,
}

/// An invoice a correction names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Corrected {
    pub series: Option<String>,
    pub number: String,
    pub issue_date: String,
}

/// Read the header from the invoice.
pub(crate) fn build(inv: &Invoice, issued: &Issued) -> Result<Header, Error> {
    let corrected = inv
        .preceding
        .iter()
        .map(corrected)
        .collect::<Result<Vec<_>, _>>()?;
    if corrected.len() > 100 {
        return Err(Error::Unsupported(format!(
            "{} preceding invoices (TicketBAI names 100 at most)",
            corrected.len()
        )));
    }
    let correction = match inv.preceding.first() {
        Some(p) => Some(
            p.ext
                .get(CORRECTION)
                .filter(|c| !c.is_empty())
                .cloned()
                .ok_or(Error::Missing("preceding[0].ext.es-tbai-correction"))?,
        ),
        None => None,
    };
    Ok(Header {
        series: series(inv.series.as_deref(), "series")?,
        number: number(&inv.code, "code")?,
        issued: issued.clone(),
        simplified: inv.tax_ext(SIMPLIFIED) == Some("S") || inv.has_tag("simplified"),
        correction,
        corrected,
    })
}

fn corrected(r: &DocumentRef) -> Result<Corrected, Error> {
    let date = r.issue_date.ok_or(Error::Missing("preceding.issue_date"))?;
    Ok(Corrected {
        series: series(r.series.as_deref(), "preceding.series")?,
        number: number(&r.code, "preceding.code")?,
        issue_date: time::date(date),
    })
}

/// `SerieFactura`: up to 20 characters, absent when empty.
fn series(s: Option<&str>, what: &str) -> Result<Option<String>, Error> {
    let Some(s) = s.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    within_20(s, what)?;
    Ok(Some(s.to_string()))
}

/// `NumFactura`: 1 to 20 characters.
fn number(code: &str, what: &'static str) -> Result<String, Error> {
    let code = code.trim();
    if code.is_empty() {
        return Err(Error::Missing(what));
    }
    within_20(code, what)?;
    Ok(code.to_string())
}

fn within_20(s: &str, what: &str) -> Result<(), Error> {
    if s.chars().count() > 20 {
        return Err(Error::Unsupported(format!(
            "{what} '{s}' (TicketBAI takes 20 characters at most)"
        )));
    }
    Ok(())
}

/// Write `CabeceraFactura`.
pub(crate) fn write(x: &mut Xml, h: &Header) {
    x.group("CabeceraFactura", |x| {
        x.opt("SerieFactura", h.series.as_deref());
        x.text("NumFactura", &h.number);
        x.text("FechaExpedicionFactura", &h.issued.date);
        x.text("HoraExpedicionFactura", &h.issued.time);
        x.text("FacturaSimplificada", if h.simplified { "S" } else { "N" });
        if let Some(code) = &h.correction {
            x.group("FacturaRectificativa", |x| {
                x.text("Codigo", code);
                x.text("Tipo", BY_DIFFERENCES);
            });
        }
        if !h.corrected.is_empty() {
            x.group("FacturasRectificadasSustituidas", |x| {
                for c in &h.corrected {
                    x.group("IDFacturaRectificadaSustituida", |x| {
                        x.opt("SerieFactura", c.series.as_deref());
                        x.text("NumFactura", &c.number);
                        x.text("FechaExpedicionFactura", &c.issue_date);
                    });
                }
            });
        }
    });
}
