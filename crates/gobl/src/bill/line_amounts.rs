//! What a line and its sublines (`breakdown`, `substituted`) both compute: an item's price in
//! the document currency, and a discount's or charge's amount.

use crate::json;
use crate::json::Value;

use super::CalcError;
use super::invoice_ctx::Ctx;
use super::val::{Obj, amount, get, num_err, percent, set_amount, string};
use crate::currency;
use crate::fault::Path;
use crate::num::Amount;

/// Extra decimals kept on line prices under the `precise` rounding rule.
pub(super) const LINE_PRECISION_EXTRA: u32 = 2;

/// Convert an item's price into the document currency (using `alt_prices` or the exchange
/// rates), raising it to at least the currency's subunits. Returns the price.
pub(super) fn calculate_item_price(
    item: &mut Obj,
    ctx: &Ctx,
    path: Path,
) -> Result<Amount, CalcError> {
    let p = path.member("item");
    let price = amount(item, "price", p)?.unwrap_or(Amount::ZERO);
    let icur = string(item, "currency").map(str::to_string);
    let icur_sub = icur
        .as_deref()
        .and_then(currency::subunits)
        .unwrap_or(ctx.sub);
    let price = price.rescale_up(icur_sub).map_err(num_err(p))?;
    let Some(icur) = icur.filter(|c| c != &ctx.cur) else {
        set_amount(item, "price", price);
        return Ok(price);
    };
    let original = json!({"currency": icur, "value": price.to_string()});
    if let Some(alts) = get(item, "alt_prices").and_then(Value::as_array) {
        let alt_prices = p.member("alt_prices");
        for (i, ap) in alts.iter().enumerate() {
            let Some(apo) = ap.as_object() else { continue };
            if string(apo, "currency") == Some(ctx.cur.as_str()) {
                let ap_path = alt_prices.item(i);
                let v = amount(apo, "value", ap_path)?.unwrap_or(Amount::ZERO);
                let v = v.rescale_up(ctx.sub).map_err(num_err(ap_path))?;
                item.insert("currency".into(), Value::String(ctx.cur.clone().into()));
                set_amount(item, "price", v);
                item.insert("alt_prices".into(), Value::Array(vec![original]));
                return Ok(v);
            }
        }
    }
    let np = match currency::convert(&ctx.rates, &icur, &ctx.cur, price) {
        Some(r) => r.map_err(num_err(p))?,
        None => {
            return Err(CalcError::new(
                format!("{p}.currency"),
                format!("no exchange rate found from '{icur}' to '{}'", ctx.cur),
            ));
        }
    };
    item.insert("currency".into(), Value::String(ctx.cur.clone().into()));
    set_amount(item, "price", np);
    item.insert("alt_prices".into(), Value::Array(vec![original]));
    Ok(np)
}

/// A line discount or charge amount (`quantity` given for charges, which may have a rate).
pub(super) fn line_adjustment(
    o: &mut Obj,
    ctx: &Ctx,
    sum: Amount,
    quantity: Option<Amount>,
    p: Path,
) -> Result<Amount, CalcError> {
    let e = num_err(p);
    let mut amt = amount(o, "amount", p)?.unwrap_or(Amount::ZERO);
    if let Some(pc) = percent(o, "percent", p)? {
        let mut base = sum;
        if let Some(b) = amount(o, "base", p)? {
            let b = b.rescale_up(ctx.sub).map_err(&e)?;
            set_amount(o, "base", b);
            base = ctx
                .apply(b.rescale_up(ctx.sub + LINE_PRECISION_EXTRA).map_err(&e)?)
                .map_err(&e)?;
        }
        amt = pc.of(base).map_err(&e)?;
    }
    if let Some(q) = quantity
        && let Some(rate) = amount(o, "rate", p)?
    {
        let q = amount(o, "quantity", p)?.unwrap_or(q);
        amt = rate.mul(q).map_err(&e)?;
    }
    amt.rescale_up(ctx.sub).map_err(&e)
}
