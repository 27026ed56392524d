//! Where an element may appear, and how often: the part of UBL 2.1 this reader maps, as a
//! grammar over scopes. A scope is an open aggregate together with what it means where it
//! stands (an `AllowanceCharge` of the document, of a line or of a price). What the grammar
//! does not list is refused, and the document goes to the general reader.
//!
//! `Once` is strict on purpose: a second occurrence is either a duplicate the general reader
//! reports, or a repetition the model holds one of (the general reader keeps the last).

use super::tags::{Agg, Leaf};

/// Whose party a scope builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Who {
    Seller,
    Buyer,
    Payee,
    TaxRepresentative,
}

/// Whose allowance or charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    Document,
    Line,
    Price,
}

/// Whose VAT category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Of {
    Allowance,
    Subtotal,
    Item,
}

/// A document reference of the header that holds only an identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reference {
    Despatch,
    Receipt,
    Originator,
    Contract,
    Project,
}

/// Whose identification of an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ItemId {
    Buyers,
    Sellers,
    Standard,
}

/// Whose postal address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    Party,
    Delivery,
}

/// An open aggregate, with its meaning where it stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    Root,
    Period,
    OrderReference,
    BillingReference,
    PrecedingInvoice,
    Reference(Reference),
    Document,
    Attachment,
    ExternalReference,
    /// `AccountingSupplierParty` or `AccountingCustomerParty`, around a `Party`.
    PartyOf(Who),
    Party(Who),
    PartyIdentification,
    PartyName,
    PartyTaxScheme(Who),
    /// The `TaxScheme` of a `PartyTaxScheme`.
    TaxScheme,
    LegalEntity(Who),
    Contact,
    Address(Place),
    AddressLine,
    Country,
    Delivery,
    DeliveryLocation,
    DeliveryParty,
    DeliveryPartyName,
    PaymentMeans,
    PayeeAccount,
    Branch,
    Card,
    Mandate,
    PayerAccount,
    PaymentTerms,
    Prepaid,
    Allowance(Level),
    Category(Of),
    /// The `TaxScheme` of a VAT category.
    CategoryScheme,
    TaxTotal,
    Subtotal,
    Totals,
    Line,
    LinePeriod,
    OrderLine,
    LineDocument,
    Price,
    Item,
    ItemIdentification(ItemId),
    OriginCountry,
    Commodity,
    Property,
}

/// How often an element may appear in its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Occurs {
    Once,
    Many,
}

