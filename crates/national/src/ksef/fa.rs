//! `Fa`: the invoice itself, in schema order: currency and dates, the VAT summary and
//! total, annotations, type and correction data, notes, settled advance invoices, lines,
//! charges and deductions, payment, and the order an advance invoice is paid for.

use gobl::model::{Invoice, Note};

use super::codes::{invoice_type, is_correction};
use super::ctx::Ctx;
use super::format::{Sign, amount, date, quantity, token};
use super::{Error, advances, annotations, corrections, lines, payment, summary};
use crate::xml::Xml;

pub(super) fn write(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let kind = invoice_type(inv);
    let sign = Sign(inv.kind == "credit-note");
    let ctx = Ctx { inv, kind, sign };
    x.open("Fa");
    x.text("KodWaluty", &inv.currency);
    x.text(
        "P_1",
        &date(inv.issue_date.ok_or(Error::Missing("issue_date"))?),
    );
    x.text(
        "P_2",
        &token(&inv.full_code(), 256).ok_or(Error::Missing("code"))?,
    );
    supply_date(x, inv);
    summary::write(x, &ctx)?;
    x.text("P_15", &amount(sign.of(payable(inv))));
    if let Some(r) = inv
        .exchange_rate_to("PLN")
        .filter(|_| inv.currency != "PLN")
    {
        x.text("KursWalutyZ", &quantity(r.amount));
    }
    annotations::write(x, inv)?;
    x.text("RodzajFaktury", &ctx.kind);
    if is_correction(&ctx.kind) {
        corrections::write(x, inv)?;
    }
    notes(x, inv);
    advances::settled_invoices(x, &ctx);
    lines::write(x, &ctx)?;
    advances::charges_and_deductions(x, &ctx);
    payment::write(x, &ctx);
    advances::order(x, &ctx);
    x.close("Fa");
    Ok(())
}

/// What is still to pay: the amount due after advances, else the payable amount.
pub(crate) fn payable(inv: &Invoice) -> gobl::num::Amount {
    inv.totals.due.unwrap_or(inv.totals.payable)
}

/// `P_6` (the date of supply) or `OkresFa` (the period invoiced).
fn supply_date(x: &mut Xml, inv: &Invoice) {
    if let Some(d) = inv.op_date {
        x.text("P_6", &date(d));
        return;
    }
    let period = inv.ordering.as_ref().and_then(|o| o.period.as_ref());
    if let Some((start, end)) = period.and_then(|p| Some((p.start?, p.end?))) {
        x.group("OkresFa", |x| {
            x.text("P_6_Od", &date(start));
            x.text("P_6_Do", &date(end));
        });
    }
}

/// `DodatkowyOpis`: the document's notes, then each line's with its number.
fn notes(x: &mut Xml, inv: &Invoice) {
    for n in &inv.notes {
        note(x, None, n);
    }
    for line in &inv.lines {
        for n in &line.notes {
            note(x, Some(line.index), n);
        }
    }
}

fn note(x: &mut Xml, line: Option<u32>, n: &Note) {
    let Some(text) = token(&n.text, 256) else {
        return;
    };
    let key = n
        .key
        .as_deref()
        .or(n.code.as_deref())
        .and_then(|k| token(k, 256))
        .unwrap_or_else(|| "note".into());
    x.group("DodatkowyOpis", |x| {
        if let Some(i) = line {
            x.text("NrWiersza", &i.to_string());
        }
        x.text("Klucz", &key);
        x.text("Wartosc", &text);
    });
}
