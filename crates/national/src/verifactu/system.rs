//! The invoicing system that generates the records (`SistemaInformatico`): folio itself,
//! produced by the company the options name.

use super::sum1::Sum1;
use super::{Error, text};

/// The invoicing system that generates the records (`SistemaInformatico`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Software {
    /// Name of the company (or person) that produces the system.
    pub producer_name: String,
    /// Its Spanish NIF.
    pub producer_nif: String,
    /// The system's name (30 characters).
    pub name: String,
    /// The system's code given by its producer (2 characters).
    pub id: String,
    /// Its version.
    pub version: String,
    /// The installation's number.
    pub installation: String,
    /// Whether the system can only work as VERI*FACTU (sending every record).
    pub only_verifactu: bool,
    /// Whether the system can serve several taxpayers.
    pub multi_taxpayer: bool,
    /// Whether this installation serves several taxpayers now.
    pub several_taxpayers: bool,
}

impl Software {
    /// folio as the invoicing system, produced by `producer_name` (NIF `producer_nif`):
    /// a multi-workspace server that sends every record.
    pub fn folio(producer_name: &str, producer_nif: &str, installation: &str) -> Software {
        Software {
            producer_name: producer_name.into(),
            producer_nif: producer_nif.into(),
            name: "folio".into(),
            id: "FO".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            installation: installation.into(),
            only_verifactu: true,
            multi_taxpayer: true,
            several_taxpayers: true,
        }
    }
}

/// The system's identity is complete.
pub(crate) fn check_software(s: &Software) -> Result<(), Error> {
    if s.producer_nif.chars().count() != 9 {
        return Err(Error::Missing(
            "options.software.producer_nif (a 9-character NIF)",
        ));
    }
    let required = [
        (&s.producer_name, "options.software.producer_name"),
        (&s.name, "options.software.name"),
        (&s.id, "options.software.id"),
        (&s.version, "options.software.version"),
        (&s.installation, "options.software.installation"),
    ];
    if let Some((_, what)) = required.iter().find(|(v, _)| v.trim().is_empty()) {
        return Err(Error::Missing(what));
    }
    Ok(())
}

/// Write `SistemaInformatico`.
pub(crate) fn write_software(w: &mut Sum1, s: &Software) {
    let yes_no = |b: bool| if b { "S" } else { "N" };
    w.group("SistemaInformatico", |w| {
        w.text("NombreRazon", &text::limit(&s.producer_name, 120));
        w.text("NIF", &s.producer_nif);
        w.text("NombreSistemaInformatico", &text::limit(&s.name, 30));
        w.text("IdSistemaInformatico", &text::limit(&s.id, 2));
        w.text("Version", &text::limit(&s.version, 50));
        w.text("NumeroInstalacion", &text::limit(&s.installation, 100));
        w.text("TipoUsoPosibleSoloVerifactu", yes_no(s.only_verifactu));
        w.text("TipoUsoPosibleMultiOT", yes_no(s.multi_taxpayer));
        w.text("IndicadorMultiplesOT", yes_no(s.several_taxpayers));
    });
}
