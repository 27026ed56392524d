//! The parties: seller and buyer (both required by UBL), payee, tax representative, and the
//! delivery.

use en16931::invoice::{Party, PaymentMeans, PostalAddress};

use super::Doc;
use super::out::Out;

pub(super) fn write(out: &mut Out, doc: &Doc) {
    let inv = doc.inv;
    // BT-90 rides on the seller in UBL, as a SEPA party identification.
    let creditor = match inv.payment.as_ref().and_then(|p| p.means.as_ref()) {
        Some(PaymentMeans::DirectDebit(d)) => d.creditor_identifier.as_deref(),
        _ => None,
    };
    // The crate reports an empty party (UBL requires both), and drops a buyer's further
    // identifiers (BT-46 is 0..1) and the buyer's legal form (UBL-CR-244), reported.
    let buyer = &inv.buyer;
    if buyer.identifiers.len() > 1 || buyer.additional_legal_information.is_some() {
        out.fail();
    }
    for (wrapper, p, creditor) in [
        ("cac:AccountingSupplierParty", &inv.seller, creditor),
        ("cac:AccountingCustomerParty", buyer, None),
    ] {
        let written = out.group(wrapper, |out| {
            out.group("cac:Party", |out| party(out, p, creditor));
        });
        if !written {
            out.fail();
        }
    }
    payee(out, doc);
    tax_representative(out, doc);
    delivery(out, doc);
}

fn party(out: &mut Out, p: &Party, creditor: Option<&str>) {
    if let Some(e) = &p.electronic_address {
        out.ident("cbc:EndpointID", e);
    }
    for i in &p.identifiers {
        out.group("cac:PartyIdentification", |out| out.ident("cbc:ID", i));
    }
    if let Some(c) = creditor.filter(|c| !c.trim().is_empty()) {
        let already = p
            .identifiers
            .iter()
            .any(|i| i.scheme() == Some("SEPA") && i.content() == c);
        if !already {
            out.group("cac:PartyIdentification", |out| {
                out.leaf_attrs("cbc:ID", &[("schemeID", "SEPA")], c);
            });
        }
    }
    if let Some(n) = &p.trading_name {
        out.group("cac:PartyName", |out| out.leaf("cbc:Name", n));
    }
    out.group("cac:PostalAddress", |out| address(out, &p.address));
    for (id, scheme) in [(&p.vat_identifier, "VAT"), (&p.tax_registration, "FC")] {
        if let Some(id) = id {
            out.group("cac:PartyTaxScheme", |out| {
                out.leaf("cbc:CompanyID", id);
                out.group("cac:TaxScheme", |out| out.leaf("cbc:ID", scheme));
            });
        }
    }
    out.group("cac:PartyLegalEntity", |out| {
        if let Some(n) = &p.name {
            out.leaf("cbc:RegistrationName", n);
        }
        if let Some(l) = &p.legal_registration {
            out.ident("cbc:CompanyID", l);
        }
        if let Some(a) = &p.additional_legal_information {
            out.leaf("cbc:CompanyLegalForm", a);
        }
    });
    let c = &p.contact;
    out.group("cac:Contact", |out| {
        if let Some(n) = &c.name {
            out.leaf("cbc:Name", n);
        }
        if let Some(t) = &c.phone {
            out.leaf("cbc:Telephone", t);
        }
        if let Some(e) = &c.email {
            out.leaf("cbc:ElectronicMail", e);
        }
    });
}

/// An address's lines, for `cac:PostalAddress` and the delivery's `cac:Address`.
pub(super) fn address(out: &mut Out, a: &PostalAddress) {
    for (name, v) in [
        ("cbc:StreetName", &a.line1),
        ("cbc:AdditionalStreetName", &a.line2),
        ("cbc:CityName", &a.city),
        ("cbc:PostalZone", &a.post_code),
        ("cbc:CountrySubentity", &a.subdivision),
    ] {
        if let Some(v) = v {
            out.leaf(name, v);
        }
    }
    // BT-163 goes into the one cac:AddressLine of the subset.
    if let Some(l) = &a.line3 {
        out.group("cac:AddressLine", |out| out.leaf("cbc:Line", l));
    }
    if let Some(c) = &a.country {
        out.group("cac:Country", |out| {
            out.leaf("cbc:IdentificationCode", c.as_str());
        });
    }
}

/// BG-10.
fn payee(out: &mut Out, doc: &Doc) {
    let Some(p) = &doc.inv.payee else {
        return;
    };
    out.group("cac:PayeeParty", |out| {
        if let Some(i) = &p.identifier {
            out.group("cac:PartyIdentification", |out| out.ident("cbc:ID", i));
        }
        if let Some(n) = &p.name {
            out.group("cac:PartyName", |out| out.leaf("cbc:Name", n));
        }
        if let Some(l) = &p.legal_registration {
            out.group("cac:PartyLegalEntity", |out| out.ident("cbc:CompanyID", l));
        }
    });
}

/// BG-11.
fn tax_representative(out: &mut Out, doc: &Doc) {
    let Some(t) = &doc.inv.tax_representative else {
        return;
    };
    out.group("cac:TaxRepresentativeParty", |out| {
        if let Some(n) = &t.name {
            out.group("cac:PartyName", |out| out.leaf("cbc:Name", n));
        }
        out.group("cac:PostalAddress", |out| address(out, &t.address));
        if let Some(v) = &t.vat_identifier {
            out.group("cac:PartyTaxScheme", |out| {
                out.leaf("cbc:CompanyID", v);
                out.group("cac:TaxScheme", |out| out.leaf("cbc:ID", "VAT"));
            });
        }
    });
}

/// BG-13.
fn delivery(out: &mut Out, doc: &Doc) {
    let Some(d) = &doc.inv.delivery else {
        return;
    };
    out.group("cac:Delivery", |out| {
        if let Some(date) = d.date {
            out.date("cbc:ActualDeliveryDate", date);
        }
        out.group("cac:DeliveryLocation", |out| {
            if let Some(l) = &d.location {
                out.ident("cbc:ID", l);
            }
            if let Some(a) = &d.address {
                out.group("cac:Address", |out| address(out, a));
            }
        });
        if let Some(n) = &d.party_name {
            out.group("cac:DeliveryParty", |out| {
                out.group("cac:PartyName", |out| out.leaf("cbc:Name", n));
            });
        }
    });
}
