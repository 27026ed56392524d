//! A GOBL invoice from a whole EN 16931 invoice (the reading twin of `invoice.rs`): the
//! document's identity, references, notes, delivery and document-level allowances and
//! charges, with the other business groups read by their own modules. Terms GOBL has no place
//! for are reported, never dropped silently.

use en16931::Invoice;
use en16931::invoice::DocumentAllowanceCharge;
use gobl::json;
use gobl::json::{Map, Value};

use crate::party_parse::{self, put, put_list};
use crate::{Finding, Severity, lines_parse, payment_parse};

/// The GOBL invoice document (not yet built) and the notes of what did not map; a finding
/// when a figure cannot be carried exactly.
pub(crate) fn read(inv: &Invoice, notes: &mut Vec<Finding>) -> Result<Value, Finding> {
    let type_code = inv.type_code.as_ref().map(|c| c.as_str()).unwrap_or("380");
    let mut doc = header(inv, type_code);
    preceding(inv, &mut doc);
    // With a tax representative (BG-11), GOBL's supplier is the representative and the
    // seller (BG-4) is `ordering.seller`, as the reference converters read and write it.
    let seller = party_parse::read(&inv.seller);
    let supplier = match &inv.tax_representative {
        Some(rep) => party_parse::tax_representative(rep),
        None => seller.clone(),
    };
    doc.insert("supplier".into(), supplier);
    doc.insert("customer".into(), party_parse::read(&inv.buyer));
    doc.insert(
        "lines".into(),
        Value::Array(lines_parse::read(&inv.lines, notes)?),
    );
    adjustments(inv, &mut doc);
    exemptions(inv, &mut doc);
    let mut ordering = ordering(inv);
    if inv.tax_representative.is_some() {
        let o = ordering.get_or_insert_with(|| json!({}));
        o["seller"] = seller;
    }
    if let Some(o) = ordering {
        doc.insert("ordering".into(), o);
    }
    if let Some(p) = payment_parse::read(inv) {
        doc.insert("payment".into(), p);
    }
    if let Some(d) = delivery(inv) {
        doc.insert("delivery".into(), d);
    }
    invoice_notes(inv, &mut doc);
    if let Some(r) = inv.totals.rounding.filter(|r| !r.is_zero()) {
        doc.insert("totals".into(), json!({"rounding": r.to_string()}));
    }
    unmapped(inv, notes);
    Ok(Value::Object(doc))
}

/// The document's head: schema, regime (the seller's country), add-on, type, number, dates,
/// currency and the tax block that keeps the document type code.
fn header(inv: &Invoice, type_code: &str) -> Map {
    // the supplier's country: the tax representative's when there is one
    let (vat, address) = match &inv.tax_representative {
        Some(t) => (t.vat_identifier.as_deref(), &t.address),
        None => (inv.seller.vat_identifier.as_deref(), &inv.seller.address),
    };
    let seller_country = vat
        .and_then(party_parse::tax_id)
        .and_then(|t| t["country"].as_str().map(str::to_owned))
        .or_else(|| address.country.as_ref().map(|c| c.as_str().to_owned()));
    let mut doc = Map::new();
    doc.insert(
        "$schema".into(),
        Value::from("https://gobl.org/draft-0/bill/invoice"),
    );
    if let Some(c) = &seller_country {
        doc.insert("$regime".into(), json!(c));
    }
    doc.insert("$addons".into(), json!(["eu-en16931-v2017"]));
    doc.insert("type".into(), Value::from(gobl_type(type_code)));
    // the add-on's scenarios set the document type from the GOBL type and these tags
    let tag = match type_code {
        "326" => Some("partial"),
        "389" | "261" => Some("self-billed"),
        "386" => Some("prepayment"),
        "393" | "396" => Some("factoring"),
        _ => None,
    };
    if let Some(tag) = tag {
        doc.insert("$tags".into(), json!([tag]));
    }
    put(&mut doc, "code", inv.number.as_deref());
    if let Some(d) = inv.issue_date {
        doc.insert("issue_date".into(), Value::String(d.to_string().into()));
    }
    if let Some(d) = inv.vat_point_date {
        doc.insert("value_date".into(), Value::String(d.to_string().into()));
    }
    put(
        &mut doc,
        "currency",
        inv.currency.as_ref().map(|c| c.as_str()),
    );
    doc.insert(
        "tax".into(),
        json!({"rounding": "currency", "ext": {"untdid-document-type": type_code}}),
    );
    doc
}

/// BG-3: the invoices this one corrects or follows.
fn preceding(inv: &Invoice, doc: &mut Map) {
    if !inv.preceding_invoices.is_empty() {
        let list: Vec<Value> = inv
            .preceding_invoices
            .iter()
            .map(|p| {
                let mut m = Map::new();
                put(&mut m, "code", Some(p.reference.as_str()));
                if let Some(d) = p.issue_date {
                    m.insert("issue_date".into(), Value::String(d.to_string().into()));
                }
                Value::Object(m)
            })
            .collect();
        doc.insert("preceding".into(), Value::Array(list));
    }
}

