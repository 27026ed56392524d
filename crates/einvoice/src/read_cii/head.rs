//! The document element, its context and header, the transaction, and the header trade
//! agreement (parties, references) and delivery.

use en16931::invoice::{
    Code, Contact, Delivery, InvoiceNote, Party, PostalAddress, SupportingDocument,
    TaxRepresentative,
};
use en16931::{Attachment, DocumentKind, DocumentReference, Identifier, Invoice};

use super::values::{code, date, identifier, own, text, trimmed};
use super::xml::{Doc, Elem, Leaf, R, Seen, Stop};

/// `rsm:CrossIndustryInvoice`.
pub(super) fn invoice<'a>(doc: &mut Doc<'a>, root: &Elem<'a>) -> R<Invoice> {
    let mut inv = Invoice::default();
    let mut seen = Seen::default();
    while let Some(c) = doc.child(root)? {
        seen.once(c.local, &[])?;
        match c.local {
            "ExchangedDocumentContext" => context(doc, &c, &mut inv)?,
            "ExchangedDocument" => document(doc, &c, &mut inv)?,
            "SupplyChainTradeTransaction" => transaction(doc, &c, &mut inv)?,
            _ => return Err(Stop),
        }
    }
    // the kind follows BT-3, against the whole credit-note list, as the crate decides it
    let credit = en16931::codes::generated::CREDIT_NOTE_TYPE_CODES;
    if inv.type_code.as_ref().is_some_and(|c| c.is_in(credit)) {
        inv.kind = DocumentKind::CreditNote;
    }
    Ok(inv)
}

fn context<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, inv: &mut Invoice) -> R<()> {
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        let [id] = match c.local {
            "BusinessProcessSpecifiedDocumentContextParameter"
            | "GuidelineSpecifiedDocumentContextParameter" => doc.leaves(&c, ["ID"])?,
            _ => return Err(Stop),
        };
        if c.local == "BusinessProcessSpecifiedDocumentContextParameter" {
            inv.business_process = text(id.as_ref());
        } else {
            inv.specification_id = text(id.as_ref());
        }
    }
    Ok(())
}

fn document<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, inv: &mut Invoice) -> R<()> {
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &["IncludedNote"])?;
        match c.local {
            "ID" => inv.number = trimmed(&doc.text(&c)?),
            "TypeCode" => inv.type_code = Some(Code::new(own(&doc.text(&c)?))),
            "IssueDateTime" => inv.issue_date = date(doc, &c, "DateTimeString")?,
            "IncludedNote" => {
                let [content, subject] = doc.leaves(&c, ["Content", "SubjectCode"])?;
                inv.notes.push(InvoiceNote {
                    subject_code: code(subject.as_ref()),
                    note: text(content.as_ref()),
                });
            }
            _ => return Err(Stop),
        }
    }
    Ok(())
}

fn transaction<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, inv: &mut Invoice) -> R<()> {
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &["IncludedSupplyChainTradeLineItem"])?;
        match c.local {
            "IncludedSupplyChainTradeLineItem" => inv.lines.push(super::line::line(doc, &c)?),
            "ApplicableHeaderTradeAgreement" => agreement(doc, &c, inv)?,
            "ApplicableHeaderTradeDelivery" => delivery(doc, &c, inv)?,
            "ApplicableHeaderTradeSettlement" => super::settle::settlement(doc, &c, inv)?,
            _ => return Err(Stop),
        }
    }
    Ok(())
}

/// How many additional documents were a tender (50) and an object (130): CEN allows each
/// once (CII-SR-457, CII-SR-458), and the crate reports a second.
#[derive(Default)]
struct Referenced {
    tenders: u8,
    objects: u8,
}

