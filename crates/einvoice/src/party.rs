//! BG-4 seller, BG-7 buyer and BG-10 payee from GOBL parties.

use en16931::Identifier;
use en16931::invoice::{Code, Contact, Party, Payee, PostalAddress, TaxRepresentative};
use serde_json::Value;

use crate::gobl_doc::{list, string, text};

/// A GOBL party (`supplier`, `customer`) as an EN 16931 party.
pub(crate) fn write(p: &Value) -> Party {
    let mut party = Party {
        name: string(p, "name"),
        trading_name: string(p, "alias"),
        address: address(p.get("addresses").and_then(|a| a.get(0))),
        contact: contact(p),
        ..Party::default()
    };
    party.vat_identifier = vat_identifier(p);
    for identity in list(p, "identities") {
        let Some(code) = string(identity, "code") else {
            continue;
        };
        let id = match crate::gobl_doc::ext(identity, "iso-scheme-id") {
            Some(scheme) => Identifier::schemed(code, scheme),
            None => Identifier::new(code),
        };
        if text(identity, "type") == Some("FC") {
            // BT-32, the seller's tax registration (as the reader writes it)
            party.tax_registration = string(identity, "code");
            continue;
        }
        if party.legal_registration.is_none() && is_legal(identity) {
            party.legal_registration = Some(id);
        } else {
            party.identifiers.push(id);
        }
    }
    party.electronic_address = electronic_address(p);
    party
}

/// BG-4 and BG-11: the supplier is the seller, unless `ordering.seller` names another party:
/// then that party is the seller and the supplier its tax representative, as the reference
/// converters write it (and folio reads it back).
pub(crate) fn seller(doc: &Value, inv: &mut en16931::Invoice) {
    let supplier = write(doc.get("supplier").unwrap_or(&Value::Null));
    let Some(named) = doc.get("ordering").and_then(|o| o.get("seller")) else {
        inv.seller = supplier;
        return;
    };
    let seller = write(named);
    if seller.name == supplier.name && seller.vat_identifier == supplier.vat_identifier {
        inv.seller = supplier;
        return;
    }
    inv.tax_representative = Some(TaxRepresentative {
        name: supplier.name,
        vat_identifier: supplier.vat_identifier,
        address: supplier.address,
    });
    inv.seller = seller;
}

/// The payee (BG-10): a GOBL `payment.payee` party.
pub(crate) fn payee(p: &Value) -> Payee {
    let written = write(p);
    Payee {
        name: written.name,
        identifier: written.identifiers.into_iter().next(),
        legal_registration: written.legal_registration,
    }
}

/// `DE111111125` from `{"country": "DE", "code": "111111125"}`; Greece writes `EL`.
fn vat_identifier(p: &Value) -> Option<String> {
    let country = text(p, "tax_id/country")?;
    let code = text(p, "tax_id/code")?;
    let prefix = if country == "GR" { "EL" } else { country };
    Some(format!("{prefix}{code}"))
}

/// Identities that register the company (BT-30 / BT-47): those GOBL keys as such.
fn is_legal(identity: &Value) -> bool {
    matches!(
        text(identity, "key"),
        Some("legal" | "siren" | "siret" | "gln" | "duns" | "cr")
    ) || text(identity, "scope") == Some("legal")
}

/// BT-34 / BT-49: the first inbox with a scheme of the CEF EAS list (BR-CL-25), else the
/// first email under scheme `EM`. Inboxes under other schemes are not written
/// ([`unlisted_schemes`] says which).
fn electronic_address(p: &Value) -> Option<Identifier> {
    for inbox in list(p, "inboxes") {
        if let (Some(scheme), Some(code)) = (text(inbox, "scheme"), text(inbox, "code")) {
            if !eas_listed(scheme) {
                continue;
            }
            return Some(Identifier::schemed(code, scheme));
        }
        if let Some(email) = text(inbox, "email") {
            return Some(Identifier::schemed(email, "EM"));
        }
    }
    text(p, "emails/0/addr").map(|e| Identifier::schemed(e, "EM"))
}

fn contact(p: &Value) -> Contact {
    let person = p.get("people").and_then(|l| l.get(0));
    let name = person.and_then(|person| {
        let given = text(person, "name/given").unwrap_or("");
        let surname = text(person, "name/surname").unwrap_or("");
        let full = format!("{given} {surname}").trim().to_string();
        (!full.is_empty()).then_some(full)
    });
    // the contact person's own telephone and email first, then the party's
    let of_person = |path: &str| person.and_then(|person| string(person, path));
    Contact {
        name,
        phone: of_person("telephones/0/num").or_else(|| string(p, "telephones/0/num")),
        email: of_person("emails/0/addr").or_else(|| string(p, "emails/0/addr")),
    }
}

/// A GOBL address: street and number on line 1, `street_extra` on line 2.
pub(crate) fn address(a: Option<&Value>) -> PostalAddress {
    let Some(a) = a else {
        return PostalAddress::default();
    };
    let street = [text(a, "street"), text(a, "num")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let line1 = if street.is_empty() {
        string(a, "po_box")
    } else {
        Some(street)
    };
    PostalAddress {
        line1,
        line2: string(a, "street_extra"),
        city: string(a, "locality"),
        post_code: string(a, "code"),
        subdivision: string(a, "region"),
        country: text(a, "country").map(Code::new),
        ..PostalAddress::default()
    }
}

/// Whether an electronic address scheme is in the CEF EAS code list.
fn eas_listed(scheme: &str) -> bool {
    en16931::codes::guard::EAS.accepts(scheme)
}

/// The `(scheme, code)` of a party's inboxes whose scheme is not in the CEF EAS list.
pub(crate) fn unlisted_schemes(p: &Value) -> Vec<(String, String)> {
    list(p, "inboxes")
        .iter()
        .filter_map(|inbox| {
            let scheme = text(inbox, "scheme")?;
            let code = text(inbox, "code").unwrap_or("");
            (!eas_listed(scheme)).then(|| (scheme.to_string(), code.to_string()))
        })
        .collect()
}
