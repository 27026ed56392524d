//! `DatosFactura`: the operation date, the description (the general note), the lines
//! (`DetallesFactura`, each with its total including tax, as Gipuzkoa and Araba require
//! and Bizkaia accepts), the invoice total, the tax withheld, and the regime keys
//! (`Claves`).

use std::collections::BTreeSet;

use gobl::model::{Invoice, Line};
use gobl::num::Amount;

use super::amounts::{self, Sign};
use super::{Error, time};
use crate::xml::Xml;

const REGIME: &str = "es-tbai-regime";
const PRODUCT: &str = "es-tbai-product";

/// The invoice data, its values written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Data {
    pub op_date: String,
    pub description: String,
    pub details: Vec<Detail>,
    /// `ImporteTotalFactura`.
    pub total: String,
    pub retention: String,
    pub keys: Vec<String>,
}

/// `IDDetalleFactura`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Detail {
    pub description: String,
    pub quantity: String,
    pub unit_price: String,
    pub discount: String,
    pub total: String,
}

/// Read the invoice data.
pub(crate) fn build(inv: &Invoice) -> Result<Data, Error> {
    let sign = Sign {
        negative: inv.kind == "credit-note",
    };
    let op_date = inv
        .op_date
        .or(inv.issue_date)
        .ok_or(Error::Missing("issue_date"))?;
    let retained = retained_categories(inv);
    let details = inv
        .lines
        .iter()
        .filter(|l| l.item.price.is_some())
        .map(|l| detail(l, &retained, sign))
        .collect::<Result<Vec<_>, _>>()?;
    if details.len() > 1000 {
        return Err(Error::Unsupported(format!(
            "{} lines (TicketBAI takes 1000 at most)",
            details.len()
        )));
    }
    let mut withheld = Amount::new(0, 2);
    for c in inv.totals.categories().iter().filter(|c| c.retained) {
        withheld = amounts::add(withheld, c.amount)?;
    }
    Ok(Data {
        op_date: time::date(op_date),
        description: description(inv)?,
        details,
        total: sign.two(inv.totals.total_with_tax)?,
        retention: sign.two(withheld)?,
        keys: keys(inv)?,
    })
}

/// The general note, which the add-on requires (250 characters).
fn description(inv: &Invoice) -> Result<String, Error> {
    let note = inv
        .notes
        .iter()
        .find(|n| n.key.as_deref() == Some("general") && !n.text.trim().is_empty())
        .ok_or(Error::Missing("a note with key 'general'"))?;
    Ok(note.text.trim().chars().take(250).collect())
}

fn retained_categories(inv: &Invoice) -> BTreeSet<&str> {
    inv.totals
        .categories()
        .iter()
        .filter(|c| c.retained)
        .map(|c| c.code.as_str())
        .collect()
}

/// A line: its quantity, unit price (without tax), discount, and total with the taxes
/// it bears (withheld taxes left out).
fn detail(l: &Line, retained: &BTreeSet<&str>, sign: Sign) -> Result<Detail, Error> {
    let price = l.item.price.unwrap_or(Amount::new(0, 2));
    let total = l.total.unwrap_or(Amount::new(0, 2));
    let sum = l.sum.unwrap_or(total);
    let discount = sum.sub(total).map_err(|e| Error::Amount(e.to_string()))?;
    let mut with_tax = total;
    for t in l
        .taxes
        .iter()
        .filter(|t| !retained.contains(t.cat.as_str()))
    {
        for p in [t.percent, t.surcharge].into_iter().flatten() {
            let tax = p.of(total).map_err(|e| Error::Amount(e.to_string()))?;
            with_tax = amounts::add(with_tax, tax)?;
        }
    }
    let name = l.item.name.trim();
    Ok(Detail {
        description: if name.is_empty() {
            "-".into()
        } else {
            name.chars().take(250).collect()
        },
        quantity: sign.figure(l.quantity)?,
        unit_price: Sign { negative: false }.up_to_eight(price)?,
        discount: sign.up_to_eight(discount)?,
        total: sign.up_to_eight(with_tax)?,
    })
}

/// `ClaveRegimenIvaOpTrascendencia`: the rates' `es-tbai-regime` codes, in order, once
/// each (one to three). Without any, the reference's rule: `02` for a foreign customer,
/// `51` for resale under the equivalence surcharge, `52` under the simplified scheme,
/// else `01`.
fn keys(inv: &Invoice) -> Result<Vec<String>, Error> {
    let mut keys: Vec<String> = Vec::new();
    for cat in inv.totals.categories().iter().filter(|c| !c.retained) {
        for code in cat.rates.iter().filter_map(|r| r.ext.get(REGIME)) {
            if !keys.contains(code) {
                keys.push(code.clone());
            }
        }
    }
    if keys.is_empty() {
        keys = reference_keys(inv);
    }
    if keys.len() > 3 {
        return Err(Error::Unsupported(format!(
            "{} regime keys ({}): TicketBAI takes three at most",
            keys.len(),
            keys.join(", ")
        )));
    }
    Ok(keys)
}

fn reference_keys(inv: &Invoice) -> Vec<String> {
    let mut keys = Vec::new();
    let foreign = inv
        .customer
        .as_ref()
        .is_some_and(|c| super::parties::country(c) != Some("ES"));
    if foreign {
        keys.push("02".to_string());
    }
    let resale = inv.totals.category("VAT").is_some_and(|c| {
        c.rates
            .iter()
            .any(|r| r.ext.get(PRODUCT).map(String::as_str) == Some("resale"))
    });
    if resale {
        keys.push("51".into());
    }
    if inv.has_tag("simplified-scheme") {
        keys.push("52".into());
    }
    if keys.is_empty() {
        keys.push("01".into());
    }
    keys
}

/// Write `DatosFactura`.
pub(crate) fn write(x: &mut Xml, d: &Data) {
    x.group("DatosFactura", |x| {
        x.text("FechaOperacion", &d.op_date);
        x.text("DescripcionFactura", &d.description);
        if !d.details.is_empty() {
            x.group("DetallesFactura", |x| {
                for l in &d.details {
                    x.group("IDDetalleFactura", |x| {
                        x.text("DescripcionDetalle", &l.description);
                        x.text("Cantidad", &l.quantity);
                        x.text("ImporteUnitario", &l.unit_price);
                        x.text("Descuento", &l.discount);
                        x.text("ImporteTotal", &l.total);
                    });
                }
            });
        }
        x.text("ImporteTotalFactura", &d.total);
        x.text("RetencionSoportada", &d.retention);
        x.group("Claves", |x| {
            for k in &d.keys {
                x.group("IDClave", |x| x.text("ClaveRegimenIvaOpTrascendencia", k));
            }
        });
    });
}
