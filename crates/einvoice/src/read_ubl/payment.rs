//! Payment instructions (BG-16 and its means BG-17 to BG-19), payment terms (BT-20) and the
//! XRechnung Extension's third-party payments (BG-DEX-09).

use en16931::invoice::{
    CreditTransfer, DirectDebit, PaymentCard, PaymentInstructions, PaymentMeans,
};
use en16931::{Invoice, ThirdPartyPayment};

use super::build::Doc;
use super::scope::Scope;
use super::tags::Leaf;
use super::values::Value;

/// Drafts of the payment aggregates.
#[derive(Default)]
pub(super) struct Drafts {
    means: PaymentInstructions,
    account: CreditTransfer,
    card: PaymentCard,
    mandate: DirectDebit,
    prepaid: ThirdPartyPayment,
    /// Across all `PaymentMeans`, each at most once (UBL-SR-45, -54, -55).
    due_dates: usize,
    cards: usize,
    mandates: usize,
}

pub(super) fn open(d: &mut Doc, scope: Scope) -> Option<()> {
    let p = &mut d.payment;
    match scope {
        Scope::PaymentMeans => p.means = PaymentInstructions::default(),
        Scope::PayeeAccount => p.account = CreditTransfer::default(),
        Scope::Card => {
            p.card = PaymentCard::default();
            p.cards += 1;
        }
        Scope::Mandate => {
            p.mandate = DirectDebit::default();
            p.mandates += 1;
        }
        Scope::Prepaid => p.prepaid = ThirdPartyPayment::default(),
        _ => {}
    }
    (p.cards <= 1 && p.mandates <= 1).then_some(())
}

pub(super) fn leaf(d: &mut Doc, scope: Scope, leaf: Leaf, v: &mut Value<'_, '_>) -> Option<()> {
    let p = &mut d.payment;
    match (scope, leaf) {
        (Scope::PaymentMeans, Leaf::PaymentMeansCode) => {
            p.means.means_code = Some(v.code());
            p.means.means_text = v.attrs().name.take().map(Into::into);
        }
        (Scope::PaymentMeans, Leaf::PaymentID) => {
            p.means.remittance_information = Some(v.string());
        }
        (Scope::PaymentMeans, Leaf::PaymentDueDate) => {
            p.due_dates += 1;
            if p.due_dates > 1 {
                return None;
            }
        }
        (Scope::PaymentMeans, Leaf::InstructionNote) | (Scope::Card, Leaf::NetworkID) => {}
        (Scope::PayeeAccount, Leaf::ID) => p.account.account_identifier = Some(v.string()),
        (Scope::PayeeAccount, Leaf::Name) => p.account.account_name = Some(v.string()),
        (Scope::Branch, Leaf::ID) => p.account.provider_identifier = Some(v.string()),
        (Scope::Card, Leaf::PrimaryAccountNumberID) => {
            p.card.primary_account_number = Some(v.string());
        }
        (Scope::Card, Leaf::HolderName) => p.card.holder_name = Some(v.string()),
        (Scope::Mandate, Leaf::ID) => p.mandate.mandate_reference = Some(v.string()),
        (Scope::PayerAccount, Leaf::ID) => p.mandate.debited_account = Some(v.string()),
        // as written: BR-DE-18 wants the Skonto block's final line end
        (Scope::PaymentTerms, Leaf::Note) => d.inv.payment_terms = Some(v.raw().to_owned()),
        (Scope::Prepaid, Leaf::ID) => p.prepaid.payment_type = Some(v.string()),
        (Scope::Prepaid, Leaf::PaidAmount) => p.prepaid.amount = Some(v.amount()?),
        (Scope::Prepaid, Leaf::InstructionID) => p.prepaid.description = Some(v.string()),
        _ => return None,
    }
    Some(())
}

pub(super) fn close(d: &mut Doc, scope: Scope) -> Option<()> {
    let p = &mut d.payment;
    let means = &mut p.means.means;
    match scope {
        Scope::PayeeAccount => {
            let account = std::mem::take(&mut p.account);
            match means {
                None => *means = Some(PaymentMeans::CreditTransfer(vec![account])),
                Some(PaymentMeans::CreditTransfer(accounts)) => accounts.push(account),
                Some(_) => return None,
            }
        }
        // a card or a mandate is the only means of its PaymentMeans
        Scope::Card | Scope::Mandate if means.is_some() => return None,
        Scope::Card => *means = Some(PaymentMeans::Card(std::mem::take(&mut p.card))),
        Scope::Mandate => {
            *means = Some(PaymentMeans::DirectDebit(std::mem::take(&mut p.mandate)));
        }
        Scope::PaymentMeans => {
            let next = std::mem::take(&mut p.means);
            d.inv.payment = Some(match d.inv.payment.take() {
                None => next,
                Some(first) => merge(first, next)?,
            });
        }
        Scope::Prepaid => {
            let prepaid = std::mem::take(&mut p.prepaid);
            d.inv.extensions.third_party_payments.push(prepaid);
        }
        _ => {}
    }
    Some(())
}

/// A further `PaymentMeans`: BG-16 is one instruction, so the first value of each term is
/// kept and credit-transfer accounts accumulate; a second kind of means is not held.
fn merge(mut first: PaymentInstructions, next: PaymentInstructions) -> Option<PaymentInstructions> {
    first.means_code = first.means_code.or(next.means_code);
    first.means_text = first.means_text.or(next.means_text);
    first.remittance_information = first.remittance_information.or(next.remittance_information);
    match (&mut first.means, next.means) {
        (_, None) => {}
        (slot @ None, some) => *slot = some,
        (
            Some(PaymentMeans::CreditTransfer(accounts)),
            Some(PaymentMeans::CreditTransfer(more)),
        ) => {
            accounts.extend(more);
        }
        (Some(_), Some(_)) => return None,
    }
    Some(first)
}

/// The creditor identifier (BT-90) is a seller identifier with scheme `SEPA` in UBL and
/// belongs to the direct debit (BG-19) in the model: moved there when there is one.
pub(super) fn move_creditor_identifier(inv: &mut Invoice) {
    let Some(PaymentMeans::DirectDebit(debit)) =
        inv.payment.as_mut().and_then(|p| p.means.as_mut())
    else {
        return;
    };
    let identifiers = &mut inv.seller.identifiers;
    debit.creditor_identifier = identifiers
        .iter()
        .position(|id| id.scheme() == Some("SEPA"))
        .map(|at| identifiers.remove(at).content().to_owned());
}
