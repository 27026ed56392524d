//! BG-16 payment instructions, BT-9 due date and BT-20 payment terms from GOBL `payment`.

use en16931::invoice::{
    Code, CreditTransfer, DirectDebit, PaymentCard, PaymentInstructions, PaymentMeans,
};
use serde_json::Value;

use crate::gobl_doc::{ext, list, string, text};

/// The payment instructions, when the document has any.
pub(crate) fn instructions(doc: &Value) -> Option<PaymentInstructions> {
    let i = doc.get("payment")?.get("instructions")?;
    let means = if let Some(first) = list(i, "credit_transfer").first() {
        let _ = first;
        Some(PaymentMeans::CreditTransfer(
            list(i, "credit_transfer")
                .iter()
                .map(|c| CreditTransfer {
                    account_identifier: string(c, "iban").or_else(|| string(c, "number")),
                    account_name: string(c, "name"),
                    provider_identifier: string(c, "bic"),
                })
                .collect(),
        ))
    } else if let Some(dd) = i.get("direct_debit") {
        Some(PaymentMeans::DirectDebit(DirectDebit {
            mandate_reference: string(dd, "ref"),
            creditor_identifier: string(dd, "creditor"),
            debited_account: string(dd, "account"),
        }))
    } else {
        i.get("card").map(|c| {
            PaymentMeans::Card(PaymentCard {
                primary_account_number: string(c, "last4").map(|l| format!("****{l}")),
                holder_name: string(c, "holder"),
            })
        })
    };
    Some(PaymentInstructions {
        means_code: Some(Code::new(means_code(i))),
        means_text: string(i, "detail"),
        remittance_information: string(i, "ref"),
        means,
    })
}

/// BT-81: the add-on's `untdid-payment-means`, else derived from GOBL's instruction key.
fn means_code(i: &Value) -> &str {
    if let Some(code) = ext(i, "untdid-payment-means") {
        return code;
    }
    match text(i, "key") {
        Some("cash") => "10",
        Some("cheque") => "20",
        Some("credit-transfer") => "30",
        Some("credit-transfer+sepa") => "58",
        Some("debit-transfer") => "31",
        Some("card") => "48",
        Some("direct-debit") => "49",
        Some("direct-debit+sepa") => "59",
        Some("online") => "68",
        Some("standing-order") => "57",
        Some("netting") => "97",
        _ => "1",
    }
}

/// BT-9: the first due date of the terms.
pub(crate) fn due_date(doc: &Value) -> Option<en16931::Date> {
    text(doc, "payment/terms/due_dates/0/date").and_then(|d| en16931::Date::parse(d).ok())
}

/// BT-20: the terms' notes, else their key and detail. XRechnung's structured terms
/// (`#SKONTO#…#`) end every line with a line feed, the last one too (BR-DE-18): one that lost
/// it on the way (GOBL trims its texts) gets it back.
pub(crate) fn terms(doc: &Value) -> Option<String> {
    let mut t =
        string(doc, "payment/terms/notes").or_else(|| string(doc, "payment/terms/detail"))?;
    if t.contains("#SKONTO#") && t.trim_end_matches([' ', '\t']).ends_with('#') {
        t.truncate(t.trim_end_matches([' ', '\t']).len());
        t.push('\n');
    }
    Some(t)
}