/// BG-20 and BG-21: document-level allowances and charges.
fn adjustments(inv: &Invoice, doc: &mut Map) {
    let discounts = inv.allowances.iter();
    put_list(
        doc,
        "discounts",
        discounts
            .map(|a| allowance_charge(a, "untdid-allowance"))
            .collect(),
    );
    let charges = inv.charges.iter();
    put_list(
        doc,
        "charges",
        charges
            .map(|c| allowance_charge(c, "untdid-charge"))
            .collect(),
    );
}

/// BG-1: the invoice notes.
fn invoice_notes(inv: &Invoice, doc: &mut Map) {
    if !inv.notes.is_empty() {
        let list: Vec<Value> = inv
            .notes
            .iter()
            .filter_map(|n| {
                let text = n.note.as_deref()?;
                let mut note = json!({"text": text});
                if let Some(code) = &n.subject_code {
                    note["ext"] = json!({"untdid-text-subject": code.as_str()});
                }
                Some(note)
            })
            .collect();
        put_list(doc, "notes", list);
    }
}

/// GOBL's invoice type for a UNTDID 1001 code (the code itself stays in the `ext`).
fn gobl_type(code: &str) -> &'static str {
    match code {
        "381" | "261" | "262" | "296" | "308" | "396" | "420" | "458" | "532" => "credit-note",
        "383" => "debit-note",
        "384" | "471" | "472" | "473" => "corrective",
        "325" => "proforma",
        _ => "standard",
    }
}

fn allowance_charge(a: &DocumentAllowanceCharge, reason_ext: &str) -> Value {
    let mut out = Map::new();
    put(&mut out, "reason", a.reason.as_deref());
    out.insert("amount".into(), Value::String(a.amount.to_string().into()));
    // BT-94 / BT-93 (BT-101 / BT-100): GOBL calculates the amount from them, so they are
    // carried only when they give the document's amount
    if let (Some(pct), Some(base)) = (a.percentage, a.base_amount)
        && percent_gives_amount(a)
    {
        out.insert(
            "percent".into(),
            Value::String(format!("{}%", pct.normalized()).into()),
        );
        out.insert("base".into(), Value::String(base.to_string().into()));
    }
    out.insert(
        "taxes".into(),
        Value::Array(vec![lines_parse::vat_combo(&a.vat)]),
    );
    if let Some(code) = &a.reason_code {
        out.insert("ext".into(), json!({reason_ext: code.as_str()}));
    }
    Value::Object(out)
}

/// Whether an allowance's or charge's percentage of its base gives its amount, as GOBL
/// calculates it.
fn percent_gives_amount(a: &DocumentAllowanceCharge) -> bool {
    let (Some(pct), Some(base)) = (a.percentage, a.base_amount) else {
        return false;
    };
    base.into_decimal()
        .checked_mul(pct.as_fraction())
        .map(|c| c.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero))
        == Some(a.amount.into_decimal())
}

/// BT-10 … BT-19 as GOBL `ordering`.
fn ordering(inv: &Invoice) -> Option<Value> {
    let mut o = Map::new();
    put(&mut o, "code", inv.buyer_reference.as_deref());
    put(&mut o, "cost", inv.accounting_reference.as_deref());
    let refs = [
        ("purchases", &inv.purchase_order_reference),
        ("sales", &inv.sales_order_reference),
        ("contracts", &inv.contract_reference),
        ("projects", &inv.project_reference),
        ("receiving", &inv.receiving_advice_reference),
        ("despatch", &inv.despatch_advice_reference),
        ("tender", &inv.tender_reference),
    ];
    for (member, r) in refs {
        if let Some(r) = r.as_ref().filter(|r| !r.is_blank()) {
            o.insert(member.into(), json!([{"code": r.as_str()}]));
        }
    }
    if let Some(p) = &inv.invoicing_period {
        let mut period = Map::new();
        put(
            &mut period,
            "start",
            p.start.map(|d| d.to_string()).as_deref(),
        );
        put(&mut period, "end", p.end.map(|d| d.to_string()).as_deref());
        o.insert("period".into(), Value::Object(period));
    }
    (!o.is_empty()).then_some(Value::Object(o))
}

