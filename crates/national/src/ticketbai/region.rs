//! The three provinces, each with its own treasury, QR host and signature policy; an
//! invoice names its province in the `es-tbai-region` extension (the add-on derives it
//! from the supplier's address).

use gobl::model::Invoice;

use super::Error;

const REGION: &str = "es-tbai-region";

/// A province of the Basque Country.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Region {
    /// Araba/Álava (`VI`).
    Araba,
    /// Bizkaia (`BI`).
    Bizkaia,
    /// Gipuzkoa (`SS`).
    Gipuzkoa,
}

impl Region {
    /// The region of an `es-tbai-region` code (`VI`, `BI`, `SS`).
    pub fn from_code(code: &str) -> Option<Region> {
        match code {
            "VI" => Some(Region::Araba),
            "BI" => Some(Region::Bizkaia),
            "SS" => Some(Region::Gipuzkoa),
            _ => None,
        }
    }

    /// Its `es-tbai-region` code.
    pub fn code(self) -> &'static str {
        match self {
            Region::Araba => "VI",
            Region::Bizkaia => "BI",
            Region::Gipuzkoa => "SS",
        }
    }

    /// The region of a built invoice.
    pub fn of(inv: &Invoice) -> Result<Region, Error> {
        of(inv)
    }
}

/// The invoice's province, from `tax.ext.es-tbai-region`.
pub(crate) fn of(inv: &Invoice) -> Result<Region, Error> {
    let code = inv
        .tax_ext(REGION)
        .filter(|c| !c.is_empty())
        .ok_or(Error::Missing("tax.ext.es-tbai-region"))?;
    Region::from_code(code)
        .ok_or_else(|| Error::Unsupported(format!("es-tbai-region '{code}' (VI, BI or SS)")))
}