/// The scope an aggregate opens inside `scope`, and how often it may; `None` where this reader
/// does not map it.
pub(super) fn enter(scope: Scope, agg: Agg) -> Option<(Scope, Occurs)> {
    use Occurs::{Many, Once};
    use Scope as S;
    Some(match (scope, agg) {
        (S::Root, Agg::InvoiceLine | Agg::CreditNoteLine) => (S::Line, Many),
        (S::Root, Agg::AllowanceCharge) => (S::Allowance(Level::Document), Many),
        (S::Root, Agg::TaxTotal) => (S::TaxTotal, Many),
        (S::Root, Agg::PaymentMeans) => (S::PaymentMeans, Many),
        (S::Root, Agg::AdditionalDocumentReference) => (S::Document, Many),
        (S::Root, Agg::BillingReference) => (S::BillingReference, Many),
        (S::Root, Agg::PrepaidPayment) => (S::Prepaid, Many),
        (S::Root, agg) => (root_once(agg)?, Once),
        (S::BillingReference, Agg::InvoiceDocumentReference) => (S::PrecedingInvoice, Once),
        (S::Document, Agg::Attachment) => (S::Attachment, Once),
        (S::Attachment, Agg::ExternalReference) => (S::ExternalReference, Once),
        (S::PartyOf(who), Agg::Party) => (S::Party(who), Once),
        (S::Party(who), agg) => party_child(who, agg)?,
        (S::PartyTaxScheme(_), Agg::TaxScheme) => (S::TaxScheme, Once),
        (S::Address(_), Agg::AddressLine) => (S::AddressLine, Once),
        (S::Address(_), Agg::Country) => (S::Country, Once),
        (S::Delivery, Agg::DeliveryLocation) => (S::DeliveryLocation, Once),
        (S::Delivery, Agg::DeliveryParty) => (S::DeliveryParty, Once),
        (S::DeliveryLocation, Agg::Address) => (S::Address(Place::Delivery), Once),
        (S::DeliveryParty, Agg::PartyName) => (S::DeliveryPartyName, Once),
        (S::PaymentMeans, Agg::PayeeFinancialAccount) => (S::PayeeAccount, Once),
        (S::PaymentMeans, Agg::CardAccount) => (S::Card, Once),
        (S::PaymentMeans, Agg::PaymentMandate) => (S::Mandate, Once),
        (S::PayeeAccount, Agg::FinancialInstitutionBranch) => (S::Branch, Once),
        (S::Mandate, Agg::PayerFinancialAccount) => (S::PayerAccount, Once),
        (S::Allowance(Level::Document), Agg::TaxCategory) => (S::Category(Of::Allowance), Once),
        (S::Category(_), Agg::TaxScheme) => (S::CategoryScheme, Once),
        (S::TaxTotal, Agg::TaxSubtotal) => (S::Subtotal, Many),
        (S::Subtotal, Agg::TaxCategory) => (S::Category(Of::Subtotal), Once),
        (S::Line, Agg::AllowanceCharge) => (S::Allowance(Level::Line), Many),
        (S::Line, agg) => (line_once(agg)?, Once),
        (S::Price, Agg::AllowanceCharge) => (S::Allowance(Level::Price), Once),
        (S::Item, Agg::CommodityClassification) => (S::Commodity, Many),
        (S::Item, Agg::AdditionalItemProperty) => (S::Property, Many),
        (S::Item, agg) => (item_once(agg)?, Once),
        _ => return None,
    })
}

/// The header's aggregates that appear at most once.
fn root_once(agg: Agg) -> Option<Scope> {
    use Scope as S;
    Some(match agg {
        Agg::InvoicePeriod => S::Period,
        Agg::OrderReference => S::OrderReference,
        Agg::DespatchDocumentReference => S::Reference(Reference::Despatch),
        Agg::ReceiptDocumentReference => S::Reference(Reference::Receipt),
        Agg::OriginatorDocumentReference => S::Reference(Reference::Originator),
        Agg::ContractDocumentReference => S::Reference(Reference::Contract),
        Agg::ProjectReference => S::Reference(Reference::Project),
        Agg::AccountingSupplierParty => S::PartyOf(Who::Seller),
        Agg::AccountingCustomerParty => S::PartyOf(Who::Buyer),
        Agg::PayeeParty => S::Party(Who::Payee),
        Agg::TaxRepresentativeParty => S::Party(Who::TaxRepresentative),
        Agg::Delivery => S::Delivery,
        Agg::PaymentTerms => S::PaymentTerms,
        Agg::LegalMonetaryTotal => S::Totals,
        _ => return None,
    })
}

/// A party's aggregates: the seller and the buyer have them all, the payee and the tax
/// representative only those the model keeps of them.
fn party_child(who: Who, agg: Agg) -> Option<(Scope, Occurs)> {
    use Occurs::{Many, Once};
    use Scope as S;
    let full = matches!(who, Who::Seller | Who::Buyer);
    Some(match agg {
        // the seller's identifiers are many (BT-29, BT-90); the buyer's one (UBL-SR-16)
        Agg::PartyIdentification if who == Who::Seller => (S::PartyIdentification, Many),
        Agg::PartyIdentification if who != Who::TaxRepresentative => (S::PartyIdentification, Once),
        Agg::PartyName => (S::PartyName, Once),
        Agg::PartyLegalEntity => (S::LegalEntity(who), Once),
        // one VAT and one other registration: told apart when the scheme is read
        Agg::PartyTaxScheme if full => (S::PartyTaxScheme(who), Many),
        Agg::PartyTaxScheme if who == Who::TaxRepresentative => (S::PartyTaxScheme(who), Once),
        Agg::PostalAddress if who != Who::Payee => (S::Address(Place::Party), Once),
        Agg::Contact if full => (S::Contact, Once),
        _ => return None,
    })
}

