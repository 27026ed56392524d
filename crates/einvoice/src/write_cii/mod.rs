//! folio's own CII D16B writer: the EN 16931 model straight into one `String`, in the D16B
//! schema's element order, byte for byte what `en16931_formats::write_unchecked` writes.
//!
//! It answers only for a model the crate writes without a word: anything the crate would
//! report (a required element absent, a term CII cannot carry, a character XML cannot
//! carry) makes it answer `None`, and the caller writes with the crate.

use en16931::Invoice;
use en16931::invoice::{DocumentKind, Period};

mod header;
mod line;
mod out;
mod settlement;
#[cfg(test)]
mod tests;

use out::Out;

/// The model as CII, or `None` when the crate would report anything about it.
pub(crate) fn write(inv: &Invoice) -> Option<String> {
    if !written_without_entries(inv) {
        return None;
    }
    let mut x = Out::new(capacity(inv));
    x.required("rsm:ExchangedDocumentContext", |x| context(x, inv));
    x.required("rsm:ExchangedDocument", |x| document(x, inv));
    x.required("rsm:SupplyChainTradeTransaction", |x| {
        for l in &inv.lines {
            line::write(x, l);
        }
        header::agreement(x, inv);
        header::delivery(x, inv);
        settlement::write(x, inv);
    });
    x.finish()
}

/// Whether the crate writes `inv` without an entry, as far as the model alone tells (the
/// characters of its texts are checked while writing).
fn written_without_entries(inv: &Invoice) -> bool {
    // D16B requires BT-1 and BT-2.
    let required = inv.number.is_some() && inv.issue_date.is_some();
    // A credit note says so in BT-3 alone in CII.
    let kind_told = inv.kind != DocumentKind::CreditNote
        || inv
            .type_code
            .as_ref()
            .is_some_and(|c| c.is_in(en16931::codes::generated::CREDIT_NOTE_TYPE_CODES));
    // BT-8 must have a CII spelling.
    let bt8 = inv
        .vat_point_date_code
        .as_ref()
        .is_none_or(|c| settlement::due_date_type_code(c.as_str()).is_some());
    // A period needs a date; a price discount needs its gross price; D16B has room
    // for one preceding invoice; the extension groups are not written (or not by folio).
    let lines = inv.lines.iter().all(|l| {
        l.period.as_ref().is_none_or(dated)
            && (l.price.price_discount.is_none() || l.price.gross_price.is_some())
    });
    required
        && kind_told
        && bt8
        && lines
        && inv.invoicing_period.as_ref().is_none_or(dated)
        && inv.preceding_invoices.len() <= 1
        && inv.extensions.is_empty()
}

fn dated(p: &Period) -> bool {
    p.start.is_some() || p.end.is_some()
}

/// A generous guess of the document's length, so the text is allocated once.
fn capacity(inv: &Invoice) -> usize {
    4096 + 1536 * inv.lines.len() + 256 * inv.notes.len()
}

/// BT-23 and BT-24.
fn context(x: &mut Out, inv: &Invoice) {
    if let Some(p) = &inv.business_process {
        x.group(
            "ram:BusinessProcessSpecifiedDocumentContextParameter",
            |x| x.leaf("ram:ID", p),
        );
    }
    if let Some(s) = &inv.specification_id {
        x.group("ram:GuidelineSpecifiedDocumentContextParameter", |x| {
            x.leaf("ram:ID", s)
        });
    }
}

/// BT-1, BT-3, BT-2 and the notes (BG-1).
fn document(x: &mut Out, inv: &Invoice) {
    if let Some(n) = &inv.number {
        x.leaf("ram:ID", n);
    }
    if let Some(c) = &inv.type_code {
        x.leaf("ram:TypeCode", c.as_str());
    }
    if let Some(d) = inv.issue_date {
        x.date("ram:IssueDateTime", "udt:DateTimeString", d);
    }
    for n in &inv.notes {
        x.group("ram:IncludedNote", |x| {
            x.leaf("ram:Content", n.note.as_deref().unwrap_or_default());
            if let Some(c) = &n.subject_code {
                x.leaf("ram:SubjectCode", c.as_str());
            }
        });
    }
}

/// A period (BG-14, BG-26): its start and end dates.
fn period(x: &mut Out, p: &Period) {
    x.group("ram:BillingSpecifiedPeriod", |x| {
        if let Some(s) = p.start {
            x.date("ram:StartDateTime", "udt:DateTimeString", s);
        }
        if let Some(e) = p.end {
            x.date("ram:EndDateTime", "udt:DateTimeString", e);
        }
    });
}

/// A `ram:ChargeIndicator` telling an allowance (`false`) from a charge (`true`).
fn charge_indicator(x: &mut Out, is_charge: bool) {
    x.group("ram:ChargeIndicator", |x| {
        x.leaf("udt:Indicator", if is_charge { "true" } else { "false" })
    });
}

/// What an allowance or charge of a line (BG-27, BG-28) and of the document (BG-20, BG-21)
/// share, in CII's order: the indicator, percentage, base, amount and reason.
fn allowance_terms(
    x: &mut Out,
    is_charge: bool,
    percentage: Option<en16931::Percentage>,
    (amount, base): (en16931::InvoiceAmount, Option<en16931::InvoiceAmount>),
    reason_code: Option<&en16931::invoice::Code>,
    reason: Option<&str>,
) {
    charge_indicator(x, is_charge);
    if let Some(p) = percentage {
        x.number("ram:CalculationPercent", p);
    }
    if let Some(b) = base {
        x.number("ram:BasisAmount", b);
    }
    x.number("ram:ActualAmount", amount);
    if let Some(c) = reason_code {
        x.leaf("ram:ReasonCode", c.as_str());
    }
    if let Some(r) = reason {
        x.leaf("ram:Reason", r);
    }
}

/// An identifier with its `schemeID` when it has one.
fn ident(x: &mut Out, name: &str, i: &en16931::Identifier) {
    match i.scheme() {
        Some(s) => x.leaf_with(name, &[("schemeID", s)], i.content()),
        None => x.leaf(name, i.content()),
    }
}

/// An identifier of a party: `ram:GlobalID` with its scheme, else `ram:ID`.
fn party_ident(x: &mut Out, i: &en16931::Identifier) {
    if i.scheme().is_some() {
        ident(x, "ram:GlobalID", i);
    } else {
        x.leaf("ram:ID", i.content());
    }
}

/// An object identifier (BT-18, BT-128): an additional document of type 130.
fn object_identifier(x: &mut Out, o: &en16931::Identifier) {
    x.group("ram:AdditionalReferencedDocument", |x| {
        x.leaf("ram:IssuerAssignedID", o.content());
        x.leaf("ram:TypeCode", "130");
        if let Some(s) = o.scheme() {
            x.leaf("ram:ReferenceTypeCode", s);
        }
    });
}

/// A buyer accounting reference (BT-19, BT-133).
fn accounting_account(x: &mut Out, id: &str) {
    x.group("ram:ReceivableSpecifiedTradeAccountingAccount", |x| {
        x.leaf("ram:ID", id)
    });
}
