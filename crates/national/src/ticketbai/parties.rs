//! `Sujetos`: the issuer (the supplier's NIF and name), the customer when it can be
//! identified, and who issued the file. A customer with a Spanish tax code is named by
//! its NIF; any other by `IDOtro`: `02` and the VAT number with its country prefix for an
//! EU tax code, `04` for another country's, or the identity type of its first identity
//! (`es-tbai-identity-type`, else from the identity's key). A customer without either is
//! left out (a sale to a consumer).

use gobl::model::{Address, Identity, Invoice, Party};

use super::{Error, IssuerRole};
use crate::xml::Xml;

const IDENTITY_TYPE: &str = "es-tbai-identity-type";

/// EU member states by tax country code (Greece as `EL`).
const EU: &[&str] = &[
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "EL", "ES", "FI", "FR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
];

/// The parties, their values written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parties {
    pub issuer_nif: String,
    pub issuer_name: String,
    pub recipient: Option<Recipient>,
    pub role: IssuerRole,
}

/// `IDDestinatario`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Recipient {
    pub id: RecipientId,
    pub name: String,
    pub postcode: Option<String>,
    pub address: Option<String>,
}

/// How the recipient is identified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RecipientId {
    Nif(String),
    Other {
        country: Option<String>,
        kind: String,
        code: String,
    },
}

/// Read the parties from the invoice.
pub(crate) fn build(inv: &Invoice, role: IssuerRole) -> Result<Parties, Error> {
    let tax_id = inv.supplier.tax_id.as_ref();
    if tax_id.is_some_and(|t| t.country != "ES") {
        return Err(Error::Unsupported(
            "a supplier without a Spanish tax id".into(),
        ));
    }
    let nif = tax_id
        .and_then(|t| t.code.as_deref())
        .filter(|c| !c.is_empty())
        .ok_or(Error::Missing("supplier.tax_id.code"))?;
    if nif.chars().count() != 9 {
        return Err(Error::Unsupported(format!("NIF '{nif}' (9 characters)")));
    }
    let name = name(&inv.supplier).ok_or(Error::Missing("supplier.name"))?;
    let recipient = match &inv.customer {
        Some(c) => recipient(c)?,
        None => None,
    };
    Ok(Parties {
        issuer_nif: nif.to_string(),
        issuer_name: name,
        recipient,
        role,
    })
}

fn name(p: &Party) -> Option<String> {
    let n = p.name.as_deref().or(p.alias.as_deref())?;
    let n = limit(n, 120);
    (!n.is_empty()).then_some(n)
}

fn recipient(c: &Party) -> Result<Option<Recipient>, Error> {
    let Some(id) = recipient_id(c) else {
        return Ok(None);
    };
    let name = name(c).ok_or(Error::Missing("customer.name"))?;
    let addr = c
        .addresses
        .first()
        .filter(|a| a.code.as_deref().is_some_and(|c| !c.trim().is_empty()));
    Ok(Some(Recipient {
        id,
        name,
        postcode: addr.and_then(|a| a.code.as_deref()).map(|c| limit(c, 20)),
        address: addr.map(|a| limit(&address(a), 250)),
    }))
}

fn recipient_id(c: &Party) -> Option<RecipientId> {
    let tax = c.tax_id.as_ref();
    let code = tax
        .and_then(|t| t.code.as_deref())
        .filter(|c| !c.is_empty());
    match (tax, code) {
        (Some(t), Some(code)) if t.country == "ES" => Some(RecipientId::Nif(code.to_string())),
        (Some(t), Some(code)) => Some(foreign_tax_id(&t.country, code)),
        _ => {
            let tax_country = tax.map(|t| iso_country(&t.country).to_string());
            c.identities
                .iter()
                .filter(|i| !i.code.is_empty())
                .find_map(|i| identity(i, tax_country.clone()))
        }
    }
}

