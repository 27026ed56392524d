//! `FatturaElettronicaHeader`: transmission data, supplier (`CedentePrestatore`) and
//! customer (`CessionarioCommittente`).

use gobl::model::{Address, Invoice, Party, TaxId};

use super::codes::{ascii, is_eu, latin};
use super::format::amount2;
use super::{Error, Options};
use crate::xml::Xml;

/// Recipient code of an Italian business or consumer reached through its PEC or its
/// tax drawer, and of a foreign customer.
const RECIPIENT_ITALY: &str = "0000000";
const RECIPIENT_FOREIGN: &str = "XXXXXXX";
/// `IdCodice` of a foreign party without a tax code (a private person), and of a
/// business outside the EU.
const CODE_FOREIGN_PERSON: &str = "0000000";
const CODE_NON_EU_BUSINESS: &str = "OO99999999999";

/// `FPA12` for the public administration, `FPR12` otherwise: the add-on's
/// `it-sdi-format`, else the `b2g` tag or a six-character office code.
pub(crate) fn transmission_format(inv: &Invoice) -> &str {
    if let Some(f) = inv.tax_ext("it-sdi-format") {
        return f;
    }
    let office_code = inv
        .customer
        .as_ref()
        .and_then(|c| c.inbox_by_key("it-sdi-code"))
        .and_then(|i| i.code.as_deref())
        .is_some_and(|c| c.len() == 6);
    if inv.has_tag("b2g") || office_code {
        "FPA12"
    } else {
        "FPR12"
    }
}

pub(crate) fn write(
    x: &mut Xml,
    inv: &Invoice,
    progressive: &str,
    format: &str,
    opts: &Options,
) -> Result<(), Error> {
    let customer = inv.customer.as_ref().ok_or(Error::Missing("customer"))?;
    x.open("FatturaElettronicaHeader");
    transmission(x, inv, customer, progressive, format, opts)?;
    supplier(x, &inv.supplier)?;
    x.open("CessionarioCommittente");
    x.open("DatiAnagrafici");
    if let Some(id) = customer.tax_id.as_ref().and_then(fiscal_id) {
        tax_id(x, "IdFiscaleIVA", &id.0, &id.1);
    }
    fiscal_code(x, customer);
    profile(x, customer, "customer.name")?;
    x.close("DatiAnagrafici");
    sede(x, customer, "customer.addresses")?;
    x.close("CessionarioCommittente");
    x.close("FatturaElettronicaHeader");
    Ok(())
}

fn transmission(
    x: &mut Xml,
    inv: &Invoice,
    customer: &Party,
    progressive: &str,
    format: &str,
    opts: &Options,
) -> Result<(), Error> {
    let (country, code) = match &opts.transmitter {
        Some(t) => (t.country.clone(), t.code.clone()),
        None => supplier_id(&inv.supplier)?,
    };
    x.open("DatiTrasmissione");
    tax_id(x, "IdTrasmittente", &country, &code);
    x.text("ProgressivoInvio", progressive);
    x.text("FormatoTrasmissione", format);
    x.text("CodiceDestinatario", &recipient_code(customer, format)?);
    x.opt("PECDestinatario", pec(customer));
    x.close("DatiTrasmissione");
    Ok(())
}

/// The SDI code of the customer's inbox; the generic codes for a foreign customer and for
/// one reached by PEC or through its tax drawer (private invoices only: a public office
/// always has its code).
fn recipient_code(customer: &Party, format: &str) -> Result<String, Error> {
    if customer.tax_country().is_some_and(|c| c != "IT") {
        return Ok(RECIPIENT_FOREIGN.into());
    }
    let code = customer
        .inbox_by_key("it-sdi-code")
        .and_then(|i| i.code.clone());
    match code {
        Some(c) => Ok(c),
        None if format == "FPA12" => Err(Error::Missing("customer.inboxes[it-sdi-code]")),
        None => Ok(RECIPIENT_ITALY.into()),
    }
}

fn pec(customer: &Party) -> Option<&str> {
    let inbox = customer.inbox_by_key("it-sdi-pec")?;
    inbox.email.as_deref().or(inbox.code.as_deref())
}

pub(super) fn supplier_id(s: &Party) -> Result<(String, String), Error> {
    s.tax_id
        .as_ref()
        .and_then(fiscal_id)
        .ok_or(Error::Missing("supplier.tax_id.code"))
}

fn supplier(x: &mut Xml, s: &Party) -> Result<(), Error> {
    let (country, code) = supplier_id(s)?;
    x.open("CedentePrestatore");
    x.open("DatiAnagrafici");
    tax_id(x, "IdFiscaleIVA", &country, &code);
    fiscal_code(x, s);
    profile(x, s, "supplier.name")?;
    let regime = s
        .ext
        .get("it-sdi-fiscal-regime")
        .map_or("RF01", String::as_str);
    x.text("RegimeFiscale", regime);
    x.close("DatiAnagrafici");
    sede(x, s, "supplier.addresses")?;
    registration(x, s);
    contacts(x, s);
    x.close("CedentePrestatore");
    Ok(())
}

