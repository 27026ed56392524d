//! The header's agreement (who, against which references) and delivery.

use en16931::invoice::{Party, PostalAddress, SupportingDocument};
use en16931::{DocumentReference, Invoice};

use super::{Out, ident, object_identifier, party_ident};

pub(super) fn agreement(x: &mut Out, inv: &Invoice) {
    x.required("ram:ApplicableHeaderTradeAgreement", |x| {
        if let Some(b) = &inv.buyer_reference {
            x.leaf("ram:BuyerReference", b);
        }
        x.group("ram:SellerTradeParty", |x| party(x, &inv.seller, true));
        x.group("ram:BuyerTradeParty", |x| party(x, &inv.buyer, false));
        if let Some(t) = &inv.tax_representative {
            x.group("ram:SellerTaxRepresentativeTradeParty", |x| {
                if let Some(n) = &t.name {
                    x.leaf("ram:Name", n);
                }
                address(x, &t.address);
                if let Some(v) = &t.vat_identifier {
                    tax_registration(x, "VA", v);
                }
            });
        }
        let orders = [
            (
                "ram:SellerOrderReferencedDocument",
                &inv.sales_order_reference,
            ),
            (
                "ram:BuyerOrderReferencedDocument",
                &inv.purchase_order_reference,
            ),
            ("ram:ContractReferencedDocument", &inv.contract_reference),
        ];
        for (name, r) in orders {
            document_reference(x, name, r.as_ref());
        }
        for a in &inv.attachments {
            attachment(x, a);
        }
        if let Some(t) = &inv.tender_reference {
            x.group("ram:AdditionalReferencedDocument", |x| {
                x.leaf("ram:IssuerAssignedID", t.as_str());
                x.leaf("ram:TypeCode", "50");
            });
        }
        if let Some(o) = &inv.object_identifier {
            object_identifier(x, o);
        }
        if let Some(p) = &inv.project_reference {
            // `ram:Name` is required and has no term: the reference again, as CEN's
            // examples and the crate write it.
            x.group("ram:SpecifiedProcuringProject", |x| {
                x.leaf("ram:ID", p.as_str());
                x.leaf("ram:Name", p.as_str());
            });
        }
    });
}

/// A trade party; only the seller writes BT-33.
fn party(x: &mut Out, p: &Party, seller: bool) {
    // D16B's sequence puts every `ram:ID` before every `ram:GlobalID`.
    for i in p.identifiers.iter().filter(|i| i.scheme().is_none()) {
        party_ident(x, i);
    }
    for i in p.identifiers.iter().filter(|i| i.scheme().is_some()) {
        party_ident(x, i);
    }
    if let Some(n) = &p.name {
        x.leaf("ram:Name", n);
    }
    if seller && let Some(a) = &p.additional_legal_information {
        x.leaf("ram:Description", a);
    }
    x.group("ram:SpecifiedLegalOrganization", |x| {
        if let Some(l) = &p.legal_registration {
            ident(x, "ram:ID", l);
        }
        if let Some(t) = &p.trading_name {
            x.leaf("ram:TradingBusinessName", t);
        }
    });
    let c = &p.contact;
    x.group("ram:DefinedTradeContact", |x| {
        if let Some(n) = &c.name {
            x.leaf("ram:PersonName", n);
        }
        if let Some(t) = &c.phone {
            x.group("ram:TelephoneUniversalCommunication", |x| {
                x.leaf("ram:CompleteNumber", t)
            });
        }
        if let Some(e) = &c.email {
            x.group("ram:EmailURIUniversalCommunication", |x| {
                x.leaf("ram:URIID", e)
            });
        }
    });
    address(x, &p.address);
    if let Some(e) = &p.electronic_address {
        x.group("ram:URIUniversalCommunication", |x| {
            ident(x, "ram:URIID", e)
        });
    }
    if let Some(v) = &p.vat_identifier {
        tax_registration(x, "VA", v);
    }
    // `FC`: BT-32 is a registration other than VAT.
    if let Some(t) = &p.tax_registration {
        tax_registration(x, "FC", t);
    }
}

fn tax_registration(x: &mut Out, scheme: &str, id: &str) {
    x.group("ram:SpecifiedTaxRegistration", |x| {
        x.leaf_with("ram:ID", &[("schemeID", scheme)], id)
    });
}

/// A postal address; a blank one writes nothing.
fn address(x: &mut Out, a: &PostalAddress) {
    x.group("ram:PostalTradeAddress", |x| {
        let texts = [
            ("ram:PostcodeCode", &a.post_code),
            ("ram:LineOne", &a.line1),
            ("ram:LineTwo", &a.line2),
            ("ram:LineThree", &a.line3),
            ("ram:CityName", &a.city),
        ];
        for (name, text) in texts {
            if let Some(t) = text {
                x.leaf(name, t);
            }
        }
        if let Some(c) = &a.country {
            x.leaf("ram:CountryID", c.as_str());
        }
        if let Some(s) = &a.subdivision {
            x.leaf("ram:CountrySubDivisionName", s);
        }
    });
}

fn document_reference(x: &mut Out, name: &'static str, r: Option<&DocumentReference>) {
    if let Some(r) = r {
        x.group(name, |x| x.leaf("ram:IssuerAssignedID", r.as_str()));
    }
}

/// BG-24: a supporting document, its file in base64.
fn attachment(x: &mut Out, a: &SupportingDocument) {
    x.group("ram:AdditionalReferencedDocument", |x| {
        x.leaf("ram:IssuerAssignedID", a.reference.as_str());
        if let Some(u) = &a.uri {
            x.leaf("ram:URIID", u);
        }
        x.leaf("ram:TypeCode", "916");
        if let Some(d) = &a.description {
            x.leaf("ram:Name", d);
        }
        if let Some(f) = &a.attachment {
            x.leaf_with(
                "ram:AttachmentBinaryObject",
                &[("mimeCode", f.mime_code()), ("filename", f.filename())],
                &base64(f.content()),
            );
        }
    });
}

/// RFC 4648 base64 with padding, on one line.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let sextet = |n: u32, shift: u32| char::from(ALPHABET[((n >> shift) & 63) as usize]);
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let byte = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (byte(0) << 16) | (byte(1) << 8) | byte(2);
        out.push(sextet(n, 18));
        out.push(sextet(n, 12));
        out.push(if chunk.len() > 1 { sextet(n, 6) } else { '=' });
        out.push(if chunk.len() > 2 { sextet(n, 0) } else { '=' });
    }
    out
}

pub(super) fn delivery(x: &mut Out, inv: &Invoice) {
    // Required by D16B even when there is nothing to say.
    x.required("ram:ApplicableHeaderTradeDelivery", |x| {
        if let Some(d) = &inv.delivery {
            x.group("ram:ShipToTradeParty", |x| {
                if let Some(l) = &d.location {
                    party_ident(x, l);
                }
                if let Some(n) = &d.party_name {
                    x.leaf("ram:Name", n);
                }
                if let Some(a) = &d.address {
                    address(x, a);
                }
            });
            if let Some(date) = d.date {
                x.group("ram:ActualDeliverySupplyChainEvent", |x| {
                    x.date("ram:OccurrenceDateTime", "udt:DateTimeString", date)
                });
            }
        }
        let advices = [
            (
                "ram:DespatchAdviceReferencedDocument",
                &inv.despatch_advice_reference,
            ),
            (
                "ram:ReceivingAdviceReferencedDocument",
                &inv.receiving_advice_reference,
            ),
        ];
        for (name, r) in advices {
            document_reference(x, name, r.as_ref());
        }
    });
}