/// `02` and the VAT number with its country prefix for an EU tax code, `04` otherwise.
fn foreign_tax_id(country: &str, code: &str) -> RecipientId {
    let (kind, code) = if EU.contains(&country) {
        let prefixed = if code.starts_with(country) {
            code.to_string()
        } else {
            format!("{country}{code}")
        };
        ("02", prefixed)
    } else {
        ("04", code.to_string())
    };
    RecipientId::Other {
        country: Some(iso_country(country).to_string()),
        kind: kind.into(),
        code: limit(&code, 20),
    }
}

/// An identity document: its type from the add-on's extension, else from its key.
fn identity(i: &Identity, tax_country: Option<String>) -> Option<RecipientId> {
    let kind = match i.ext.get(IDENTITY_TYPE) {
        Some(k) => k.as_str(),
        None => match i.key.as_deref()? {
            "passport" => "03",
            "foreign" => "04",
            "resident" => "05",
            "other" => "06",
            _ => return None,
        },
    };
    let country = i.country.clone().filter(|c| !c.is_empty()).or(tax_country);
    Some(RecipientId::Other {
        country,
        kind: kind.into(),
        code: limit(&i.code, 20),
    })
}

/// The ISO code of a tax country code: Greece taxes as `EL`, Northern Ireland as `XI`.
fn iso_country(tax_country: &str) -> &str {
    match tax_country {
        "EL" => "GR",
        "XI" => "GB",
        c => c,
    }
}

/// The customer's country for the breakdown: its tax id's, else its first identity's.
pub(crate) fn country(c: &Party) -> Option<&str> {
    if let Some(t) = c.tax_id.as_ref().filter(|t| !t.country.is_empty()) {
        return Some(&t.country);
    }
    c.identities
        .iter()
        .find_map(|i| i.country.as_deref().filter(|c| !c.is_empty()))
}

/// `Direccion`: the post box, or street and number with block, floor, door and extra line.
fn address(a: &Address) -> String {
    if let Some(b) = a.po_box.as_deref().filter(|b| !b.is_empty()) {
        return format!("PO Box / Apdo {b}");
    }
    let mut parts: Vec<&str> = [a.street.as_deref(), a.num.as_deref()]
        .into_iter()
        .flatten()
        .filter(|s| !s.trim().is_empty())
        .collect();
    parts.extend(
        [a.block.as_deref(), a.floor.as_deref()]
            .into_iter()
            .flatten()
            .filter(|s| !s.trim().is_empty()),
    );
    let mut out = parts.join(", ");
    if let Some(door) = a.door.as_deref().filter(|d| !d.is_empty()) {
        out = format!("{out} {door}");
    }
    if let Some(extra) = a.street_extra.as_deref().filter(|d| !d.is_empty()) {
        out = format!("{out}\n{extra}");
    }
    if out.trim().is_empty() {
        // The locality stands in for an address without a street.
        out = a.locality.clone().unwrap_or_default();
    }
    out
}

fn limit(s: &str, max: usize) -> String {
    s.trim().chars().take(max).collect()
}

/// Write `Sujetos`.
pub(crate) fn write(x: &mut Xml, p: &Parties) {
    x.group("Sujetos", |x| {
        x.group("Emisor", |x| {
            x.text("NIF", &p.issuer_nif);
            x.text("ApellidosNombreRazonSocial", &p.issuer_name);
        });
        if let Some(r) = &p.recipient {
            x.group("Destinatarios", |x| {
                x.group("IDDestinatario", |x| write_recipient(x, r));
            });
        }
        x.text("EmitidaPorTercerosODestinatario", p.role.code());
    });
}

fn write_recipient(x: &mut Xml, r: &Recipient) {
    match &r.id {
        RecipientId::Nif(nif) => x.text("NIF", nif),
        RecipientId::Other {
            country,
            kind,
            code,
        } => x.group("IDOtro", |x| {
            x.opt("CodigoPais", country.as_deref());
            x.text("IDType", kind);
            x.text("ID", code);
        }),
    }
    x.text("ApellidosNombreRazonSocial", &r.name);
    x.opt("CodigoPostal", r.postcode.as_deref());
    x.opt("Direccion", r.address.as_deref());
}