/// A line's aggregates that appear at most once.
fn line_once(agg: Agg) -> Option<Scope> {
    use Scope as S;
    Some(match agg {
        Agg::InvoicePeriod => S::LinePeriod,
        Agg::OrderLineReference => S::OrderLine,
        Agg::DocumentReference => S::LineDocument,
        Agg::Item => S::Item,
        Agg::Price => S::Price,
        _ => return None,
    })
}

/// An item's aggregates that appear at most once.
fn item_once(agg: Agg) -> Option<Scope> {
    use Scope as S;
    Some(match agg {
        Agg::BuyersItemIdentification => S::ItemIdentification(ItemId::Buyers),
        Agg::SellersItemIdentification => S::ItemIdentification(ItemId::Sellers),
        Agg::StandardItemIdentification => S::ItemIdentification(ItemId::Standard),
        Agg::OriginCountry => S::OriginCountry,
        Agg::ClassifiedTaxCategory => S::Category(Of::Item),
        _ => return None,
    })
}

/// How often a basic value may appear inside `scope`; `None` where this reader does not map
/// it.
pub(super) fn leaf(scope: Scope, leaf: Leaf) -> Option<Occurs> {
    use Leaf as L;
    use Scope as S;
    let once = match scope {
        S::Root if leaf == L::Note => return Some(Occurs::Many),
        S::Root => root_leaf(leaf),
        S::Period => matches!(leaf, L::StartDate | L::EndDate | L::DescriptionCode),
        S::LinePeriod => matches!(leaf, L::StartDate | L::EndDate),
        S::OrderReference => matches!(leaf, L::ID | L::SalesOrderID),
        S::PrecedingInvoice => matches!(leaf, L::ID | L::IssueDate),
        S::Document => matches!(leaf, L::ID | L::DocumentTypeCode | L::DocumentDescription),
        S::Attachment => leaf == L::EmbeddedDocumentBinaryObject,
        S::ExternalReference => leaf == L::URI,
        S::Party(Who::Seller | Who::Buyer) => leaf == L::EndpointID,
        S::PartyName | S::DeliveryPartyName => leaf == L::Name,
        S::PartyTaxScheme(_) => leaf == L::CompanyID,
        S::LegalEntity(who) => legal_entity_leaf(who, leaf),
        S::Contact => matches!(leaf, L::Name | L::Telephone | L::ElectronicMail),
        S::Address(_) => address_leaf(leaf),
        S::AddressLine => leaf == L::Line,
        S::Country | S::OriginCountry => leaf == L::IdentificationCode,
        S::Delivery => leaf == L::ActualDeliveryDate,
        S::PaymentMeans if leaf == L::InstructionNote => return Some(Occurs::Many),
        S::PaymentMeans => matches!(leaf, L::PaymentMeansCode | L::PaymentID | L::PaymentDueDate),
        S::PayeeAccount => matches!(leaf, L::ID | L::Name),
        S::Card => matches!(
            leaf,
            L::PrimaryAccountNumberID | L::NetworkID | L::HolderName
        ),
        S::PaymentTerms => leaf == L::Note,
        S::Prepaid => matches!(leaf, L::ID | L::PaidAmount | L::InstructionID),
        S::Allowance(level) => allowance_leaf(level, leaf),
        S::Category(of) => category_leaf(of, leaf),
        S::TaxTotal => leaf == L::TaxAmount,
        S::Subtotal => matches!(leaf, L::TaxableAmount | L::TaxAmount),
        S::Totals => totals_leaf(leaf),
        S::Line => line_leaf(leaf),
        S::LineDocument => matches!(leaf, L::ID | L::DocumentTypeCode),
        S::OrderLine => leaf == L::LineID,
        S::Price => matches!(leaf, L::PriceAmount | L::BaseQuantity),
        S::Item => matches!(leaf, L::Name | L::Description),
        S::Commodity => leaf == L::ItemClassificationCode,
        S::Property => matches!(leaf, L::Name | L::Value),
        S::Reference(_)
        | S::PartyIdentification
        | S::TaxScheme
        | S::CategoryScheme
        | S::DeliveryLocation
        | S::Branch
        | S::Mandate
        | S::PayerAccount
        | S::ItemIdentification(_) => leaf == L::ID,
        S::BillingReference | S::PartyOf(_) | S::Party(_) | S::DeliveryParty => false,
    };
    once.then_some(Occurs::Once)
}

