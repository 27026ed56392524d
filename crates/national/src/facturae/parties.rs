//! The parties: seller and buyer (and the third party of the file header), each a tax
//! identification and either a legal entity or an individual, chosen from the kind of
//! tax code; the buyer's administrative centres (accounting office, managing body,
//! processing unit) for a public body.

use gobl::model::{Address, Invoice, Party};

use super::Error;
use super::codes::{alpha3, person_type, residence_type};
use super::format::clip;
use crate::xml::Xml;

/// `RoleTypeCode` of the administrative centres.
const ROLE_FISCAL: &str = "01";
const ROLE_RECEIVER: &str = "02";
const ROLE_PAYER: &str = "03";

/// `Parties`: the supplier as seller, the customer as buyer.
pub(crate) fn write(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let customer = inv.customer.as_ref().ok_or(Error::Missing("customer"))?;
    x.open("Parties");
    x.open("SellerParty");
    business(x, &inv.supplier, "supplier", None)?;
    x.close("SellerParty");
    x.open("BuyerParty");
    business(x, customer, "customer", Some(inv))?;
    x.close("BuyerParty");
    x.close("Parties");
    Ok(())
}

/// The file header's third party (the issuer signing for the seller): tax identification
/// and legal entity.
pub(crate) fn third_party(x: &mut Xml, party: &Party) -> Result<(), Error> {
    x.open("ThirdParty");
    tax_identification(x, party, "third_party")?;
    legal_entity(x, party, "third_party")?;
    x.close("ThirdParty");
    Ok(())
}

/// A `BusinessType`: tax identification, administrative centres (buyer only), then the
/// legal entity or the individual.
fn business(
    x: &mut Xml,
    party: &Party,
    role: &'static str,
    buyer_of: Option<&Invoice>,
) -> Result<(), Error> {
    let code = tax_identification(x, party, role)?;
    if let Some(inv) = buyer_of {
        administrative_centres(x, inv);
    }
    if person_type(&code) == "F" {
        individual(x, party, role)
    } else {
        legal_entity(x, party, role)
    }
}

/// `TaxIdentification`; returns the tax code written (without dashes).
fn tax_identification(x: &mut Xml, party: &Party, role: &'static str) -> Result<String, Error> {
    let tax_id = party
        .tax_id
        .as_ref()
        .ok_or(Error::Missing(tax_id_path(role)))?;
    let code = tax_id
        .code
        .as_deref()
        .filter(|c| !c.is_empty())
        .ok_or(Error::Missing(tax_id_path(role)))?
        .replace('-', "");
    x.group("TaxIdentification", |x| {
        x.text("PersonTypeCode", person_type(&code));
        x.text("ResidenceTypeCode", residence_type(&tax_id.country));
        x.text("TaxIdentificationNumber", &code);
    });
    Ok(code)
}

