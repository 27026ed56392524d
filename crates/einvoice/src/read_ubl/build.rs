//! The model under construction: the invoice, and a draft for each kind of aggregate open
//! (aggregates of one kind never nest). Opening a scope starts its draft, a basic value fills
//! it, closing the scope hands it to its parent. Every step answers `None` for what the
//! general reader would report, or read differently.

use en16931::Invoice;

use super::scope::Scope;
use super::tags::Leaf;
use super::values::Value;
use super::{header, lines, money, party, payment};

/// The reader's state.
pub(super) struct Doc {
    pub(super) inv: Invoice,
    /// A `CreditNote`, whose lines are `CreditNoteLine`s.
    pub(super) credit: bool,
    pub(super) header: header::Drafts,
    pub(super) party: party::Drafts,
    pub(super) payment: payment::Drafts,
    pub(super) money: money::Drafts,
    pub(super) lines: lines::Drafts,
}

/// Which part of the document a scope belongs to.
enum Part {
    Header,
    Party,
    Payment,
    Money,
    Line,
}

fn part(scope: Scope) -> Part {
    use Scope as S;
    match scope {
        S::Root
        | S::Period
        | S::OrderReference
        | S::BillingReference
        | S::PrecedingInvoice
        | S::Reference(_)
        | S::Document
        | S::Attachment
        | S::ExternalReference => Part::Header,
        S::PartyOf(_)
        | S::Party(_)
        | S::PartyIdentification
        | S::PartyName
        | S::PartyTaxScheme(_)
        | S::TaxScheme
        | S::LegalEntity(_)
        | S::Contact
        | S::Address(_)
        | S::AddressLine
        | S::Country
        | S::Delivery
        | S::DeliveryLocation
        | S::DeliveryParty
        | S::DeliveryPartyName => Part::Party,
        S::PaymentMeans
        | S::PayeeAccount
        | S::Branch
        | S::Card
        | S::Mandate
        | S::PayerAccount
        | S::PaymentTerms
        | S::Prepaid => Part::Payment,
        S::Allowance(_)
        | S::Category(_)
        | S::CategoryScheme
        | S::TaxTotal
        | S::Subtotal
        | S::Totals => Part::Money,
        S::Line
        | S::LinePeriod
        | S::OrderLine
        | S::LineDocument
        | S::Price
        | S::Item
        | S::ItemIdentification(_)
        | S::OriginCountry
        | S::Commodity
        | S::Property => Part::Line,
    }
}

impl Doc {
    pub(super) fn new(credit: bool) -> Doc {
        let mut inv = Invoice::default();
        inv.kind = if credit {
            en16931::DocumentKind::CreditNote
        } else {
            en16931::DocumentKind::Invoice
        };
        Doc {
            inv,
            credit,
            header: header::Drafts::default(),
            party: party::Drafts::default(),
            payment: payment::Drafts::default(),
            money: money::Drafts::default(),
            lines: lines::Drafts::default(),
        }
    }

    /// A scope opens.
    pub(super) fn open(&mut self, scope: Scope) -> Option<()> {
        match part(scope) {
            Part::Header => header::open(self, scope),
            Part::Party => party::open(self, scope),
            Part::Payment => payment::open(self, scope),
            Part::Money => money::open(self, scope),
            Part::Line => lines::open(self, scope),
        }
    }

    /// A basic value of `scope`.
    pub(super) fn leaf(&mut self, scope: Scope, leaf: Leaf, v: &mut Value<'_, '_>) -> Option<()> {
        match part(scope) {
            Part::Header => header::leaf(self, scope, leaf, v),
            Part::Party => party::leaf(self, scope, leaf, v),
            Part::Payment => payment::leaf(self, scope, leaf, v),
            Part::Money => money::leaf(self, scope, leaf, v),
            Part::Line => lines::leaf(self, scope, leaf, v),
        }
    }

    /// A scope closes.
    pub(super) fn close(&mut self, scope: Scope) -> Option<()> {
        match part(scope) {
            Part::Header => header::close(self, scope),
            Part::Party => party::close(self, scope),
            Part::Payment => payment::close(self, scope),
            Part::Money => money::close(self, scope),
            Part::Line => lines::close(self, scope),
        }
    }

    /// The document is read: what needs all of it.
    pub(super) fn finish(mut self) -> Option<Invoice> {
        payment::move_creditor_identifier(&mut self.inv);
        money::resolve_tax_totals(&mut self)?;
        Some(self.inv)
    }
}
