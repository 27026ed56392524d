//! `Items`: one `InvoiceLine` per priced line, with its discounts, charges and taxes.

use gobl::model::{Invoice, Line};

use super::format::{amount, minimal};
use super::taxes::{adjustments, line_taxes};
use crate::xml::Xml;

/// Every line with a total (a line without one was never calculated and is skipped).
pub(crate) fn write(x: &mut Xml, inv: &Invoice) {
    x.open("Items");
    for line in inv.lines.iter().filter(|l| l.total.is_some()) {
        invoice_line(x, line, inv);
    }
    x.close("Items");
}

fn invoice_line(x: &mut Xml, line: &Line, inv: &Invoice) {
    x.open("InvoiceLine");
    x.text("ItemDescription", &line.item.name);
    x.text("Quantity", &line.quantity.to_string());
    x.text(
        "UnitPriceWithoutTax",
        &line.item.price.map(minimal).unwrap_or_else(|| "0".into()),
    );
    x.text("TotalCost", &amount(line.sum.unwrap_or_default()));
    let discounts: Vec<_> = line
        .discounts
        .iter()
        .map(|d| (d.reason.as_deref(), d.percent, d.amount))
        .collect();
    adjustments(x, "DiscountsAndRebates", "Discount", &discounts);
    let charges: Vec<_> = line
        .charges
        .iter()
        .map(|c| (c.reason.as_deref(), c.percent, c.amount))
        .collect();
    adjustments(x, "Charges", "Charge", &charges);
    x.text("GrossAmount", &amount(line.total.unwrap_or_default()));
    line_taxes(x, line, &inv.totals);
    x.close("InvoiceLine");
}