fn tax_id_path(role: &'static str) -> &'static str {
    match role {
        "supplier" => "supplier.tax_id.code",
        "customer" => "customer.tax_id.code",
        _ => "third_party.tax_id.code",
    }
}

fn address_path(role: &'static str) -> &'static str {
    match role {
        "supplier" => "supplier.addresses",
        "customer" => "customer.addresses",
        _ => "third_party.addresses",
    }
}

/// `LegalEntity`: the party's name, address and contact details.
fn legal_entity(x: &mut Xml, party: &Party, role: &'static str) -> Result<(), Error> {
    let addr = party
        .addresses
        .first()
        .ok_or(Error::Missing(address_path(role)))?;
    x.open("LegalEntity");
    x.text(
        "CorporateName",
        clip(party.name.as_deref().unwrap_or_default(), 80),
    );
    address(x, addr, party.tax_country());
    contact_details(x, party);
    x.close("LegalEntity");
    Ok(())
}

/// `Individual`: the first person's given name and surnames (the party's name when it
/// names no person), address and contact details.
fn individual(x: &mut Xml, party: &Party, role: &'static str) -> Result<(), Error> {
    let addr = party
        .addresses
        .first()
        .ok_or(Error::Missing(address_path(role)))?;
    let name = party.people.first().map(|p| &p.name);
    let given = name.and_then(|n| n.given.as_deref());
    x.open("Individual");
    x.text(
        "Name",
        clip(given.or(party.name.as_deref()).unwrap_or_default(), 40),
    );
    x.text(
        "FirstSurname",
        clip(
            name.and_then(|n| n.surname.as_deref()).unwrap_or_default(),
            40,
        ),
    );
    x.opt(
        "SecondSurname",
        name.and_then(|n| n.surname2.as_deref())
            .map(|s| clip(s, 40)),
    );
    address(x, addr, party.tax_country());
    contact_details(x, party);
    x.close("Individual");
    Ok(())
}

/// `AddressInSpain` for a Spanish address, else `OverseasAddress` (post code and town in
/// one element). An address without a country takes the party's tax country.
fn address(x: &mut Xml, addr: &Address, fallback_country: Option<&str>) {
    let country = addr
        .country
        .as_deref()
        .or(fallback_country)
        .unwrap_or_default();
    let code = alpha3(country).unwrap_or(country);
    let town = addr.locality.as_deref().unwrap_or_default();
    let post_code = addr.code.as_deref().unwrap_or_default();
    if country == "ES" {
        x.group("AddressInSpain", |x| {
            x.text("Address", clip(&address_line(addr), 80));
            x.text("PostCode", post_code);
            x.text("Town", clip(town, 50));
            x.text(
                "Province",
                clip(addr.region.as_deref().unwrap_or_default(), 20),
            );
            x.text("CountryCode", code);
        });
    } else {
        let post_town = [post_code, town]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        x.group("OverseasAddress", |x| {
            x.text("Address", clip(&address_line(addr), 80));
            x.text("PostCodeAndTown", clip(&post_town, 50));
            x.text(
                "Province",
                clip(addr.region.as_deref().unwrap_or_default(), 20),
            );
            x.text("CountryCode", code);
        });
    }
}

/// The post office box, else street, number, block, floor and door joined by commas.
fn address_line(addr: &Address) -> String {
    if let Some(b) = addr.po_box.as_deref().filter(|b| !b.is_empty()) {
        return b.to_string();
    }
    [
        &addr.street,
        &addr.num,
        &addr.block,
        &addr.floor,
        &addr.door,
    ]
    .iter()
    .filter_map(|p| p.as_deref().filter(|s| !s.is_empty()))
    .collect::<Vec<_>>()
    .join(", ")
}

/// `ContactDetails`: first telephone, first email, first person's name; nothing when the
/// party has none of them.
fn contact_details(x: &mut Xml, party: &Party) {
    let phone = party.telephones.first().map(|t| t.num.as_str());
    let email = party.emails.first().map(|e| e.addr.as_str());
    let person = party.people.first().map(|p| {
        let n = &p.name;
        format!(
            "{} {}",
            n.given.as_deref().unwrap_or_default(),
            n.surname.as_deref().unwrap_or_default()
        )
        .trim()
        .to_string()
    });
    if phone.is_none() && email.is_none() && person.as_deref().is_none_or(str::is_empty) {
        return;
    }
    x.group("ContactDetails", |x| {
        x.opt("Telephone", phone.map(|s| clip(s, 15)));
        x.opt("ElectronicMail", email.map(|s| clip(s, 60)));
        x.opt("ContactPersons", person.as_deref().map(|s| clip(s, 40)));
    });
}

/// `AdministrativeCentres` of a public body: each tax-scope identity of the customer is an
/// accounting office, the delivery receiver's first identity the managing body, the
/// ordering buyer's the processing unit; nothing when there are none.
fn administrative_centres(x: &mut Xml, inv: &Invoice) {
    let Some(customer) = inv.customer.as_ref() else {
        return;
    };
    let mut centres: Vec<(&str, &str, &Party)> = customer
        .identities
        .iter()
        .filter(|i| i.scope.as_deref() == Some("tax") && !i.code.is_empty())
        .map(|i| (i.code.as_str(), ROLE_FISCAL, customer))
        .collect();
    let receiver = inv.delivery.as_ref().and_then(|d| d.receiver.as_ref());
    let buyer = inv.ordering.as_ref().and_then(|o| o.buyer.as_ref());
    for (party, role) in [(receiver, ROLE_RECEIVER), (buyer, ROLE_PAYER)] {
        if let Some(p) = party
            && let Some(id) = p.identities.first().filter(|i| !i.code.is_empty())
        {
            centres.push((id.code.as_str(), role, p));
        }
    }
    if centres.is_empty() {
        return;
    }
    x.open("AdministrativeCentres");
    for (code, role, party) in centres {
        x.open("AdministrativeCentre");
        x.text("CentreCode", code);
        x.text("RoleTypeCode", role);
        // The address is required: a centre without one takes the customer's.
        if let Some(addr) = party.addresses.first().or(customer.addresses.first()) {
            address(x, addr, party.tax_country().or(customer.tax_country()));
        }
        x.close("AdministrativeCentre");
    }
    x.close("AdministrativeCentres");
}