/// BG-13 as GOBL `delivery`.
fn delivery(inv: &Invoice) -> Option<Value> {
    let d = inv.delivery.as_ref()?;
    let mut out = Map::new();
    if let Some(date) = d.date {
        out.insert("date".into(), Value::String(date.to_string().into()));
    }
    if let Some(id) = &d.location {
        let mut identity = json!({"code": id.content()});
        if let Some(s) = id.scheme() {
            identity["ext"] = json!({"iso-scheme-id": s});
        }
        out.insert("identities".into(), json!([identity]));
    }
    let mut receiver = Map::new();
    put(&mut receiver, "name", d.party_name.as_deref());
    if let Some(a) = d.address.as_ref().and_then(party_parse::address) {
        receiver.insert("addresses".into(), json!([a]));
    }
    if !receiver.is_empty() {
        out.insert("receiver".into(), Value::Object(receiver));
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

/// Terms this reader does not carry into GOBL, each reported once.
fn unmapped(inv: &Invoice, notes: &mut Vec<Finding>) {
    let mut note = |term: &str, what: &str| {
        notes.push(Finding {
            rule: "folio-unmapped".into(),
            severity: Severity::Information,
            path: term.into(),
            message: format!("{what} is not carried into the GOBL invoice"),
        })
    };
    if !inv.attachments.is_empty() {
        note("BG-24", "additional supporting documents");
    }
    if inv.object_identifier.is_some() {
        note("BT-18", "the invoiced object identifier");
    }
    if inv.vat_accounting_currency.is_some() || inv.totals.vat_total_accounting.is_some() {
        note(
            "BT-6, BT-111",
            "the VAT accounting currency and the VAT total in it",
        );
    }
    if inv.seller.additional_legal_information.is_some() {
        note("BT-33", "the seller's additional legal information");
    }
    if inv.lines.iter().any(|l| l.object_identifier.is_some()) {
        note("BT-128", "line object identifiers");
    }
    if inv.lines.iter().any(|l| l.item.buyer_identifier.is_some()) {
        note("BT-156", "the buyer's item identifiers");
    }
    if inv
        .lines
        .iter()
        .any(|l| l.price.gross_price.is_some() || l.price.price_discount.is_some())
    {
        note(
            "BT-147, BT-148",
            "the item gross price and price discount (the net price is kept)",
        );
    }
    let unrestated = |a: &&DocumentAllowanceCharge| {
        a.percentage.is_some() && a.base_amount.is_some() && !percent_gives_amount(a)
    };
    if inv
        .allowances
        .iter()
        .chain(&inv.charges)
        .any(|a| unrestated(&a))
    {
        note(
            "BG-20, BG-21 (BT-93, BT-94, BT-100, BT-101)",
            "the percentage and base of an allowance or charge whose stated amount they do not \
             give (the amount is kept)",
        );
    }
    let card = inv.payment.as_ref().and_then(|p| match &p.means {
        Some(en16931::invoice::PaymentMeans::Card(c)) => c.primary_account_number.as_deref(),
        _ => None,
    });
    if card.is_some_and(|n| n.trim_start_matches('*').len() > 4) {
        note(
            "BG-18/BT-87",
            "the card number beyond its last four digits (GOBL keeps those)",
        );
    }
    if inv.lines.iter().any(|l| l.accounting_reference.is_some()) {
        note("BT-133", "line buyer accounting references");
    }
    if inv.vat_point_date_code.is_some() {
        note("BT-8", "the VAT point date code");
    }
    if inv.lines.iter().any(|l| l.period.is_some()) {
        note("BG-26", "line invoicing periods");
    }
    if inv.lines.iter().any(|l| !l.item.attributes.is_empty()) {
        note("BG-32", "item attributes");
    }
    if inv
        .lines
        .iter()
        .any(|l| !l.item.classification_identifiers.is_empty())
    {
        note("BT-158", "item classification identifiers");
    }
    if inv.lines.iter().any(|l| l.order_line_reference.is_some()) {
        note("BT-132", "order line references");
    }
}

/// BT-121 becomes the add-on's `cef-vatex` on every VAT combo of that category (lines,
/// discounts and charges alike, so GOBL keeps them in one rate); BT-120 a VAT note of the
/// document's tax (`tax.notes`), one per category, where GOBL keeps exemption reasons.
fn exemptions(inv: &Invoice, doc: &mut Map) {
    let mut reasons: Vec<Value> = Vec::new();
    for b in &inv.vat_breakdown {
        if let Some(code) = &b.exemption_reason_code {
            for member in ["lines", "discounts", "charges"] {
                let Some(Value::Array(items)) = doc.get_mut(member) else {
                    continue;
                };
                for combo in items
                    .iter_mut()
                    .filter_map(|l| l.get_mut("taxes")?.get_mut(0))
                {
                    if combo["ext"]["untdid-tax-category"] == json!(b.category.as_str()) {
                        combo["ext"]["cef-vatex"] = json!(code.as_str());
                    }
                }
            }
        }
        if let Some(reason) = b.exemption_reason.as_deref().map(str::trim)
            && !reason.is_empty()
        {
            let category = b.category.as_str();
            let known = reasons
                .iter()
                .any(|n| n["ext"]["untdid-tax-category"] == category);
            if !known {
                reasons.push(json!({
                    "cat": "VAT",
                    "text": reason,
                    "ext": {"untdid-tax-category": category}
                }));
            }
        }
    }
    if !reasons.is_empty()
        && let Some(tax) = doc.get_mut("tax").and_then(Value::as_object_mut)
    {
        tax.insert("notes".into(), Value::Array(reasons));
    }
}