fn agreement<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, inv: &mut Invoice) -> R<()> {
    let mut seen = Seen::default();
    let mut referenced = Referenced::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &["AdditionalReferencedDocument"])?;
        match c.local {
            "BuyerReference" => inv.buyer_reference = trimmed(&doc.text(&c)?),
            "SellerTradeParty" => inv.seller = party(doc, &c, true)?,
            "BuyerTradeParty" => inv.buyer = party(doc, &c, false)?,
            "SellerTaxRepresentativeTradeParty" => {
                inv.tax_representative = Some(representative(doc, &c)?);
            }
            "SellerOrderReferencedDocument" => inv.sales_order_reference = reference(doc, &c)?,
            "BuyerOrderReferencedDocument" => inv.purchase_order_reference = reference(doc, &c)?,
            "ContractReferencedDocument" => inv.contract_reference = reference(doc, &c)?,
            "AdditionalReferencedDocument" => additional(doc, &c, inv, &mut referenced)?,
            "SpecifiedProcuringProject" => {
                let [id, _name] = doc.leaves(&c, ["ID", "Name"])?;
                inv.project_reference = text(id.as_ref()).map(DocumentReference::new);
            }
            _ => return Err(Stop),
        }
    }
    Ok(())
}

/// A referenced document's `ram:IssuerAssignedID`.
fn reference<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<Option<DocumentReference>> {
    let [id] = doc.leaves(e, ["IssuerAssignedID"])?;
    Ok(text(id.as_ref()).map(DocumentReference::new))
}

/// BT-17 (type 50), BT-18 (130) or a supporting document (BG-24), with its file.
fn additional<'a>(
    doc: &mut Doc<'a>,
    e: &Elem<'a>,
    inv: &mut Invoice,
    referenced: &mut Referenced,
) -> R<()> {
    let [id, type_code, scheme, name, uri, file] = doc.leaves(
        e,
        [
            "IssuerAssignedID",
            "TypeCode",
            "ReferenceTypeCode",
            "Name",
            "URIID",
            "AttachmentBinaryObject",
        ],
    )?;
    let id = text(id.as_ref()).unwrap_or_default();
    match text(type_code.as_ref()).as_deref() {
        Some("50") => {
            referenced.tenders += 1;
            inv.tender_reference = Some(DocumentReference::new(id));
        }
        Some("130") => {
            referenced.objects += 1;
            inv.object_identifier = Some(match text(scheme.as_ref()) {
                Some(s) => Identifier::schemed(id, s),
                None => Identifier::new(id),
            });
        }
        _ => inv.attachments.push(SupportingDocument {
            reference: DocumentReference::new(id),
            description: text(name.as_ref()),
            uri: text(uri.as_ref()),
            attachment: file.map(|f| attachment(&f)).transpose()?,
        }),
    }
    if referenced.tenders > 1 || referenced.objects > 1 {
        return Err(Stop);
    }
    Ok(())
}

/// BT-125; one without its mime code or file name is reported by the crate.
fn attachment(file: &Leaf<'_>) -> R<Attachment> {
    let content = crate::base64_text::decode(&file.text).ok_or(Stop)?;
    let mime = file.attrs.get("mimeCode").unwrap_or_default();
    let name = file.attrs.get("filename").unwrap_or_default();
    Attachment::new(content, mime, name).map_err(|_| Stop)
}

/// The seller or the buyer (only the seller has BT-33, `ram:Description`).
fn party<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, seller: bool) -> R<Party> {
    let mut p = Party::default();
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &["ID", "GlobalID", "SpecifiedTaxRegistration"])?;
        match c.local {
            "ID" | "GlobalID" => p.identifiers.push(identifier(&doc.leaf(&c)?)),
            "Name" => p.name = trimmed(&doc.text(&c)?),
            "Description" if seller => p.additional_legal_information = trimmed(&doc.text(&c)?),
            "SpecifiedLegalOrganization" => {
                let [id, trading] = doc.leaves(&c, ["ID", "TradingBusinessName"])?;
                p.legal_registration = id.as_ref().map(identifier);
                p.trading_name = text(trading.as_ref());
            }
            "DefinedTradeContact" => p.contact = contact(doc, &c)?,
            "PostalTradeAddress" => p.address = address(doc, &c)?,
            "URIUniversalCommunication" => {
                let [uri] = doc.leaves(&c, ["URIID"])?;
                p.electronic_address = uri.as_ref().map(identifier);
            }
            "SpecifiedTaxRegistration" => {
                let [id] = doc.leaves(&c, ["ID"])?;
                if let Some(id) = id {
                    // `VA` is the VAT identifier; any other scheme the tax registration
                    if id.attrs.get("schemeID") == Some("VA") {
                        p.vat_identifier = trimmed(&id.text);
                    } else {
                        p.tax_registration = trimmed(&id.text);
                    }
                }
            }
            _ => return Err(Stop),
        }
    }
    Ok(p)
}

