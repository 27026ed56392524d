//! An invoice line (BG-25): its document, item, agreement (prices), delivery (quantity) and
//! settlement.

use en16931::invoice::{
    Code, InvoiceLine, Item, ItemAttribute, LineAllowanceCharge, LineVat, PriceDetails,
};
use en16931::{DocumentReference, Identifier, InvoiceAmount, Quantity};

use super::settle::{allowance_charge, line_vat, period};
use super::values::{code, identifier, leaf_amount, quantity, text, trimmed, unit_price};
use super::xml::{Doc, Elem, R, Seen, Stop};

/// `ram:IncludedSupplyChainTradeLineItem`.
pub(super) fn line<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<InvoiceLine> {
    let mut l = InvoiceLine {
        id: String::new(),
        note: None,
        order_line_reference: None,
        accounting_reference: None,
        object_identifier: None,
        quantity: Quantity::ZERO,
        unit_code: Code::new(""),
        net_amount: InvoiceAmount::default(),
        period: None,
        allowances: Vec::new(),
        charges: Vec::new(),
        price: PriceDetails::default(),
        vat: LineVat::default(),
        item: Item::default(),
    };
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "AssociatedDocumentLineDocument" => line_document(doc, &c, &mut l)?,
            "SpecifiedTradeProduct" => l.item = item(doc, &c)?,
            "SpecifiedLineTradeAgreement" => agreement(doc, &c, &mut l)?,
            "SpecifiedLineTradeDelivery" => {
                let [billed] = doc.leaves(&c, ["BilledQuantity"])?;
                if let Some(q) = billed {
                    // the crate reads a quantity that is not a number as zero: left to it
                    l.quantity = quantity(Some(&q))?.ok_or(Stop)?;
                    l.unit_code = Code::new(q.attrs.get("unitCode").unwrap_or_default());
                }
            }
            "SpecifiedLineTradeSettlement" => settlement(doc, &c, &mut l)?,
            _ => return Err(Stop),
        }
    }
    Ok(l)
}

fn line_document<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, l: &mut InvoiceLine) -> R<()> {
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "LineID" => l.id = trimmed(&doc.text(&c)?).unwrap_or_default(),
            "IncludedNote" => {
                let [content] = doc.leaves(&c, ["Content"])?;
                l.note = text(content.as_ref());
            }
            _ => return Err(Stop),
        }
    }
    Ok(())
}

fn item<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<Item> {
    let mut i = Item::default();
    let mut seen = Seen::default();
    let repeatable = [
        "ApplicableProductCharacteristic",
        "DesignatedProductClassification",
    ];
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &repeatable)?;
        match c.local {
            "GlobalID" => i.standard_identifier = Some(identifier(&doc.leaf(&c)?)),
            "SellerAssignedID" => i.seller_identifier = trimmed(&doc.text(&c)?),
            "BuyerAssignedID" => i.buyer_identifier = trimmed(&doc.text(&c)?),
            "Name" => i.name = trimmed(&doc.text(&c)?),
            "Description" => i.description = trimmed(&doc.text(&c)?),
            "ApplicableProductCharacteristic" => {
                let [name, value] = doc.leaves(&c, ["Description", "Value"])?;
                i.attributes.push(ItemAttribute {
                    name: text(name.as_ref()),
                    value: text(value.as_ref()),
                });
            }
            "DesignatedProductClassification" => {
                let [class] = doc.leaves(&c, ["ClassCode"])?;
                if let Some(class) = class {
                    i.classification_identifiers.push(identifier(&class));
                }
            }
            "OriginTradeCountry" => {
                let [id] = doc.leaves(&c, ["ID"])?;
                i.origin_country = code(id.as_ref());
            }
            _ => return Err(Stop),
        }
    }
    Ok(i)
}

/// The order line reference and the prices (BG-29).
fn agreement<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, l: &mut InvoiceLine) -> R<()> {
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "BuyerOrderReferencedDocument" => {
                let [line_id] = doc.leaves(&c, ["LineID"])?;
                l.order_line_reference = text(line_id.as_ref()).map(DocumentReference::new);
            }
            "GrossPriceProductTradePrice" => gross_price(doc, &c, &mut l.price)?,
            "NetPriceProductTradePrice" => {
                let [amount, basis] = doc.leaves(&c, ["ChargeAmount", "BasisQuantity"])?;
                l.price.net_price = unit_price(amount.as_ref())?.unwrap_or_default();
                l.price.base_quantity = quantity(basis.as_ref())?;
                // a blank unit is an absent BT-150
                l.price.base_quantity_code = basis
                    .as_ref()
                    .and_then(|b| b.attrs.get("unitCode"))
                    .filter(|u| !u.trim().is_empty())
                    .map(Code::new);
            }
            _ => return Err(Stop),
        }
    }
    Ok(())
}

/// BT-148 and its discount BT-147 (the gross price's base quantity repeats the net one's,
/// which is the one read).
fn gross_price<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, price: &mut PriceDetails) -> R<()> {
    let (mut gross, mut discount) = (None, None);
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "ChargeAmount" => gross = unit_price(Some(&doc.leaf(&c)?))?,
            "BasisQuantity" => {
                doc.leaf(&c)?;
            }
            "AppliedTradeAllowanceCharge" => discount = price_discount(doc, &c)?,
            _ => return Err(Stop),
        }
    }
    price.gross_price = gross;
    price.price_discount = discount;
    Ok(())
}

fn price_discount<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<Option<en16931::UnitPriceAmount>> {
    let mut discount = None;
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            // always an allowance; the crate does not read it
            "ChargeIndicator" => {
                doc.leaves(&c, ["Indicator"])?;
            }
            "ActualAmount" => discount = unit_price(Some(&doc.leaf(&c)?))?,
            _ => return Err(Stop),
        }
    }
    Ok(discount)
}

fn settlement<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, l: &mut InvoiceLine) -> R<()> {
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &["SpecifiedTradeAllowanceCharge"])?;
        match c.local {
            "ApplicableTradeTax" => l.vat = line_vat(doc, &c)?,
            "BillingSpecifiedPeriod" => l.period = Some(period(doc, &c)?),
            "SpecifiedTradeAllowanceCharge" => {
                let (charge, a) = allowance_charge(doc, &c, true)?;
                let a = LineAllowanceCharge {
                    amount: a.amount,
                    base_amount: a.base_amount,
                    percentage: a.percentage,
                    reason: a.reason,
                    reason_code: a.reason_code,
                };
                if charge {
                    l.charges.push(a);
                } else {
                    l.allowances.push(a);
                }
            }
            "SpecifiedTradeSettlementLineMonetarySummation" => {
                let [total] = doc.leaves(&c, ["LineTotalAmount"])?;
                l.net_amount = leaf_amount(total.as_ref())?.unwrap_or_default();
            }
            "AdditionalReferencedDocument" => {
                let [id, _type, scheme] =
                    doc.leaves(&c, ["IssuerAssignedID", "TypeCode", "ReferenceTypeCode"])?;
                let id = text(id.as_ref()).unwrap_or_default();
                l.object_identifier = Some(match text(scheme.as_ref()) {
                    Some(s) => Identifier::schemed(id, s),
                    None => Identifier::new(id),
                });
            }
            "ReceivableSpecifiedTradeAccountingAccount" => {
                let [id] = doc.leaves(&c, ["ID"])?;
                l.accounting_reference = text(id.as_ref());
            }
            _ => return Err(Stop),
        }
    }
    Ok(())
}
