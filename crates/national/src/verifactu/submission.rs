//! The submission (`RegFactuSistemaFacturacion`: `Cabecera` and the records) and what every
//! record ends with (chain, system, generation time, fingerprint).

use super::sum1::Sum1;
use super::system::{self, Software};
use super::{ChainLink, FINGERPRINT_TYPE, NS_SUM, NS_SUM1, NamedNif, text};
use crate::xml::Xml;

/// A `RegFactuSistemaFacturacion` submission of the issuer `obligado` (through
/// `representative`, if any) holding `records` (1 to 1000 record documents from
/// [`Record::record`], signed or not), each embedded byte for byte.
pub fn submission(
    obligado: &NamedNif,
    representative: Option<&NamedNif>,
    records: &[&str],
) -> String {
    let mut x = Xml::new();
    x.open_with(
        "sum:RegFactuSistemaFacturacion",
        &[("xmlns:sum", NS_SUM), ("xmlns:sum1", NS_SUM1)],
    );
    x.group("sum:Cabecera", |x| {
        let mut w = Sum1(x);
        let party = |w: &mut Sum1, p: &NamedNif| {
            w.text("NombreRazon", &text::limit(&p.name, 120));
            w.text("NIF", &p.nif);
        };
        w.group("ObligadoEmision", |w| party(w, obligado));
        if let Some(r) = representative {
            w.group("Representante", |w| party(w, r));
        }
    });
    for r in records {
        x.group("sum:RegistroFactura", |x| x.raw(without_declaration(r)));
    }
    x.close("sum:RegFactuSistemaFacturacion");
    x.finish()
}

/// The document without its XML declaration.
fn without_declaration(doc: &str) -> &str {
    match doc.strip_prefix("<?xml") {
        Some(rest) => rest.find("?>").map_or(doc, |i| rest[i + 2..].trim_start()),
        None => doc,
    }
}

/// What every record ends with: the chain, the system, the generation time and the
/// fingerprint.
pub(crate) fn write_tail(
    w: &mut Sum1,
    previous: Option<&ChainLink>,
    generated: &str,
    huella: &str,
    s: &Software,
) {
    w.group("Encadenamiento", |w| match previous {
        None => w.text("PrimerRegistro", "S"),
        Some(p) => w.group("RegistroAnterior", |w| {
            w.text("IDEmisorFactura", &p.issuer);
            w.text("NumSerieFactura", &p.number);
            w.text("FechaExpedicionFactura", &p.issue_date);
            w.text("Huella", &p.huella);
        }),
    });
    system::write_software(w, s);
    w.text("FechaHoraHusoGenRegistro", generated);
    w.text("TipoHuella", FINGERPRINT_TYPE);
    w.text("Huella", huella);
}
