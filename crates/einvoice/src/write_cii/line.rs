//! An invoice line (BG-25): `ram:IncludedSupplyChainTradeLineItem`.

use en16931::InvoiceLine;
use en16931::invoice::{Item, PriceDetails};

use super::{
    Out, accounting_account, allowance_terms, charge_indicator, ident, object_identifier, period,
};

pub(super) fn write(x: &mut Out, l: &InvoiceLine) {
    x.group("ram:IncludedSupplyChainTradeLineItem", |x| {
        x.group("ram:AssociatedDocumentLineDocument", |x| {
            x.leaf("ram:LineID", &l.id);
            if let Some(n) = &l.note {
                x.group("ram:IncludedNote", |x| x.leaf("ram:Content", n));
            }
        });
        x.group("ram:SpecifiedTradeProduct", |x| product(x, &l.item));
        x.group("ram:SpecifiedLineTradeAgreement", |x| agreement(x, l));
        x.group("ram:SpecifiedLineTradeDelivery", |x| {
            x.number_with(
                "ram:BilledQuantity",
                &[("unitCode", l.unit_code.as_str())],
                l.quantity,
            )
        });
        x.group("ram:SpecifiedLineTradeSettlement", |x| settlement(x, l));
    });
}

/// BG-31: the item.
fn product(x: &mut Out, i: &Item) {
    if let Some(s) = &i.standard_identifier {
        ident(x, "ram:GlobalID", s);
    }
    if let Some(s) = &i.seller_identifier {
        x.leaf("ram:SellerAssignedID", s);
    }
    if let Some(b) = &i.buyer_identifier {
        x.leaf("ram:BuyerAssignedID", b);
    }
    if let Some(n) = &i.name {
        x.leaf("ram:Name", n);
    }
    if let Some(d) = &i.description {
        x.leaf("ram:Description", d);
    }
    for a in &i.attributes {
        x.group("ram:ApplicableProductCharacteristic", |x| {
            x.leaf("ram:Description", a.name.as_deref().unwrap_or_default());
            x.leaf("ram:Value", a.value.as_deref().unwrap_or_default());
        });
    }
    for c in &i.classification_identifiers {
        x.group("ram:DesignatedProductClassification", |x| {
            match c.scheme() {
                Some(s) => x.leaf_with("ram:ClassCode", &[("listID", s)], c.content()),
                None => x.leaf("ram:ClassCode", c.content()),
            }
        });
    }
    if let Some(c) = &i.origin_country {
        x.group("ram:OriginTradeCountry", |x| x.leaf("ram:ID", c.as_str()));
    }
}

/// BT-132 and the prices (BG-29). BT-147 sits inside the gross price; a discount without
/// one never reaches here (the crate reports it).
fn agreement(x: &mut Out, l: &InvoiceLine) {
    if let Some(o) = &l.order_line_reference {
        x.group("ram:BuyerOrderReferencedDocument", |x| {
            x.leaf("ram:LineID", o.as_str())
        });
    }
    let p = &l.price;
    if let Some(g) = p.gross_price {
        x.group("ram:GrossPriceProductTradePrice", |x| {
            x.number("ram:ChargeAmount", g);
            basis_quantity(x, p);
            if let Some(d) = p.price_discount {
                x.group("ram:AppliedTradeAllowanceCharge", |x| {
                    charge_indicator(x, false);
                    x.number("ram:ActualAmount", d);
                });
            }
        });
    }
    x.group("ram:NetPriceProductTradePrice", |x| {
        x.number("ram:ChargeAmount", p.net_price);
        basis_quantity(x, p);
    });
}

/// BT-149, with BT-150 as its `unitCode` unless that is absent or empty.
fn basis_quantity(x: &mut Out, p: &PriceDetails) {
    let Some(q) = p.base_quantity else { return };
    match p
        .base_quantity_code
        .as_ref()
        .map(|c| c.as_str())
        .filter(|u| !u.is_empty())
    {
        Some(u) => x.number_with("ram:BasisQuantity", &[("unitCode", u)], q),
        None => x.number("ram:BasisQuantity", q),
    }
}

/// The line's VAT, period, allowances and charges, net amount and references.
fn settlement(x: &mut Out, l: &InvoiceLine) {
    x.group("ram:ApplicableTradeTax", |x| {
        x.leaf("ram:TypeCode", "VAT");
        x.leaf("ram:CategoryCode", l.vat.category.as_str());
        if let Some(r) = l.vat.rate {
            x.number("ram:RateApplicablePercent", r);
        }
    });
    if let Some(p) = &l.period {
        period(x, p);
    }
    let allowances = l.allowances.iter().map(|a| (a, false));
    for (a, is_charge) in allowances.chain(l.charges.iter().map(|c| (c, true))) {
        x.group("ram:SpecifiedTradeAllowanceCharge", |x| {
            allowance_terms(
                x,
                is_charge,
                a.percentage,
                (a.amount, a.base_amount),
                a.reason_code.as_ref(),
                a.reason.as_deref(),
            );
        });
    }
    x.group("ram:SpecifiedTradeSettlementLineMonetarySummation", |x| {
        x.number("ram:LineTotalAmount", l.net_amount)
    });
    if let Some(o) = &l.object_identifier {
        object_identifier(x, o);
    }
    if let Some(a) = &l.accounting_reference {
        accounting_account(x, a);
    }
}
