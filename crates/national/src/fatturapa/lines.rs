//! `DettaglioLinee`: one per priced line.

use gobl::model::{Invoice, Line};
use gobl::num::Amount;

use super::Error;
use super::codes::latin;
use super::format::{amount8, percent, percent_or_zero};
use super::general::adjustment;
use crate::xml::Xml;

/// The `AltriDatiGestionali` the reference adds to a reverse-charge line outside the scope
/// of Italian VAT.
const REVERSE_CHARGE_DATA: (&str, &str) = (
    "INVCONT",
    "Inversione contabile - art. 21 c.6 bis lett. a) DPR 633/72",
);

/// Lines without a price are left out; the schema needs at least one line.
pub(crate) fn write(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let reverse_charge = inv.has_tag("reverse-charge");
    let mut written = 0;
    for line in &inv.lines {
        if let Some(price) = line.item.price {
            detail(x, line, price, reverse_charge);
            written += 1;
        }
    }
    if written == 0 {
        return Err(Error::Missing("lines[].item.price"));
    }
    Ok(())
}

fn detail(x: &mut Xml, line: &Line, price: Amount, reverse_charge: bool) {
    // The schema's quantity is unsigned: a negative quantity moves its sign to the price.
    let (qty, price) = if line.quantity.is_negative() {
        (neg(line.quantity), neg(price))
    } else {
        (line.quantity, price)
    };
    let vat = line.tax("VAT");
    let nature = vat
        .and_then(|t| t.ext.get("it-sdi-exempt"))
        .map(String::as_str);
    x.open("DettaglioLinee");
    x.text("NumeroLinea", &line.index.to_string());
    x.text("Descrizione", &latin(&line.item.name, 1000));
    x.text("Quantita", &amount8(qty));
    x.opt(
        "UnitaMisura",
        line.item.unit.as_deref().map(|u| latin(u, 10)).as_deref(),
    );
    if let Some(p) = &line.period {
        x.opt(
            "DataInizioPeriodo",
            p.start.map(|d| d.to_string()).as_deref(),
        );
        x.opt("DataFinePeriodo", p.end.map(|d| d.to_string()).as_deref());
    }
    x.text("PrezzoUnitario", &amount8(price));
    for d in &line.discounts {
        adjustment(x, "SC", d.percent.map(percent), per_unit(d.amount, qty));
    }
    for c in &line.charges {
        adjustment(x, "MG", c.percent.map(percent), per_unit(c.amount, qty));
    }
    x.text("PrezzoTotale", &amount8(line.total.unwrap_or_default()));
    x.text("AliquotaIVA", &percent_or_zero(vat.and_then(|t| t.percent)));
    if line
        .taxes
        .iter()
        .any(|t| t.ext.contains_key("it-sdi-retained"))
    {
        x.text("Ritenuta", "SI");
    }
    x.opt("Natura", nature);
    if reverse_charge && nature == Some("N2.1") {
        x.group("AltriDatiGestionali", |x| {
            x.text("TipoDato", REVERSE_CHARGE_DATA.0);
            x.text("RiferimentoTesto", REVERSE_CHARGE_DATA.1);
        });
    }
    x.close("DettaglioLinee");
}

fn neg(a: Amount) -> Amount {
    a.negate().unwrap_or(a)
}

/// FatturaPA applies a line's discounts and charges to the unit price, so an amount on
/// the whole line is divided by the quantity (with four decimals at least).
fn per_unit(amount: Amount, qty: Amount) -> Amount {
    if qty.is_zero() || qty.equals(&Amount::new(1, 0)) {
        return amount;
    }
    amount
        .rescale_up(4)
        .and_then(|a| a.div(qty))
        .unwrap_or(amount)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> Amount {
        Amount::parse(s).unwrap()
    }

    #[test]
    fn line_adjustments_are_per_unit() {
        assert_eq!(per_unit(a("180.00"), a("20")).to_string(), "9.0000");
        assert_eq!(per_unit(a("76.69"), a("2")).to_string(), "38.3450");
        assert_eq!(per_unit(a("7.00"), a("1")).to_string(), "7.00");
        assert_eq!(per_unit(a("7.00"), a("0")).to_string(), "7.00");
    }
}
