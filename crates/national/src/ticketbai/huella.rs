//! `HuellaTBAI`: the link to the issuer's previous file (`EncadenamientoFacturaAnterior`:
//! its series, number, issue date and the first 100 characters of its signature value)
//! and the software that wrote this one.

use super::{ChainLink, Error, Software};
use crate::xml::Xml;

/// The software's identity is complete and fits the schema.
pub(crate) fn check_software(s: &Software) -> Result<(), Error> {
    if s.developer_nif.chars().count() != 9 {
        return Err(Error::Missing(
            "options.software.developer_nif (a 9-character NIF)",
        ));
    }
    if s.name.trim().is_empty() {
        return Err(Error::Missing("options.software.name"));
    }
    if s.version.trim().is_empty() {
        return Err(Error::Missing("options.software.version"));
    }
    for (what, text, max) in [("name", &s.name, 120), ("version", &s.version, 20)] {
        if text.trim().chars().count() > max {
            return Err(Error::Unsupported(format!(
                "software {what} '{text}' ({max} characters at most)"
            )));
        }
    }
    if s.licenses.values().any(|l| l.trim().chars().count() > 20) {
        return Err(Error::Unsupported(
            "a TicketBAI licence longer than 20 characters".into(),
        ));
    }
    Ok(())
}

/// Write `HuellaTBAI`.
pub(crate) fn write(x: &mut Xml, previous: Option<&ChainLink>, license: &str, s: &Software) {
    x.group("HuellaTBAI", |x| {
        if let Some(p) = previous {
            x.group("EncadenamientoFacturaAnterior", |x| {
                x.opt("SerieFacturaAnterior", Some(p.series.trim()));
                x.text("NumFacturaAnterior", p.number.trim());
                x.text("FechaExpedicionFacturaAnterior", &p.issue_date);
                let signature: String = p.signature.chars().take(100).collect();
                x.text("SignatureValueFirmaFacturaAnterior", &signature);
            });
        }
        x.group("Software", |x| {
            x.text("LicenciaTBAI", license.trim());
            x.group("EntidadDesarrolladora", |x| x.text("NIF", &s.developer_nif));
            x.text("Nombre", s.name.trim());
            x.text("Version", s.version.trim());
        });
    });
}

/// The previous file's link can be written: a number, a `dd-mm-yyyy` date, a signature.
pub(crate) fn check_link(p: &ChainLink) -> Result<(), Error> {
    let bad = |what: &str| Err(Error::Unsupported(format!("previous link: {what}")));
    if p.number.trim().is_empty() || p.number.trim().chars().count() > 20 {
        return bad("the number must have 1 to 20 characters");
    }
    if p.series.trim().chars().count() > 20 {
        return bad("the series must have 20 characters at most");
    }
    if chrono::NaiveDate::parse_from_str(&p.issue_date, "%d-%m-%Y").is_err() {
        return bad("the issue date must be dd-mm-yyyy");
    }
    if p.signature.trim().is_empty() {
        return bad("the signature value is empty");
    }
    Ok(())
}