fn contact<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<Contact> {
    let mut contact = Contact::default();
    let (mut person, mut department) = (None, None);
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "PersonName" => person = trimmed(&doc.text(&c)?),
            "DepartmentName" => department = trimmed(&doc.text(&c)?),
            "TelephoneUniversalCommunication" => {
                let [number] = doc.leaves(&c, ["CompleteNumber"])?;
                contact.phone = text(number.as_ref());
            }
            "EmailURIUniversalCommunication" => {
                let [uri] = doc.leaves(&c, ["URIID"])?;
                contact.email = text(uri.as_ref());
            }
            _ => return Err(Stop),
        }
    }
    contact.name = person.or(department);
    Ok(contact)
}

/// BG-11: its VAT identifier is the first registration with scheme `VA`.
fn representative<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<TaxRepresentative> {
    let mut r = TaxRepresentative::default();
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &["SpecifiedTaxRegistration"])?;
        match c.local {
            "Name" => r.name = trimmed(&doc.text(&c)?),
            "PostalTradeAddress" => r.address = address(doc, &c)?,
            "SpecifiedTaxRegistration" => {
                let [id] = doc.leaves(&c, ["ID"])?;
                let vat = id.filter(|id| id.attrs.get("schemeID") == Some("VA"));
                if r.vat_identifier.is_none()
                    && let Some(id) = vat
                {
                    r.vat_identifier = Some(own(&id.text));
                }
            }
            _ => return Err(Stop),
        }
    }
    Ok(r)
}

pub(super) fn address<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<PostalAddress> {
    let [post_code, line1, line2, line3, city, country, subdivision] = doc.leaves(
        e,
        [
            "PostcodeCode",
            "LineOne",
            "LineTwo",
            "LineThree",
            "CityName",
            "CountryID",
            "CountrySubDivisionName",
        ],
    )?;
    Ok(PostalAddress {
        line1: text(line1.as_ref()),
        line2: text(line2.as_ref()),
        line3: text(line3.as_ref()),
        city: text(city.as_ref()),
        post_code: text(post_code.as_ref()),
        subdivision: text(subdivision.as_ref()),
        country: country.map(|c| Code::new(own(&c.text))),
    })
}

fn delivery<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, inv: &mut Invoice) -> R<()> {
    let mut d = Delivery::default();
    // BG-13 exists when one of its terms does
    let mut any = false;
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "ShipToTradeParty" => any |= ship_to(doc, &c, &mut d)?,
            "ActualDeliverySupplyChainEvent" => {
                let mut event = Seen::default();
                d.date = None;
                while let Some(g) = doc.child(&c)? {
                    event.once(g.local, &[])?;
                    if g.local != "OccurrenceDateTime" {
                        return Err(Stop);
                    }
                    d.date = date(doc, &g, "DateTimeString")?;
                }
                any |= d.date.is_some();
            }
            "DespatchAdviceReferencedDocument" => {
                inv.despatch_advice_reference = reference(doc, &c)?;
            }
            "ReceivingAdviceReferencedDocument" => {
                inv.receiving_advice_reference = reference(doc, &c)?;
            }
            _ => return Err(Stop),
        }
    }
    if any {
        inv.delivery = Some(d);
    }
    Ok(())
}

/// The deliver-to party's terms; whether it held any.
fn ship_to<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, d: &mut Delivery) -> R<bool> {
    let mut any = false;
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "ID" | "GlobalID" => d.location = Some(identifier(&doc.leaf(&c)?)),
            "Name" => d.party_name = trimmed(&doc.text(&c)?),
            "PostalTradeAddress" => d.address = Some(address(doc, &c)?),
            _ => return Err(Stop),
        }
        any = true;
    }
    Ok(any)
}
