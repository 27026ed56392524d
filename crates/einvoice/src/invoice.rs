//! The whole EN 16931 invoice from a GOBL invoice: the document's identity (BT-1 … BT-24),
//! references (BT-10 … BT-19, BG-3), notes (BG-1) and delivery (BG-13), with the business
//! groups mapped by their own modules.

use en16931::invoice::{Code, Delivery, InvoiceNote, Period, PrecedingInvoice};
use en16931::{Date, DocumentKind, DocumentReference, Invoice};
use serde_json::Value;

use crate::context::Context;
use crate::gobl_doc::{ext, list, string, text};
use crate::{lines, party, payment, taxes};

/// Maps a built GOBL invoice to the EN 16931 model under `ctx`.
pub(crate) fn write(doc: &Value, ctx: &Context) -> Invoice {
    let mut inv = Invoice::default();
    inv.specification_id = Some(ctx.customization_id.to_string());
    inv.business_process = ctx.profile_id.map(str::to_owned);
    inv.type_code = Some(Code::new(type_code(doc)));
    inv.kind = kind(
        inv.type_code.as_ref().map(Code::as_str).unwrap_or("380"),
        ctx,
    );
    inv.number = Some(number(doc));
    inv.issue_date = date(doc, "issue_date");
    inv.vat_point_date = date(doc, "value_date");
    inv.currency = text(doc, "currency").map(Code::new);
    inv.due_date = payment::due_date(doc);
    inv.payment_terms = payment::terms(doc);
    references(doc, &mut inv);
    if ctx.needs_reference
        && inv.buyer_reference.is_none()
        && inv.purchase_order_reference.is_none()
    {
        inv.purchase_order_reference = Some(DocumentReference::new("NA"));
    }
    inv.notes = notes(doc);
    inv.preceding_invoices = preceding(doc);
    party::seller(doc, &mut inv);
    inv.buyer = party::write(doc.get("customer").unwrap_or(&Value::Null));
    inv.payee = doc
        .get("payment")
        .and_then(|p| p.get("payee"))
        .map(party::payee);
    inv.delivery = delivery(doc);
    // BG-14: `ordering.period` (where the reader puts it), else the delivery's period
    inv.invoicing_period = period(
        doc.get("ordering")
            .and_then(|o| o.get("period"))
            .or_else(|| doc.get("delivery").and_then(|d| d.get("period"))),
    );
    inv.payment = payment::instructions(doc);
    inv.allowances = taxes::allowances_charges(doc, "discounts");
    inv.charges = taxes::allowances_charges(doc, "charges");
    inv.lines = lines::write(doc);
    inv.vat_breakdown = taxes::breakdown(doc);
    if ctx.rules == crate::context::RuleSet::XRechnung {
        // "not subject to VAT" states no rate (BR-O-05), but XRechnung wants one on every
        // breakdown (BR-DE-14): 0, as KoSIT's own business cases state it
        for b in inv
            .vat_breakdown
            .iter_mut()
            .filter(|b| b.category.as_str() == "O")
        {
            b.rate = Some(en16931::Percentage::ZERO);
        }
    }
    inv.totals = taxes::totals(doc);
    if prices_include_vat(doc) {
        taxes::exclude_included_vat(&mut inv);
    }
    inv
}

/// Whether line prices include VAT (`tax.prices_include`), which EN 16931 does not allow:
/// its line amounts are always without VAT.
fn prices_include_vat(doc: &Value) -> bool {
    text(doc, "tax/prices_include") == Some("VAT")
}

/// BT-3: the add-on's `untdid-document-type`, else from the GOBL type.
fn type_code(doc: &Value) -> String {
    if let Some(code) = doc.get("tax").and_then(|t| ext(t, "untdid-document-type")) {
        return code.to_string();
    }
    match text(doc, "type") {
        Some("credit-note") => "381",
        Some("debit-note") => "383",
        Some("corrective") => "384",
        Some("proforma") => "325",
        _ => "380",
    }
    .to_string()
}

/// UBL writes credit notes (and their kin) as `CreditNote`; CII has one root for all.
fn kind(type_code: &str, _ctx: &Context) -> DocumentKind {
    if matches!(
        type_code,
        "381" | "261" | "262" | "296" | "308" | "396" | "420" | "458" | "532"
    ) {
        DocumentKind::CreditNote
    } else {
        DocumentKind::Invoice
    }
}

/// BT-1: `SERIES-CODE`, or the code alone.
fn number(doc: &Value) -> String {
    match (text(doc, "series"), text(doc, "code")) {
        (Some(s), Some(c)) => format!("{s}-{c}"),
        (None, Some(c)) => c.to_string(),
        (Some(s), None) => s.to_string(),
        (None, None) => String::new(),
    }
}

fn date(v: &Value, path: &str) -> Option<Date> {
    text(v, path).and_then(|d| Date::parse(d).ok())
}

/// BT-10 … BT-19 from `ordering`.
fn references(doc: &Value, inv: &mut Invoice) {
    let Some(o) = doc.get("ordering") else {
        return;
    };
    let first_code = |member: &str| {
        list(o, member)
            .first()
            .and_then(|d| string(d, "code"))
            .map(DocumentReference::new)
    };
    inv.buyer_reference = string(o, "code");
    inv.purchase_order_reference = first_code("purchases");
    inv.sales_order_reference = first_code("sales");
    inv.contract_reference = first_code("contracts");
    inv.project_reference = first_code("projects");
    inv.receiving_advice_reference = first_code("receiving");
    inv.despatch_advice_reference = first_code("despatch");
    inv.tender_reference = first_code("tender");
    inv.accounting_reference = string(o, "cost");
    if inv.buyer_reference.is_none() {
        inv.buyer_reference = string(o, "buyer/code");
    }
}

/// BG-1: each note, with its UNTDID 4451 subject code when the add-on set one.
fn notes(doc: &Value) -> Vec<InvoiceNote> {
    list(doc, "notes")
        .iter()
        .filter_map(|n| {
            let note = InvoiceNote::new(string(n, "text")?);
            Some(match ext(n, "untdid-text-subject") {
                Some(code) => note.with_subject(code),
                None => note,
            })
        })
        .collect()
}

/// BG-3 from `preceding` document references.
fn preceding(doc: &Value) -> Vec<PrecedingInvoice> {
    list(doc, "preceding")
        .iter()
        .map(|p| PrecedingInvoice {
            reference: DocumentReference::new(number(p)),
            issue_date: date(p, "issue_date"),
        })
        .collect()
}

/// BG-13 from `delivery`.
fn delivery(doc: &Value) -> Option<Delivery> {
    let d = doc.get("delivery")?;
    let receiver = d.get("receiver");
    let location = list(d, "identities").first().and_then(|id| {
        let code = string(id, "code")?;
        Some(match ext(id, "iso-scheme-id") {
            Some(s) => en16931::Identifier::schemed(code, s),
            None => en16931::Identifier::new(code),
        })
    });
    let out = Delivery {
        location,
        party_name: receiver.and_then(|r| string(r, "name")),
        date: date(d, "date"),
        address: receiver
            .and_then(|r| r.get("addresses"))
            .and_then(|a| a.get(0))
            .map(|a| party::address(Some(a))),
    };
    (out != Delivery::default()).then_some(out)
}

fn period(p: Option<&Value>) -> Option<Period> {
    let p = p?;
    Some(Period {
        start: date(p, "start"),
        end: date(p, "end"),
    })
}
