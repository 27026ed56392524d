//! The parties (seller, buyer, payee, tax representative), their addresses, and the delivery.

use en16931::invoice::{Delivery, Party, Payee, PostalAddress, TaxRepresentative};

use super::build::Doc;
use super::scope::{Place, Scope, Who};
use super::tags::Leaf;
use super::values::Value;

/// Drafts of the party aggregates: one party is open at a time.
#[derive(Default)]
pub(super) struct Drafts {
    party: Party,
    /// The party's VAT identifier (BT-31) and other registration (BT-32) read so far.
    vat_read: bool,
    registration_read: bool,
    /// The open `PartyTaxScheme`: its company identifier and its scheme as written.
    company: Option<String>,
    scheme: Option<String>,
    address: PostalAddress,
    delivery: Delivery,
}

pub(super) fn open(d: &mut Doc, scope: Scope) -> Option<()> {
    let p = &mut d.party;
    match scope {
        Scope::Party(_) => {
            p.party = Party::default();
            (p.vat_read, p.registration_read) = (false, false);
        }
        Scope::PartyTaxScheme(_) => (p.company, p.scheme) = (None, None),
        Scope::Address(_) => p.address = PostalAddress::default(),
        Scope::Delivery => p.delivery = Delivery::default(),
        _ => {}
    }
    Some(())
}

pub(super) fn leaf(d: &mut Doc, scope: Scope, leaf: Leaf, v: &mut Value<'_, '_>) -> Option<()> {
    let p = &mut d.party;
    let party = &mut p.party;
    match (scope, leaf) {
        (Scope::Party(_), Leaf::EndpointID) => party.electronic_address = Some(v.identifier()),
        (Scope::PartyIdentification, Leaf::ID) => party.identifiers.push(v.identifier()),
        (Scope::PartyName, Leaf::Name) => party.trading_name = Some(v.string()),
        (Scope::PartyTaxScheme(_), Leaf::CompanyID) => p.company = Some(v.string()),
        (Scope::TaxScheme, Leaf::ID) => p.scheme = Some(v.raw().to_owned()),
        (Scope::LegalEntity(_), Leaf::RegistrationName) => party.name = Some(v.string()),
        (Scope::LegalEntity(_), Leaf::CompanyID) => {
            party.legal_registration = Some(v.identifier());
        }
        (Scope::LegalEntity(_), Leaf::CompanyLegalForm) => {
            party.additional_legal_information = Some(v.string());
        }
        (Scope::Contact, Leaf::Name) => party.contact.name = Some(v.string()),
        (Scope::Contact, Leaf::Telephone) => party.contact.phone = Some(v.string()),
        (Scope::Contact, Leaf::ElectronicMail) => party.contact.email = Some(v.string()),
        (Scope::Address(_) | Scope::AddressLine | Scope::Country, _) => {
            address_leaf(&mut p.address, leaf, v)?;
        }
        (Scope::Delivery, Leaf::ActualDeliveryDate) => p.delivery.date = Some(v.date()?),
        (Scope::DeliveryLocation, Leaf::ID) => p.delivery.location = Some(v.identifier()),
        (Scope::DeliveryPartyName, Leaf::Name) => p.delivery.party_name = Some(v.string()),
        _ => return None,
    }
    Some(())
}

/// A postal address's values, its `AddressLine` and `Country` included.
fn address_leaf(a: &mut PostalAddress, leaf: Leaf, v: &Value<'_, '_>) -> Option<()> {
    let slot = match leaf {
        Leaf::StreetName => &mut a.line1,
        Leaf::AdditionalStreetName => &mut a.line2,
        Leaf::Line => &mut a.line3,
        Leaf::CityName => &mut a.city,
        Leaf::PostalZone => &mut a.post_code,
        Leaf::CountrySubentity => &mut a.subdivision,
        Leaf::IdentificationCode => {
            a.country = Some(v.code());
            return Some(());
        }
        _ => return None,
    };
    *slot = Some(v.string());
    Some(())
}

pub(super) fn close(d: &mut Doc, scope: Scope) -> Option<()> {
    let p = &mut d.party;
    match scope {
        Scope::Party(who) => place_party(d, who),
        Scope::PartyTaxScheme(who) => tax_scheme(p, who)?,
        Scope::Address(Place::Party) => p.party.address = std::mem::take(&mut p.address),
        Scope::Address(Place::Delivery) => {
            p.delivery.address = Some(std::mem::take(&mut p.address))
        }
        Scope::Delivery => d.inv.delivery = Some(std::mem::take(&mut p.delivery)),
        _ => {}
    }
    Some(())
}

/// A closed party, where its role puts it. The payee and the tax representative keep only
/// what the model has for them (the grammar lets nothing else in).
fn place_party(d: &mut Doc, who: Who) {
    let party = std::mem::take(&mut d.party.party);
    match who {
        Who::Seller => d.inv.seller = party,
        Who::Buyer => d.inv.buyer = party,
        Who::Payee => {
            d.inv.payee = Some(Payee {
                name: party.name.or(party.trading_name),
                identifier: party.identifiers.into_iter().next(),
                legal_registration: party.legal_registration,
            });
        }
        Who::TaxRepresentative => {
            d.inv.tax_representative = Some(TaxRepresentative {
                name: party.name.or(party.trading_name),
                vat_identifier: party.vat_identifier,
                address: party.address,
            });
        }
    }
}

/// A closed `PartyTaxScheme`: the scheme `VAT` makes it the VAT identifier, any other the
/// tax registration; one of each. A scheme that is `VAT` only once trimmed or upper-cased is
/// left to the general reader (its duplicate rules and its mapping disagree on it).
fn tax_scheme(p: &mut Drafts, who: Who) -> Option<()> {
    let scheme = p.scheme.take();
    let vat = scheme.as_deref() == Some("VAT");
    if !vat && scheme.is_some_and(|s| s.trim().eq_ignore_ascii_case("VAT")) {
        return None;
    }
    let read = if vat {
        &mut p.vat_read
    } else {
        &mut p.registration_read
    };
    if *read || (!vat && who == Who::TaxRepresentative) {
        return None;
    }
    *read = true;
    let company = p.company.take();
    if vat {
        p.party.vat_identifier = company;
    } else {
        p.party.tax_registration = company;
    }
    Some(())
}
