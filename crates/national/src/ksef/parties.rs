//! The parties: the seller (`Podmiot1`), the buyer (`Podmiot2`, with its local-government
//! and VAT-group flags) and the third parties (`Podmiot3`) that the parties' identities
//! with a `pl-favat-third-party-role` name (a VAT group member, a local government unit,
//! a factor, a payer, …).

use gobl::model::{Address, Identity, Invoice, Party};

use super::Error;
use super::codes::{eu_code, is_nip};
use super::format::token;
use crate::xml::Xml;

const EXT_JST: &str = "pl-favat-jst";
const EXT_GROUP_VAT: &str = "pl-favat-group-vat";
const EXT_ROLE: &str = "pl-favat-third-party-role";
/// FA(3) allows at most 100 third parties.
const MAX_THIRD_PARTIES: usize = 100;

pub(super) fn write(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    seller(x, &inv.supplier)?;
    buyer(x, inv.customer.as_ref());
    for (identity, role) in third_parties(inv) {
        third_party(x, identity, role);
    }
    Ok(())
}

/// `Podmiot1`: a Polish taxpayer with its NIP, name and address.
fn seller(x: &mut Xml, s: &Party) -> Result<(), Error> {
    let tax_id = s.tax_id.as_ref().ok_or(Error::Missing("supplier.tax_id"))?;
    if tax_id.country != "PL" {
        return Err(Error::Unsupported(format!(
            "a supplier taxed in {} (KSeF takes Polish taxpayers)",
            tax_id.country
        )));
    }
    let nip = tax_id
        .code
        .as_deref()
        .ok_or(Error::Missing("supplier.tax_id.code"))?;
    if !is_nip(nip) {
        return Err(Error::Invalid(format!("supplier NIP '{nip}'")));
    }
    let name = party_name(s).ok_or(Error::Missing("supplier.name"))?;
    let address = s
        .addresses
        .first()
        .ok_or(Error::Missing("supplier.addresses"))?;
    x.open("Podmiot1");
    x.group("DaneIdentyfikacyjne", |x| {
        x.text("NIP", nip);
        x.text("Nazwa", &name);
    });
    write_address(x, address, "PL")?;
    contact(x, s);
    x.close("Podmiot1");
    Ok(())
}

/// `Podmiot2`: identified by NIP, EU VAT number, other tax number or none at all.
fn buyer(x: &mut Xml, c: Option<&Party>) {
    x.open("Podmiot2");
    x.group("DaneIdentyfikacyjne", |x| {
        let tax_id = c.and_then(|c| c.tax_id.as_ref());
        let code = tax_id
            .and_then(|t| t.code.as_deref())
            .filter(|c| !c.is_empty());
        match (tax_id, code) {
            (Some(t), Some(code)) => identification(x, &t.country, code),
            _ => x.text("BrakID", "1"),
        }
        if let Some(name) = c.and_then(party_name) {
            x.text("Nazwa", &name);
        }
    });
    if let Some(c) = c {
        if let Some(a) = c.addresses.first() {
            let country = c.tax_country().unwrap_or("PL");
            // An address FA(3) cannot write is left out: it is optional for the buyer.
            let _ = write_address(x, a, country);
        }
        contact(x, c);
    }
    let flag = |key| {
        c.and_then(|c| c.ext.get(key))
            .map_or("2", String::as_str)
            .to_string()
    };
    x.text("JST", &flag(EXT_JST));
    x.text("GV", &flag(EXT_GROUP_VAT));
    x.close("Podmiot2");
}

/// A tax number: a Polish NIP, an EU VAT number with its country, or another country's.
fn identification(x: &mut Xml, country: &str, code: &str) {
    if country == "PL" && is_nip(code) {
        x.text("NIP", code);
    } else if let Some(eu) = eu_code(country).filter(|_| eu_vat_shaped(code)) {
        x.text("KodUE", eu);
        x.text("NrVatUE", code);
    } else {
        if !country.is_empty() {
            x.text("KodKraju", country);
        }
        x.text("NrID", &code.chars().take(50).collect::<String>());
    }
}

