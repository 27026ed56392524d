//! `FaWiersz`: one per line, with its name, unit, quantity, unit price and total (net, or
//! gross when the prices include VAT), the discount, and the VAT rate code (or the OSS
//! rate for a one-stop-shop sale).

use gobl::model::Line;
use gobl::num::Amount;

use super::Error;
use super::codes::{combo_category, rate_code, unit_code};
use super::ctx::Ctx;
use super::format::{amount, date, percent, price, quantity, token};
use crate::xml::Xml;

/// FA(3) takes at most 10 000 lines.
const MAX_LINES: usize = 10_000;

pub(super) fn write(x: &mut Xml, ctx: &Ctx) -> Result<(), Error> {
    if ctx.inv.lines.len() > MAX_LINES {
        return Err(Error::Unsupported(format!(
            "{} lines (at most {MAX_LINES})",
            ctx.inv.lines.len()
        )));
    }
    let gross = ctx
        .inv
        .tax
        .as_ref()
        .and_then(|t| t.prices_include.as_deref())
        == Some("VAT");
    for line in &ctx.inv.lines {
        write_line(x, ctx, line, gross)?;
    }
    Ok(())
}

fn write_line(x: &mut Xml, ctx: &Ctx, line: &Line, gross: bool) -> Result<(), Error> {
    let rate = vat_rate(line)?;
    x.open("FaWiersz");
    x.text("NrWierszaFa", &line.index.to_string());
    if let Some(d) = line.period.as_ref().and_then(|p| p.end) {
        x.text("P_6A", &date(d));
    }
    x.opt("P_7", token(&line.item.name, 512).as_deref());
    if let Some(u) = line.item.unit.as_deref().filter(|u| !u.is_empty()) {
        x.text("P_8A", &unit_code(u));
    }
    x.text("P_8B", &quantity(ctx.sign.of(line.quantity)));
    let (unit_price, total) = if gross {
        ("P_9B", "P_11A")
    } else {
        ("P_9A", "P_11")
    };
    if let Some(p) = line.item.price {
        x.text(unit_price, &price(p));
    }
    if let Some(d) = discount(line)? {
        x.text("P_10", &price(ctx.sign.of(d)));
    }
    if let Some(t) = line.total {
        x.text(total, &amount(ctx.sign.of(t)));
    }
    match rate {
        Some(Rate::Code(c)) => x.text("P_12", &c),
        Some(Rate::Oss(p)) => x.text("P_12_XII", &p),
        None => {}
    }
    x.close("FaWiersz");
    Ok(())
}

/// The sum of the line's discounts (`P_10`), if it has any.
fn discount(line: &Line) -> Result<Option<Amount>, Error> {
    let mut sum: Option<Amount> = None;
    for d in &line.discounts {
        sum = Some(match sum {
            Some(s) => s.add(d.amount).map_err(|e| Error::Invalid(e.to_string()))?,
            None => d.amount,
        });
    }
    Ok(sum)
}

enum Rate {
    /// `P_12`: a rate figure or the code of a category without a rate.
    Code(String),
    /// `P_12_XII`: the rate of a one-stop-shop sale (category 5).
    Oss(String),
}

fn vat_rate(line: &Line) -> Result<Option<Rate>, Error> {
    let Some(combo) = line.tax("VAT") else {
        return Ok(None);
    };
    let Some(cat) = combo_category(combo) else {
        return Err(Error::Unsupported(format!(
            "line {}: VAT without a category",
            line.index
        )));
    };
    if cat == "5" {
        return Ok(combo.percent.map(|p| Rate::Oss(percent(p))));
    }
    if cat == "11" {
        // A margin-scheme sale shows no rate.
        return Ok(None);
    }
    rate_code(&cat, combo.percent)
        .map(|c| Some(Rate::Code(c)))
        .map_err(|e| Error::Unsupported(format!("line {}: {e}", line.index)))
}
