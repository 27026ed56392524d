//! `PaymentDetails` (one installment per due date, with the means and the account),
//! `LegalLiterals` (legal notes) and `AdditionalData` (the other notes).

use gobl::model::{DueDate, Instructions, Invoice, Payment};

use super::codes::payment_means;
use super::format::amount;
use crate::xml::Xml;

/// Installments of the payment terms' due dates; nothing without due dates.
pub(crate) fn write(x: &mut Xml, inv: &Invoice) {
    let Some(p) = inv.payment.as_ref() else {
        return;
    };
    let dates = p.terms.as_ref().map_or(&[][..], |t| &t.due_dates[..]);
    if dates.is_empty() {
        return;
    }
    x.open("PaymentDetails");
    for due in dates {
        installment(x, p, due, inv);
    }
    x.close("PaymentDetails");
}

fn installment(x: &mut Xml, p: &Payment, due: &DueDate, inv: &Invoice) {
    let ins = p.instructions.as_ref();
    let key = ins.and_then(|i| i.key.as_deref());
    let means = payment_means(key);
    let date = due
        .date
        .or(inv.issue_date)
        .map(|d| d.to_string())
        .unwrap_or_default();
    x.open("Installment");
    x.text("InstallmentDueDate", &date);
    x.text("InstallmentAmount", &amount(due.amount));
    x.text("PaymentMeans", means);
    if let Some(ins) = ins {
        accounts(x, ins, means);
    }
    let info = collection_info(p, due, ins, means);
    x.opt("CollectionAdditionalInformation", Some(&info));
    if means == "02" {
        let reference = ins
            .and_then(|i| i.direct_debit.as_ref())
            .and_then(|d| d.reference.as_deref());
        x.opt("DebitReconciliationReference", reference);
    }
    x.close("Installment");
}

/// The account credited by a transfer (IBAN, else account number; BIC) or debited by a
/// direct debit; nothing without an account.
fn accounts(x: &mut Xml, ins: &Instructions, means: &str) {
    let nonempty = |s: &Option<String>| s.clone().filter(|s| !s.is_empty());
    if means == "04"
        && let Some(ct) = ins.credit_transfer.first()
    {
        let account = match nonempty(&ct.iban) {
            Some(iban) => Some(("IBAN", iban)),
            None => nonempty(&ct.number).map(|n| ("AccountNumber", n)),
        };
        if let Some((kind, code)) = account {
            x.group("AccountToBeCredited", |x| {
                x.text(kind, &code);
                x.opt("BIC", ct.bic.as_deref());
            });
        }
    }
    if means == "02"
        && let Some(account) = ins.direct_debit.as_ref().and_then(|d| nonempty(&d.account))
    {
        x.group("AccountToBeDebited", |x| x.text("AccountNumber", &account));
    }
}

/// The terms' and the due date's notes, one per line, and an online payment's link.
fn collection_info(p: &Payment, due: &DueDate, ins: Option<&Instructions>, means: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    parts.extend(p.terms.as_ref().and_then(|t| t.notes.as_deref()));
    parts.extend(due.notes.as_deref());
    if means == "13" && ins.and_then(|i| i.key.as_deref()) == Some("online") {
        parts.extend(ins.and_then(|i| i.online.first()).map(|o| o.url.as_str()));
    }
    parts.retain(|s| !s.is_empty());
    parts.join("\n")
}

/// `LegalLiterals` from the legal notes, `AdditionalData` from the others (joined by
/// `; `).
pub(crate) fn notes(x: &mut Xml, inv: &Invoice) {
    let (legal, other): (Vec<_>, Vec<_>) = inv
        .notes
        .iter()
        .partition(|n| n.key.as_deref() == Some("legal"));
    if !legal.is_empty() {
        x.open("LegalLiterals");
        for n in legal {
            x.text("LegalReference", &n.text);
        }
        x.close("LegalLiterals");
    }
    let text: Vec<&str> = other.iter().map(|n| n.text.as_str()).collect();
    if !text.is_empty() {
        x.group("AdditionalData", |x| {
            x.text("InvoiceAdditionalInformation", &text.join("; "))
        });
    }
}
