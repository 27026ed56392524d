//! Invoice lines (BG-25): their values, period, price and item. Their allowances and VAT
//! category are drafted in `money` and handed to the open line.

use en16931::invoice::{Code, InvoiceLine, Item, ItemAttribute, LineVat, Period, PriceDetails};
use en16931::{DocumentReference, Identifier, InvoiceAmount, Quantity, UnitPriceAmount};

use super::build::Doc;
use super::scope::{ItemId, Scope};
use super::tags::Leaf;
use super::values::Value;

/// Drafts of the line aggregates: one line is open at a time.
pub(super) struct Drafts {
    pub(super) line: InvoiceLine,
    period: Period,
    document: Option<Identifier>,
    document_type: Option<String>,
    property: ItemAttribute,
}

impl Default for Drafts {
    fn default() -> Self {
        Drafts {
            line: blank_line(),
            period: Period::default(),
            document: None,
            document_type: None,
            property: ItemAttribute::default(),
        }
    }
}

/// A line before any of its values: what the general reader reads for absent ones.
fn blank_line() -> InvoiceLine {
    InvoiceLine {
        id: String::new(),
        note: None,
        order_line_reference: None,
        accounting_reference: None,
        object_identifier: None,
        quantity: Quantity::default(),
        unit_code: Code::default(),
        net_amount: InvoiceAmount::default(),
        period: None,
        allowances: Vec::new(),
        charges: Vec::new(),
        price: PriceDetails::default(),
        vat: LineVat::default(),
        item: Item::default(),
    }
}

pub(super) fn open(d: &mut Doc, scope: Scope) -> Option<()> {
    let l = &mut d.lines;
    match scope {
        Scope::Line => l.line = blank_line(),
        Scope::LinePeriod => l.period = Period::default(),
        Scope::LineDocument => (l.document, l.document_type) = (None, None),
        Scope::Property => l.property = ItemAttribute::default(),
        _ => {}
    }
    Some(())
}

pub(super) fn leaf(d: &mut Doc, scope: Scope, leaf: Leaf, v: &mut Value<'_, '_>) -> Option<()> {
    let l = &mut d.lines;
    let line = &mut l.line;
    let item = &mut line.item;
    match (scope, leaf) {
        (Scope::Line, _) => return line_leaf(line, d.credit, leaf, v),
        (Scope::LinePeriod, Leaf::StartDate) => l.period.start = Some(v.date()?),
        (Scope::LinePeriod, Leaf::EndDate) => l.period.end = Some(v.date()?),
        (Scope::OrderLine, Leaf::LineID) => {
            line.order_line_reference = Some(DocumentReference::new(v.str()));
        }
        (Scope::LineDocument, Leaf::ID) => l.document = Some(v.identifier()),
        (Scope::LineDocument, Leaf::DocumentTypeCode) => l.document_type = Some(v.string()),
        (Scope::Price, Leaf::PriceAmount) => {
            line.price.net_price = UnitPriceAmount::new(v.unit_price()?);
        }
        (Scope::Price, Leaf::BaseQuantity) => {
            line.price.base_quantity = Some(Quantity::new(v.decimal()?));
            line.price.base_quantity_code = v.attrs().unit.take().map(Code::new);
        }
        (Scope::Item, Leaf::Name) => item.name = Some(v.string()),
        (Scope::Item, Leaf::Description) => item.description = Some(v.string()),
        (Scope::ItemIdentification(ItemId::Buyers), Leaf::ID) => {
            item.buyer_identifier = Some(v.string());
        }
        (Scope::ItemIdentification(ItemId::Sellers), Leaf::ID) => {
            item.seller_identifier = Some(v.string());
        }
        (Scope::ItemIdentification(ItemId::Standard), Leaf::ID) => {
            item.standard_identifier = Some(v.identifier());
        }
        (Scope::OriginCountry, Leaf::IdentificationCode) => item.origin_country = Some(v.code()),
        // the scheme of a classification is its `listID`
        (Scope::Commodity, Leaf::ItemClassificationCode) => {
            let list = v.attrs().list.take();
            let code = v.schemed(list);
            item.classification_identifiers.push(code);
        }
        (Scope::Property, Leaf::Name) => l.property.name = Some(v.string()),
        (Scope::Property, Leaf::Value) => l.property.value = Some(v.string()),
        _ => return None,
    }
    Some(())
}

/// A line's own values. Its quantity is `InvoicedQuantity` on an invoice and
/// `CreditedQuantity` on a credit note.
fn line_leaf(
    line: &mut InvoiceLine,
    credit: bool,
    leaf: Leaf,
    v: &mut Value<'_, '_>,
) -> Option<()> {
    match leaf {
        Leaf::ID => line.id = v.string(),
        Leaf::Note => line.note = Some(v.string()),
        Leaf::InvoicedQuantity | Leaf::CreditedQuantity
            if credit == (leaf == Leaf::CreditedQuantity) =>
        {
            line.quantity = Quantity::new(v.decimal()?);
            line.unit_code = v.attrs().unit.take().map(Code::new).unwrap_or_default();
        }
        Leaf::LineExtensionAmount => line.net_amount = v.amount()?,
        Leaf::AccountingCost => line.accounting_reference = Some(v.string()),
        _ => return None,
    }
    Some(())
}

pub(super) fn close(d: &mut Doc, scope: Scope) -> Option<()> {
    let l = &mut d.lines;
    match scope {
        Scope::Line => d
            .inv
            .lines
            .push(std::mem::replace(&mut l.line, blank_line())),
        Scope::LinePeriod => l.line.period = Some(std::mem::take(&mut l.period)),
        // a line's document reference is its object identifier (BT-128) when of type `130`;
        // the general reader passes over any other, and so does this one
        Scope::LineDocument => {
            let document = l.document.take();
            if l.document_type.take().as_deref() == Some("130") && document.is_some() {
                l.line.object_identifier = document;
            }
        }
        Scope::Property => {
            let property = std::mem::take(&mut l.property);
            l.line.item.attributes.push(property);
        }
        _ => {}
    }
    Some(())
}