/// The header's basic values (`Note` apart, which may repeat).
fn root_leaf(leaf: Leaf) -> bool {
    use Leaf as L;
    matches!(
        leaf,
        L::UBLVersionID
            | L::CustomizationID
            | L::ProfileID
            | L::ID
            | L::CopyIndicator
            | L::UUID
            | L::IssueDate
            | L::IssueTime
            | L::DueDate
            | L::InvoiceTypeCode
            | L::CreditNoteTypeCode
            | L::TaxPointDate
            | L::DocumentCurrencyCode
            | L::TaxCurrencyCode
            | L::AccountingCost
            | L::BuyerReference
            | L::LineCountNumeric
    )
}

/// A legal entity's values, as far as the model keeps them for its party.
fn legal_entity_leaf(who: Who, leaf: Leaf) -> bool {
    use Leaf as L;
    match who {
        Who::Seller | Who::Buyer => {
            matches!(
                leaf,
                L::RegistrationName | L::CompanyID | L::CompanyLegalForm
            )
        }
        Who::Payee => matches!(leaf, L::RegistrationName | L::CompanyID),
        Who::TaxRepresentative => leaf == L::RegistrationName,
    }
}

fn address_leaf(leaf: Leaf) -> bool {
    use Leaf as L;
    matches!(
        leaf,
        L::StreetName | L::AdditionalStreetName | L::CityName | L::PostalZone | L::CountrySubentity
    )
}

/// A price's allowance has only its amount and base amount (BT-147, BT-148).
fn allowance_leaf(level: Level, leaf: Leaf) -> bool {
    use Leaf as L;
    match leaf {
        L::ChargeIndicator | L::Amount | L::BaseAmount => true,
        L::AllowanceChargeReason | L::AllowanceChargeReasonCode | L::MultiplierFactorNumeric => {
            level != Level::Price
        }
        _ => false,
    }
}

/// Only the VAT breakdown keeps an exemption reason.
fn category_leaf(of: Of, leaf: Leaf) -> bool {
    use Leaf as L;
    match leaf {
        L::ID | L::Percent => true,
        L::TaxExemptionReason | L::TaxExemptionReasonCode => of == Of::Subtotal,
        _ => false,
    }
}

fn totals_leaf(leaf: Leaf) -> bool {
    use Leaf as L;
    matches!(
        leaf,
        L::LineExtensionAmount
            | L::TaxExclusiveAmount
            | L::TaxInclusiveAmount
            | L::AllowanceTotalAmount
            | L::ChargeTotalAmount
            | L::PrepaidAmount
            | L::PayableRoundingAmount
            | L::PayableAmount
    )
}

fn line_leaf(leaf: Leaf) -> bool {
    use Leaf as L;
    matches!(
        leaf,
        L::ID
            | L::Note
            | L::InvoicedQuantity
            | L::CreditedQuantity
            | L::LineExtensionAmount
            | L::AccountingCost
    )
}

/// A basic value whose blank text the general reader reads as its absence, with nothing
/// depending on the element being there (`<cbc:LineID/>` in CEN's examples). Any other blank
/// value is left to it.
pub(super) fn blank_is_absent(scope: Scope, leaf: Leaf) -> bool {
    (scope, leaf) == (Scope::OrderLine, Leaf::LineID)
}
