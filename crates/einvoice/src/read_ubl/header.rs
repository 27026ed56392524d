//! The document's header: its own values, the invoicing period, and the references to other
//! documents (BG-3 preceding invoices, BG-24 supporting documents, BT-18 and the single
//! identifiers BT-11 to BT-17).

use en16931::invoice::{Period, PrecedingInvoice, SupportingDocument};
use en16931::{Attachment, Date, DocumentReference, Identifier};

use super::build::Doc;
use super::scope::{Reference, Scope};
use super::tags::Leaf;
use super::values::{self, Value};

/// Drafts of the header's aggregates.
#[derive(Default)]
pub(super) struct Drafts {
    period: Period,
    period_code: Option<en16931::invoice::Code>,
    preceding: Option<String>,
    preceding_date: Option<Date>,
    document: Document,
    /// `AdditionalDocumentReference`s that are BT-18 (UBL-SR-04 allows one).
    object_identifiers: usize,
}

/// An `AdditionalDocumentReference`, until its type code says what it is.
#[derive(Default)]
struct Document {
    id: Option<Identifier>,
    type_code: Option<String>,
    description: Option<String>,
    uri: Option<String>,
    attachment: Option<Attachment>,
}

pub(super) fn open(d: &mut Doc, scope: Scope) -> Option<()> {
    let h = &mut d.header;
    match scope {
        Scope::Period => {
            h.period = Period::default();
            h.period_code = None;
        }
        Scope::PrecedingInvoice => (h.preceding, h.preceding_date) = (None, None),
        Scope::Document => h.document = Document::default(),
        _ => {}
    }
    Some(())
}

pub(super) fn leaf(d: &mut Doc, scope: Scope, leaf: Leaf, v: &mut Value<'_, '_>) -> Option<()> {
    let h = &mut d.header;
    let inv = &mut d.inv;
    match (scope, leaf) {
        (Scope::Root, _) => return root(d, leaf, v),
        (Scope::Period, Leaf::StartDate) => h.period.start = Some(v.date()?),
        (Scope::Period, Leaf::EndDate) => h.period.end = Some(v.date()?),
        (Scope::Period, Leaf::DescriptionCode) => h.period_code = Some(v.code()),
        (Scope::OrderReference, Leaf::ID) => inv.purchase_order_reference = Some(reference(v)),
        (Scope::OrderReference, Leaf::SalesOrderID) => {
            inv.sales_order_reference = Some(reference(v));
        }
        (Scope::Reference(which), Leaf::ID) => {
            let slot = match which {
                Reference::Despatch => &mut inv.despatch_advice_reference,
                Reference::Receipt => &mut inv.receiving_advice_reference,
                Reference::Originator => &mut inv.tender_reference,
                Reference::Contract => &mut inv.contract_reference,
                Reference::Project => &mut inv.project_reference,
            };
            *slot = Some(reference(v));
        }
        (Scope::PrecedingInvoice, Leaf::ID) => h.preceding = Some(v.string()),
        (Scope::PrecedingInvoice, Leaf::IssueDate) => h.preceding_date = Some(v.date()?),
        (Scope::Document, Leaf::ID) => h.document.id = Some(v.identifier()),
        // as written: UBL-SR-04 compares it untrimmed
        (Scope::Document, Leaf::DocumentTypeCode) => h.document.type_code = Some(v.raw().into()),
        (Scope::Document, Leaf::DocumentDescription) => h.document.description = Some(v.string()),
        (Scope::Attachment, Leaf::EmbeddedDocumentBinaryObject) => {
            h.document.attachment = Some(attachment(v)?);
        }
        (Scope::ExternalReference, Leaf::URI) => h.document.uri = Some(v.string()),
        _ => return None,
    }
    Some(())
}

/// The root's own values.
fn root(d: &mut Doc, leaf: Leaf, v: &mut Value<'_, '_>) -> Option<()> {
    let inv = &mut d.inv;
    match leaf {
        Leaf::CustomizationID => inv.specification_id = Some(v.string()),
        Leaf::ProfileID => inv.business_process = Some(v.string()),
        Leaf::ID => inv.number = Some(v.string()),
        Leaf::IssueDate => inv.issue_date = Some(v.date()?),
        Leaf::DueDate => inv.due_date = Some(v.date()?),
        Leaf::InvoiceTypeCode if !d.credit => inv.type_code = Some(v.code()),
        Leaf::CreditNoteTypeCode if d.credit => inv.type_code = Some(v.code()),
        Leaf::Note => inv.notes.push(values::note(v.str())),
        Leaf::TaxPointDate => inv.vat_point_date = Some(v.date()?),
        Leaf::DocumentCurrencyCode => inv.currency = Some(v.code()),
        Leaf::TaxCurrencyCode => inv.vat_accounting_currency = Some(v.code()),
        Leaf::AccountingCost => inv.accounting_reference = Some(v.string()),
        Leaf::BuyerReference => inv.buyer_reference = Some(v.string()),
        // UBL's own bookkeeping, with no business term
        Leaf::UBLVersionID
        | Leaf::CopyIndicator
        | Leaf::UUID
        | Leaf::IssueTime
        | Leaf::LineCountNumeric => {}
        _ => return None,
    }
    Some(())
}

fn reference(v: &Value<'_, '_>) -> DocumentReference {
    DocumentReference::new(v.str())
}

/// BT-125 with its mime code and file name, both of which EN 16931 requires.
fn attachment(v: &mut Value<'_, '_>) -> Option<Attachment> {
    let content = crate::base64_text::decode(v.str())?;
    let mime = v.attrs().mime.take()?;
    let filename = v.attrs().filename.take()?;
    Attachment::new(content, mime, filename).ok()
}

pub(super) fn close(d: &mut Doc, scope: Scope) -> Option<()> {
    let h = &mut d.header;
    match scope {
        Scope::Period => {
            if let Some(code) = h.period_code.take() {
                d.inv.vat_point_date_code = Some(code);
            }
            if h.period.start.is_some() || h.period.end.is_some() {
                d.inv.invoicing_period = Some(std::mem::take(&mut h.period));
            }
        }
        Scope::PrecedingInvoice => d.inv.preceding_invoices.push(PrecedingInvoice {
            reference: DocumentReference::new(h.preceding.take()?),
            issue_date: h.preceding_date.take(),
        }),
        Scope::Document => document(d)?,
        _ => {}
    }
    Some(())
}

/// A closed `AdditionalDocumentReference`: type code `130` is BT-18, which keeps only its
/// identifier; anything else is a supporting document (BG-24), which keeps no scheme.
fn document(d: &mut Doc) -> Option<()> {
    let doc = std::mem::take(&mut d.header.document);
    let id = doc.id?;
    let type_code = doc.type_code.as_deref();
    if type_code.map(str::trim) == Some("130") {
        let keeps_more = doc.description.is_some() || doc.uri.is_some() || doc.attachment.is_some();
        d.header.object_identifiers += 1;
        if type_code != Some("130") || keeps_more || d.header.object_identifiers > 1 {
            return None;
        }
        d.inv.object_identifier = Some(id);
        return Some(());
    }
    if id.scheme().is_some() {
        return None;
    }
    d.inv.attachments.push(SupportingDocument {
        reference: DocumentReference::new(id.content()),
        description: doc.description,
        uri: doc.uri,
        attachment: doc.attachment,
    });
    Some(())
}
