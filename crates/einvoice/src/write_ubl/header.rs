//! The document's head, up to the references: identity, dates, notes, currencies, periods
//! and the referenced documents, in the order of the `Invoice` or `CreditNote` sequence
//! (the two differ: a credit note has its tax point date before its type code, its
//! originator reference after the additional ones, and no due date or project reference).

use en16931::invoice::{Code, Period, SupportingDocument};
use en16931::{Date, DocumentReference};

use super::Doc;
use super::out::Out;

pub(super) fn write(out: &mut Out, doc: &Doc) {
    let inv = doc.inv;
    if let Some(s) = &inv.specification_id {
        out.leaf("cbc:CustomizationID", s);
    }
    if let Some(p) = &inv.business_process {
        out.leaf("cbc:ProfileID", p);
    }
    // UBL requires both; the crate reports their absence.
    let (Some(number), Some(issued)) = (&inv.number, inv.issue_date) else {
        out.fail();
        return;
    };
    out.leaf("cbc:ID", number);
    out.date("cbc:IssueDate", issued);
    if doc.credit {
        // `<CreditNote>` has no place for BT-9 nor BT-11: the crate drops them, reported.
        if inv.due_date.is_some() || inv.project_reference.is_some() {
            out.fail();
        }
        tax_point(out, inv.vat_point_date);
        type_code(out, "cbc:CreditNoteTypeCode", inv.type_code.as_ref());
        notes(out, doc);
    } else {
        if let Some(d) = inv.due_date {
            out.date("cbc:DueDate", d);
        }
        type_code(out, "cbc:InvoiceTypeCode", inv.type_code.as_ref());
        notes(out, doc);
        tax_point(out, inv.vat_point_date);
    }
    if !doc.ccy.is_empty() {
        out.leaf("cbc:DocumentCurrencyCode", doc.ccy);
    }
    if let Some(c) = &inv.vat_accounting_currency {
        out.leaf("cbc:TaxCurrencyCode", c.as_str());
    }
    if let Some(a) = &inv.accounting_reference {
        out.leaf("cbc:AccountingCost", a);
    }
    if let Some(b) = &inv.buyer_reference {
        out.leaf("cbc:BuyerReference", b);
    }
    invoice_period(out, doc);
    orders(out, doc);
    references(out, doc);
}

fn tax_point(out: &mut Out, d: Option<Date>) {
    if let Some(d) = d {
        out.date("cbc:TaxPointDate", d);
    }
}

fn type_code(out: &mut Out, name: &str, c: Option<&Code>) {
    if let Some(c) = c {
        out.leaf(name, c.as_str());
    }
}

/// BT-22, with BT-21 spliced in front as `#CODE#` (UBL has no element for it).
fn notes(out: &mut Out, doc: &Doc) {
    for n in &doc.inv.notes {
        let body = n.note.as_deref().unwrap_or_default();
        match &n.subject_code {
            Some(c) => out.leaf_parts("cbc:Note", &["#", c.as_str(), "#", body]),
            None => out.leaf("cbc:Note", body),
        }
    }
}

/// BG-14 with BT-8 as its description code, or BT-8 alone in the element.
fn invoice_period(out: &mut Out, doc: &Doc) {
    let inv = doc.inv;
    let code = inv.vat_point_date_code.as_ref();
    match &inv.invoicing_period {
        Some(p) => period(out, p, code),
        None => {
            if let Some(c) = code {
                out.group("cac:InvoicePeriod", |out| {
                    out.leaf("cbc:DescriptionCode", c.as_str());
                });
            }
        }
    }
}

/// A period (the document's or a line's); one with nothing in it the crate drops, reported.
pub(super) fn period(out: &mut Out, p: &Period, code: Option<&Code>) {
    if p.start.is_none() && p.end.is_none() && code.is_none() {
        out.fail();
        return;
    }
    out.group("cac:InvoicePeriod", |out| {
        if let Some(s) = p.start {
            out.date("cbc:StartDate", s);
        }
        if let Some(e) = p.end {
            out.date("cbc:EndDate", e);
        }
        if let Some(c) = code {
            out.leaf("cbc:DescriptionCode", c.as_str());
        }
    });
}

