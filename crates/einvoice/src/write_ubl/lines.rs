//! The lines (BG-25): `cac:InvoiceLine` or `cac:CreditNoteLine`, with the item and price.

use en16931::invoice::{InvoiceLine, Item, PriceDetails};

use super::Doc;
use super::header::period;
use super::out::Out;
use super::payment::allowance_body;
use super::totals::tax_category;

pub(super) fn write(out: &mut Out, doc: &Doc) {
    // UBL requires a line; the crate reports its absence.
    if doc.inv.lines.is_empty() {
        out.fail();
    }
    let (name, quantity) = if doc.credit {
        ("cac:CreditNoteLine", "cbc:CreditedQuantity")
    } else {
        ("cac:InvoiceLine", "cbc:InvoicedQuantity")
    };
    for l in &doc.inv.lines {
        out.group(name, |out| line(out, l, quantity, doc.ccy));
    }
}

fn line(out: &mut Out, l: &InvoiceLine, quantity: &str, ccy: &str) {
    out.leaf("cbc:ID", &l.id);
    if let Some(n) = &l.note {
        out.leaf("cbc:Note", n);
    }
    out.leaf_shown(quantity, &[("unitCode", l.unit_code.as_str())], l.quantity);
    out.amount("cbc:LineExtensionAmount", ccy, l.net_amount);
    if let Some(a) = &l.accounting_reference {
        out.leaf("cbc:AccountingCost", a);
    }
    if let Some(p) = &l.period {
        period(out, p, None);
    }
    if let Some(o) = &l.order_line_reference {
        out.group("cac:OrderLineReference", |out| {
            out.leaf("cbc:LineID", o.as_str());
        });
    }
    if let Some(o) = &l.object_identifier {
        out.group("cac:DocumentReference", |out| {
            out.ident("cbc:ID", o);
            out.leaf("cbc:DocumentTypeCode", "130");
        });
    }
    for (list, charge) in [(&l.allowances, false), (&l.charges, true)] {
        for a in list {
            out.group("cac:AllowanceCharge", |out| {
                allowance_body(
                    out,
                    charge,
                    a.reason_code.as_ref(),
                    a.reason.as_deref(),
                    a.percentage,
                    (a.amount, a.base_amount),
                    ccy,
                );
            });
        }
    }
    item(out, &l.item, l);
    price(out, &l.price, ccy);
}

fn item(out: &mut Out, i: &Item, l: &InvoiceLine) {
    out.group("cac:Item", |out| {
        if let Some(d) = &i.description {
            out.leaf("cbc:Description", d);
        }
        if let Some(n) = &i.name {
            out.leaf("cbc:Name", n);
        }
        if let Some(b) = &i.buyer_identifier {
            out.group("cac:BuyersItemIdentification", |out| out.leaf("cbc:ID", b));
        }
        if let Some(s) = &i.seller_identifier {
            out.group("cac:SellersItemIdentification", |out| out.leaf("cbc:ID", s));
        }
        if let Some(s) = &i.standard_identifier {
            out.group("cac:StandardItemIdentification", |out| {
                out.ident("cbc:ID", s)
            });
        }
        if let Some(c) = &i.origin_country {
            out.group("cac:OriginCountry", |out| {
                out.leaf("cbc:IdentificationCode", c.as_str());
            });
        }
        for c in &i.classification_identifiers {
            // BT-158's scheme is `@listID`, not `@schemeID`.
            out.group("cac:CommodityClassification", |out| {
                let name = "cbc:ItemClassificationCode";
                match (c.scheme(), c.scheme_version()) {
                    (None, None) => out.leaf(name, c.content()),
                    (Some(s), None) => out.leaf_attrs(name, &[("listID", s)], c.content()),
                    (None, Some(v)) => {
                        out.leaf_attrs(name, &[("listVersionID", v)], c.content());
                    }
                    (Some(s), Some(v)) => {
                        let attrs = [("listID", s), ("listVersionID", v)];
                        out.leaf_attrs(name, &attrs, c.content());
                    }
                }
            });
        }
        tax_category(out, "cac:ClassifiedTaxCategory", &l.vat);
        for a in &i.attributes {
            out.group("cac:AdditionalItemProperty", |out| {
                out.leaf("cbc:Name", a.name.as_deref().unwrap_or_default());
                out.leaf("cbc:Value", a.value.as_deref().unwrap_or_default());
            });
        }
    });
}

/// BG-29. A gross price without a discount the crate writes with a zero discount, reported
/// as derived.
fn price(out: &mut Out, p: &PriceDetails, ccy: &str) {
    if p.gross_price.is_some() && p.price_discount.is_none() {
        out.fail();
    }
    out.group("cac:Price", |out| {
        out.leaf_shown("cbc:PriceAmount", &[("currencyID", ccy)], p.net_price);
        if let Some(q) = p.base_quantity {
            // No `unitCode` when BT-150 is absent or empty.
            match p.base_quantity_code.as_ref().map(|c| c.as_str()) {
                Some(u) if !u.is_empty() => {
                    out.leaf_shown("cbc:BaseQuantity", &[("unitCode", u)], q);
                }
                _ => out.leaf_shown("cbc:BaseQuantity", &[], q),
            }
        }
        if let Some(d) = p.price_discount {
            out.group("cac:AllowanceCharge", |out| {
                out.leaf("cbc:ChargeIndicator", "false");
                out.leaf_shown("cbc:Amount", &[("currencyID", ccy)], d);
                if let Some(g) = p.gross_price {
                    out.leaf_shown("cbc:BaseAmount", &[("currencyID", ccy)], g);
                }
            });
        }
    });
}
