//! Parties as VERI*FACTU identifies them: a Spanish party by its NIF, any other by `IDOtro`
//! (country, identity type, code): `02` the EU VAT number with its country prefix, `04` a
//! foreign tax code, or the type an identity carries in `es-verifactu-identity-type`.

use gobl::model::Party;

use super::Error;
use super::text::limit;

const IDENTITY_TYPE: &str = "es-verifactu-identity-type";

/// EU member states by tax country code (Greece as `EL`).
const EU: &[&str] = &[
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "EL", "ES", "FI", "FR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
];

/// How a party is identified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PartyId {
    /// A Spanish NIF.
    Nif(String),
    /// Another identity: ISO country, `IDType`, code.
    Other {
        country: Option<String>,
        kind: String,
        code: String,
    },
}

/// A named and identified party (`PersonaFisicaJuridicaType`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Identified {
    pub name: String,
    pub id: PartyId,
}

/// The party's name and identity, when it has a usable identity.
pub(crate) fn identify(p: &Party, role: &'static str) -> Result<Option<Identified>, Error> {
    let Some(id) = party_id(p) else {
        return Ok(None);
    };
    let name = p
        .name
        .as_deref()
        .or(p.alias.as_deref())
        .filter(|n| !n.trim().is_empty())
        .ok_or(Error::Missing(role))?;
    Ok(Some(Identified {
        name: limit(name, 120),
        id,
    }))
}

fn party_id(p: &Party) -> Option<PartyId> {
    if let Some(t) = &p.tax_id {
        let code = t.code.as_deref().filter(|c| !c.is_empty());
        return match code {
            Some(c) if t.country == "ES" => Some(PartyId::Nif(c.to_string())),
            Some(c) if EU.contains(&t.country.as_str()) => {
                Some(other(&t.country, "02", &format!("{}{c}", t.country)))
            }
            Some(c) => Some(other(&t.country, "04", c)),
            // A tax id without a code: an identity may still name the party.
            None => identity(p),
        };
    }
    identity(p)
}

/// The first identity that carries a VERI*FACTU identity type.
fn identity(p: &Party) -> Option<PartyId> {
    p.identities.iter().find_map(|i| {
        let kind = i.ext.get(IDENTITY_TYPE)?;
        Some(PartyId::Other {
            country: i.country.clone().filter(|c| !c.is_empty()),
            kind: kind.clone(),
            code: limit(&i.code, 20),
        })
    })
}

fn other(tax_country: &str, kind: &str, code: &str) -> PartyId {
    PartyId::Other {
        country: Some(iso_country(tax_country).to_string()),
        kind: kind.to_string(),
        code: limit(code, 20),
    }
}

/// The ISO code of a tax country code: Greece taxes as `EL`, Northern Ireland as `XI`.
fn iso_country(tax_country: &str) -> &str {
    match tax_country {
        "EL" => "GR",
        "XI" => "GB",
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gobl::model::{Identity, TaxId};

    fn party(country: &str, code: Option<&str>) -> Party {
        Party {
            name: Some("Cliente".into()),
            tax_id: Some(TaxId {
                country: country.into(),
                code: code.map(str::to_string),
                scheme: None,
            }),
            ..Party::default()
        }
    }

    fn id_of(p: &Party) -> PartyId {
        identify(p, "name").unwrap().unwrap().id
    }

    #[test]
    fn spanish_eu_and_foreign_tax_ids() {
        assert_eq!(
            id_of(&party("ES", Some("B63272603"))),
            PartyId::Nif("B63272603".into())
        );
        let other = |c: &str, k: &str, code: &str| PartyId::Other {
            country: Some(c.into()),
            kind: k.into(),
            code: code.into(),
        };
        assert_eq!(
            id_of(&party("EL", Some("094259216"))),
            other("GR", "02", "EL094259216")
        );
        assert_eq!(id_of(&party("US", Some("NA"))), other("US", "04", "NA"));
    }

    #[test]
    fn identities_with_a_type_and_unidentified_parties() {
        let mut p = party("GB", None);
        assert_eq!(identify(&p, "name").unwrap(), None);
        p.identities.push(Identity {
            country: Some("GB".into()),
            code: "123456789".into(),
            ext: [(IDENTITY_TYPE.to_string(), "03".to_string())].into(),
            ..Identity::default()
        });
        assert_eq!(
            id_of(&p),
            PartyId::Other {
                country: Some("GB".into()),
                kind: "03".into(),
                code: "123456789".into()
            }
        );
        p.name = None;
        assert_eq!(
            identify(&p, "customer name"),
            Err(Error::Missing("customer name"))
        );
    }
}
