//! Payment terms and instructions.

use serde_json::{Value, json};

use super::{Cx, list};

/// Terms (text and due dates) and how to pay (bank accounts, card, direct debit).
pub(super) fn payment(cx: &Cx) -> Value {
    let Some(p) = cx.doc.get("payment") else {
        return Value::Null;
    };
    let mut lines: Vec<String> = Vec::new();
    if let Some(terms) = p.get("terms") {
        for key in ["notes", "detail"] {
            let text = Cx::text(terms, key);
            if !text.is_empty() {
                lines.push(text.to_string());
            }
        }
        for due in list(terms, "due_dates") {
            let amount = Cx::text(due, "amount");
            let when = cx.style.date(Cx::text(due, "date"));
            if !amount.is_empty() {
                lines.push(format!(
                    "{}: {when} · {}",
                    cx.label("due-date"),
                    cx.amount(amount)
                ));
            }
        }
    }
    if let Some(i) = p.get("instructions") {
        lines.extend(instructions(cx, i));
    }
    json!({"lines": lines})
}

fn instructions(cx: &Cx, i: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    let detail = Cx::text(i, "detail");
    if !detail.is_empty() {
        lines.push(detail.to_string());
    }
    for account in list(i, "credit_transfer") {
        let parts = [
            ("IBAN", Cx::text(account, "iban")),
            ("BIC", Cx::text(account, "bic")),
            ("No.", Cx::text(account, "number")),
        ];
        let mut text: Vec<String> = parts
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let holder = Cx::text(account, "name");
        if !holder.is_empty() {
            text.push(format!("{} {holder}", cx.label("account-holder")));
        }
        lines.push(text.join(" · "));
    }
    if let Some(card) = i.get("card") {
        lines.push(format!("•••• {}", Cx::text(card, "last4")));
    }
    if let Some(debit) = i.get("direct_debit") {
        let account = Cx::text(debit, "account");
        let reference = Cx::text(debit, "ref");
        lines.push(format!("SEPA {reference} {account}").trim().to_string());
    }
    lines
}