/// `TNrVatUE`: up to 12 capital letters, digits, `+` or `*`.
fn eu_vat_shaped(code: &str) -> bool {
    (1..=12).contains(&code.len())
        && code
            .bytes()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase() || c == b'+' || c == b'*')
}

/// The identities of the supplier and customer that carry a third-party role.
fn third_parties(inv: &Invoice) -> Vec<(&Identity, &str)> {
    let supplier = inv.supplier.identities.iter();
    let customer = inv.customer.iter().flat_map(|c| c.identities.iter());
    supplier
        .chain(customer)
        .filter_map(|i| i.ext.get(EXT_ROLE).map(|r| (i, r.as_str())))
        .take(MAX_THIRD_PARTIES)
        .collect()
}

/// `Podmiot3`: the identity's code as its identification, and its role.
fn third_party(x: &mut Xml, identity: &Identity, role: &str) {
    x.open("Podmiot3");
    x.group("DaneIdentyfikacyjne", |x| {
        let code = identity.code.trim();
        if code.is_empty() {
            x.text("BrakID", "1");
        } else {
            identification(x, identity.country.as_deref().unwrap_or(""), code);
        }
        if let Some(label) = identity.label.as_deref().and_then(|l| token(l, 512)) {
            x.text("Nazwa", &label);
        }
    });
    x.text("Rola", role);
    x.close("Podmiot3");
}

/// The party's name, or its first person's name.
fn party_name(p: &Party) -> Option<String> {
    if let Some(n) = p.name.as_deref().and_then(|n| token(n, 512)) {
        return Some(n);
    }
    let n = &p.people.first()?.name;
    let parts = [
        &n.prefix,
        &n.given,
        &n.middle,
        &n.surname,
        &n.surname2,
        &n.suffix,
    ];
    let joined: Vec<&str> = parts.iter().filter_map(|p| p.as_deref()).collect();
    token(&joined.join(" "), 512)
}

/// `Adres`: the street line (street, number, block, floor, door; or the PO box), then the
/// post code and town.
fn write_address(x: &mut Xml, a: &Address, default_country: &str) -> Result<(), Error> {
    let line1 = match a.po_box.as_deref().filter(|b| !b.is_empty()) {
        Some(b) => b.to_string(),
        None => join(&[&a.street, &a.num, &a.block, &a.floor, &a.door]),
    };
    let line2 = join(&[&a.code, &a.locality]);
    let (line1, line2) = if line1.is_empty() {
        (line2, String::new())
    } else {
        (line1, line2)
    };
    let line1 = token(&line1, 512).ok_or(Error::Missing("address street or locality"))?;
    let country = a.country.as_deref().unwrap_or(default_country);
    x.group("Adres", |x| {
        x.text("KodKraju", country);
        x.text("AdresL1", &line1);
        if let Some(l2) = token(&line2, 512) {
            x.text("AdresL2", &l2);
        }
    });
    Ok(())
}

fn join(parts: &[&Option<String>]) -> String {
    let present: Vec<&str> = parts
        .iter()
        .filter_map(|p| p.as_deref())
        .filter(|p| !p.trim().is_empty())
        .collect();
    present.join(", ")
}

/// `DaneKontaktowe`: the first email and telephone the schema accepts.
fn contact(x: &mut Xml, p: &Party) {
    let email = p
        .emails
        .iter()
        .map(|e| e.addr.trim())
        .find(|e| e.contains('@') && (3..=255).contains(&e.len()));
    let phone = p
        .telephones
        .iter()
        .map(|t| t.num.trim())
        .find(|t| !t.is_empty() && t.chars().count() <= 16);
    if email.is_none() && phone.is_none() {
        return;
    }
    x.group("DaneKontaktowe", |x| {
        x.opt("Email", email);
        x.opt("Telefon", phone);
    });
}