/// BT-13 and BT-14 (UBL wants an ID in the group: an empty one when only BT-14 is known),
/// then BG-3.
fn orders(out: &mut Out, doc: &Doc) {
    let inv = doc.inv;
    let sales = inv.sales_order_reference.as_ref();
    match (&inv.purchase_order_reference, sales) {
        (None, None) => {}
        (order, sales) => {
            out.group("cac:OrderReference", |out| {
                out.leaf("cbc:ID", order.as_ref().map_or("", |r| r.as_str()));
                if let Some(s) = sales {
                    out.leaf("cbc:SalesOrderID", s.as_str());
                }
            });
        }
    }
    for p in &inv.preceding_invoices {
        out.group("cac:BillingReference", |out| {
            out.group("cac:InvoiceDocumentReference", |out| {
                out.leaf("cbc:ID", p.reference.as_str());
                if let Some(d) = p.issue_date {
                    out.date("cbc:IssueDate", d);
                }
            });
        });
    }
}

/// The referenced documents, BG-24 and BT-18.
fn references(out: &mut Out, doc: &Doc) {
    let inv = doc.inv;
    doc_ref(
        out,
        "cac:DespatchDocumentReference",
        inv.despatch_advice_reference.as_ref(),
    );
    doc_ref(
        out,
        "cac:ReceiptDocumentReference",
        inv.receiving_advice_reference.as_ref(),
    );
    if !doc.credit {
        doc_ref(
            out,
            "cac:OriginatorDocumentReference",
            inv.tender_reference.as_ref(),
        );
    }
    doc_ref(
        out,
        "cac:ContractDocumentReference",
        inv.contract_reference.as_ref(),
    );
    for a in &inv.attachments {
        attachment(out, a);
    }
    if let Some(o) = &inv.object_identifier {
        out.group("cac:AdditionalDocumentReference", |out| {
            out.ident("cbc:ID", o);
            out.leaf("cbc:DocumentTypeCode", "130");
        });
    }
    if doc.credit {
        doc_ref(
            out,
            "cac:OriginatorDocumentReference",
            inv.tender_reference.as_ref(),
        );
    } else {
        doc_ref(out, "cac:ProjectReference", inv.project_reference.as_ref());
    }
}

fn doc_ref(out: &mut Out, name: &str, r: Option<&DocumentReference>) {
    if let Some(r) = r {
        out.group(name, |out| out.leaf("cbc:ID", r.as_str()));
    }
}

/// BG-24: the reference, its description, and the file inline (base64) or its address.
fn attachment(out: &mut Out, a: &SupportingDocument) {
    out.group("cac:AdditionalDocumentReference", |out| {
        out.leaf("cbc:ID", a.reference.as_str());
        if let Some(d) = &a.description {
            out.leaf("cbc:DocumentDescription", d);
        }
        if a.uri.is_none() && a.attachment.is_none() {
            return;
        }
        out.group("cac:Attachment", |out| {
            if let Some(f) = &a.attachment {
                let attrs = [("mimeCode", f.mime_code()), ("filename", f.filename())];
                out.leaf_attrs(
                    "cbc:EmbeddedDocumentBinaryObject",
                    &attrs,
                    &base64(f.content()),
                );
            }
            if let Some(u) = &a.uri {
                out.group("cac:ExternalReference", |out| out.leaf("cbc:URI", u));
            }
        });
    });
}

/// Base64 (RFC 4648 §4), no line breaks.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        let sextet = |shift: u32| char::from(ALPHABET[(n >> shift & 63) as usize]);
        s.push(sextet(18));
        s.push(sextet(12));
        s.push(if chunk.len() > 1 { sextet(6) } else { '=' });
        s.push(if chunk.len() > 2 { sextet(0) } else { '=' });
    }
    s
}