/// The `IdFiscaleIVA` of a tax identity: an Italian one needs its code (without it the
/// party is known by its fiscal code); a foreign private person has the generic code, and
/// a business outside the EU the generic non-EU one.
fn fiscal_id(id: &TaxId) -> Option<(String, String)> {
    let code = match id.code.as_deref().filter(|c| !c.is_empty()) {
        None if id.country == "IT" => return None,
        None => CODE_FOREIGN_PERSON.to_string(),
        Some(_) if !is_eu(&id.country) => CODE_NON_EU_BUSINESS.to_string(),
        Some(c) => c.to_string(),
    };
    Some((id.country.clone(), code))
}

fn tax_id(x: &mut Xml, name: &str, country: &str, code: &str) {
    x.group(name, |x| {
        x.text("IdPaese", country);
        x.text("IdCodice", code);
    });
}

fn fiscal_code(x: &mut Xml, p: &Party) {
    let code = p.identity_by_key("it-fiscal-code").map(|i| i.code.as_str());
    x.opt("CodiceFiscale", code);
}

/// `Anagrafica`: a company by its name, else a person by name, surname and title.
fn profile(x: &mut Xml, p: &Party, what: &'static str) -> Result<(), Error> {
    x.open("Anagrafica");
    if let Some(name) = p.name.as_deref().filter(|n| !n.is_empty()) {
        x.text("Denominazione", &latin(name, 80));
    } else {
        let person = p.people.first().ok_or(Error::Missing(what))?;
        let n = &person.name;
        x.text("Nome", &latin(n.given.as_deref().unwrap_or_default(), 60));
        x.text(
            "Cognome",
            &latin(n.surname.as_deref().unwrap_or_default(), 60),
        );
        let title = n.prefix.as_deref().map(|t| ascii(t, 10));
        x.opt("Titolo", title.as_deref().filter(|t| t.len() >= 2));
    }
    x.close("Anagrafica");
    Ok(())
}

fn sede(x: &mut Xml, p: &Party, what: &'static str) -> Result<(), Error> {
    let a = p.addresses.first().ok_or(Error::Missing(what))?;
    let country = a.country.as_deref().or(p.tax_country()).unwrap_or("IT");
    x.open("Sede");
    address(x, a, country).ok_or(Error::Missing(what))?;
    x.close("Sede");
    Ok(())
}

/// An Italian address keeps its post code and province; a foreign one has the generic
/// post code and no province.
fn address(x: &mut Xml, a: &Address, country: &str) -> Option<()> {
    let street = a.po_box.as_deref().or(a.street.as_deref())?;
    let locality = a.locality.as_deref()?;
    x.text("Indirizzo", &latin(street, 60));
    x.opt(
        "NumeroCivico",
        a.num.as_deref().map(|n| ascii(n, 8)).as_deref(),
    );
    let italian = country == "IT";
    let cap = if italian { a.code.as_deref()? } else { "00000" };
    x.text("CAP", cap);
    x.text("Comune", &latin(locality, 60));
    let province = a.region.as_deref().filter(|r| italian && is_province(r));
    x.opt("Provincia", province);
    x.text("Nazione", country);
    Some(())
}

fn is_province(r: &str) -> bool {
    r.len() == 2 && r.bytes().all(|b| b.is_ascii_uppercase())
}

/// `IscrizioneREA`, when the supplier gives its registry office and number.
fn registration(x: &mut Xml, s: &Party) {
    let Some(r) = &s.registration else { return };
    let (Some(office), Some(entry)) = (r.office.as_deref(), r.entry.as_deref()) else {
        return;
    };
    x.open("IscrizioneREA");
    x.text("Ufficio", office);
    x.text("NumeroREA", entry);
    x.opt("CapitaleSociale", r.capital.map(amount2).as_deref());
    x.opt(
        "SocioUnico",
        r.ext.get("it-sdi-shareholder-state").map(String::as_str),
    );
    let liquidation = r.ext.get("it-sdi-liquidation-state");
    x.text(
        "StatoLiquidazione",
        liquidation.map_or("LN", String::as_str),
    );
    x.close("IscrizioneREA");
}

fn contacts(x: &mut Xml, s: &Party) {
    // The schema's lengths: a telephone of 5 to 12 characters, an email of at least 7.
    let phone = s
        .telephones
        .first()
        .map(|t| t.num.as_str())
        .filter(|t| (5..=12).contains(&t.chars().count()) && t.is_ascii());
    let email = s
        .emails
        .first()
        .map(|e| e.addr.as_str())
        .filter(|e| e.len() >= 7);
    if phone.is_none() && email.is_none() {
        return;
    }
    x.group("Contatti", |x| {
        x.opt("Telefono", phone);
        x.opt("Email", email);
    });
}
