//! Invoice calculation (GOBL.md §5): lines, discounts and charges, taxes, totals, payment.

use serde_json::{Value, json};

use super::CalcError;
use super::combo::Combo;
use super::val::{Obj, amount, insert_after, num_err, percent, set_amount, string};
use crate::currency::{self, ExchangeRate};
use crate::num::{Amount, NumError, Percentage};
use crate::regimes;
use crate::tax::RegimeDef;
use crate::tax::defs::date_num;

/// Extra decimals kept on line prices under the `precise` rounding rule.
const LINE_PRECISION_EXTRA: u32 = 2;

/// How totals are rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// Keep full precision through the sums, round at the end (GOBL's default).
    Precise,
    /// Round each amount to the currency's subunits before summing.
    Currency,
}

impl Rounding {
    fn parse(s: &str) -> Rounding {
        if s == "currency" {
            Rounding::Currency
        } else {
            Rounding::Precise
        }
    }
}

/// The invoice tags every regime accepts.
pub const DEFAULT_INVOICE_TAGS: &[&str] = &[
    "simplified",
    "reverse-charge",
    "self-billed",
    "customer-rates",
    "partial",
    "bypass",
    "prepayment",
    "factoring",
];

struct Ctx {
    regime: Option<&'static RegimeDef>,
    cur: String,
    sub: u32,
    rr: Rounding,
    rates: Vec<ExchangeRate>,
}

impl Ctx {
    fn zero(&self) -> Amount {
        Amount::zero(self.sub)
    }
    fn apply(&self, a: Amount) -> Result<Amount, NumError> {
        match self.rr {
            Rounding::Currency => a.rescale(self.sub),
            Rounding::Precise => a.rescale_up(self.sub),
        }
    }
    fn match_rounding(&self, a: Amount, b: Amount) -> Result<Amount, NumError> {
        match self.rr {
            Rounding::Currency => Ok(a),
            Rounding::Precise => a.match_precision(b),
        }
    }
}

/// The computed values of one line, written back after the final rounding.
struct LineCalc {
    sum: Amount,
    total: Amount,
    discounts: Vec<Amount>,
    charges: Vec<Amount>,
}

/// A taxable total with the location of its combos.
struct TaxLine {
    total: Amount,
    combos: Vec<(Combo, String)>,
    /// (array name, index) of the owner: `lines`, `discounts` or `charges`.
    owner: (&'static str, usize),
}

struct RateTotal {
    country: Option<String>,
    key: Option<String>,
    ext: Option<Value>,
    base: Amount,
    percent: Option<Percentage>,
    surcharge: Option<(Percentage, Amount)>,
    amount: Amount,
}

struct CatTotal {
    code: String,
    retained: bool,
    informative: bool,
    rates: Vec<RateTotal>,
    amount: Amount,
    surcharge: Option<Amount>,
}

fn path_idx(base: &str, i: usize) -> String {
    format!("{base}[{i}]")
}

/// Calculate an invoice (already normalised) in place. `regime` is the invoice's regime.
pub fn calculate_invoice(
    doc: &mut Obj,
    regime: Option<&'static RegimeDef>,
) -> Result<(), CalcError> {
    // Currency.
    let cur = match string(doc, "currency") {
        Some(c) if currency::is_known(c) => c.to_string(),
        _ => match regime {
            Some(r) => {
                insert_after(
                    doc,
                    "issue_date",
                    "currency",
                    Value::String(r.currency.into()),
                );
                r.currency.to_string()
            }
            None => return Err(CalcError::new("$.currency", "missing or invalid")),
        },
    };
    let sub = currency::subunits(&cur).unwrap_or(2);

    let tags: Vec<String> = doc
        .get("$tags")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if !doc.contains_key("$addons") {
        for t in &tags {
            let known = DEFAULT_INVOICE_TAGS.contains(&t.as_str())
                || regime.is_some_and(|r| r.invoice_tags.contains(&t.as_str()));
            if !known {
                return Err(CalcError::new("$.$tags", format!("'{t}' undefined")));
            }
        }
    }
    if tags.iter().any(|t| t == "bypass") {
        return Ok(());
    }

    // Issue date (today when absent) and the tax date.
    if string(doc, "issue_date").is_none() {
        let today = chrono::Utc::now()
            .date_naive()
            .format("%Y-%m-%d")
            .to_string();
        doc.insert("issue_date".into(), Value::String(today));
    }
    let date_s = string(doc, "value_date")
        .or_else(|| string(doc, "issue_date"))
        .unwrap_or_default()
        .to_string();
    let date = date_num(&date_s).ok_or_else(|| CalcError::new("$.issue_date", "invalid date"))?;

    let tax = doc.get("tax").and_then(Value::as_object);
    let pit = tax
        .and_then(|t| string(t, "prices_include"))
        .map(str::to_string);
    let rr = tax
        .and_then(|t| string(t, "rounding"))
        .map(Rounding::parse)
        .unwrap_or_else(|| Rounding::parse(regime.map(|r| r.rounding_rule()).unwrap_or("precise")));

    let mut rates = Vec::new();
    if let Some(list) = doc.get("exchange_rates").and_then(Value::as_array) {
        for (i, r) in list.iter().enumerate() {
            let Some(o) = r.as_object() else { continue };
            let p = path_idx("$.exchange_rates", i);
            let a =
                amount(o, "amount", &p)?.ok_or_else(|| CalcError::new(&p, "amount required"))?;
            rates.push(ExchangeRate {
                from: string(o, "from").unwrap_or_default().into(),
                to: string(o, "to").unwrap_or_default().into(),
                amount: a,
            });
        }
    }
    let ctx = Ctx {
        regime,
        cur,
        sub,
        rr,
        rates,
    };

    if tags.iter().any(|t| t == "customer-rates") {
        apply_customer_rates(doc);
    }

    // Lines.
    let mut line_calcs: Vec<Option<LineCalc>> = Vec::new();
    if let Some(lines) = doc.get_mut("lines").and_then(Value::as_array_mut) {
        for (i, l) in lines.iter_mut().enumerate() {
            let Some(lo) = l.as_object_mut() else {
                line_calcs.push(None);
                continue;
            };
            set_index(lo, "i", i + 1);
            line_calcs.push(calculate_line(lo, &ctx, &path_idx("$.lines", i))?);
        }
    }
    let mut sum = ctx.zero();
    for lc in line_calcs.iter().flatten() {
        sum = sum
            .match_precision(lc.total)
            .and_then(|s| s.add(lc.total))
            .map_err(num_err("$.totals.sum"))?;
    }
    let mut total = sum;

    let discounts = calculate_doc_adjustments(doc, "discounts", &ctx, sum)?;
    let discount_sum = sum_adjustments(&discounts, &ctx)?;
    if let Some(d) = discount_sum {
        total = total.sub(d).map_err(num_err("$.totals.total"))?;
    }
    let charges = calculate_doc_adjustments(doc, "charges", &ctx, sum)?;
    let charge_sum = sum_adjustments(&charges, &ctx)?;
    if let Some(c) = charge_sum {
        total = total.add(c).map_err(num_err("$.totals.total"))?;
    }

    // Taxable lines: lines with a total, discounts (negated) and charges.
    let mut tls: Vec<TaxLine> = Vec::new();
    for (i, lc) in line_calcs.iter().enumerate() {
        if let Some(lc) = lc {
            tls.push(read_tax_line(doc, "lines", i, lc.total)?);
        }
    }
    for (i, d) in discounts.iter().enumerate() {
        if let Some(d) = d {
            tls.push(read_tax_line(
                doc,
                "discounts",
                i,
                d.negate().map_err(num_err("$.discounts"))?,
            )?);
        }
    }
    for (i, c) in charges.iter().enumerate() {
        if let Some(c) = c {
            tls.push(read_tax_line(doc, "charges", i, *c)?);
        }
    }
    let existing_rounding = doc
        .get("totals")
        .and_then(Value::as_object)
        .map(|t| amount(t, "rounding", "$.totals"))
        .transpose()?
        .flatten();
    if tls.is_empty() {
        doc.remove("totals");
        write_lines(doc, &line_calcs, &ctx)?;
        return Ok(());
    }

    // Resolve every combo and raise line totals to subunits + 2.
    let zero = ctx.zero();
    for tl in tls.iter_mut() {
        for (c, p) in tl.combos.iter_mut() {
            c.calculate(ctx.regime, date, p)?;
            tl.total = tl.total.rescale_up(zero.exp() + 2).map_err(num_err(p))?;
        }
    }
    // Write the resolved combos back into the document.
    for tl in &tls {
        write_combos(doc, tl);
    }
    if let Some(pit) = &pit {
        for tl in tls.iter_mut() {
            if let Some((c, p)) = tl.combos.iter().find(|(c, _)| &c.cat == pit) {
                if c.retained {
                    return Err(CalcError::new(
                        "$.tax.prices_include",
                        format!("cannot include retained category '{pit}'"),
                    ));
                }
                if c.informative {
                    return Err(CalcError::new(
                        "$.tax.prices_include",
                        format!("cannot include informative category '{pit}'"),
                    ));
                }
                if let Some(pc) = c.percent {
                    tl.total = pc.remove_from(tl.total).map_err(num_err(p))?;
                }
            }
        }
    }
    let mut cats: Vec<CatTotal> = Vec::new();
    for tl in &tls {
        for (c, p) in &tl.combos {
            let rt = rate_total_for(&mut cats, c, zero);
            rt.base = ctx
                .match_rounding(rt.base, tl.total)
                .and_then(|b| b.add(tl.total))
                .map_err(num_err(p))?;
        }
    }
    let mut tax_sum = zero;
    let mut retained: Option<Amount> = None;
    let e = num_err("$.totals.taxes");
    for ct in cats.iter_mut() {
        ct.amount = zero;
        for rt in ct.rates.iter_mut() {
            let Some(pc) = rt.percent else {
                rt.amount = zero;
                continue;
            };
            rt.amount = pc.of(rt.base).map_err(&e)?;
            ct.amount = ctx
                .match_rounding(ct.amount, rt.amount)
                .and_then(|a| a.add(rt.amount))
                .map_err(&e)?;
            if let Some((sp, sa)) = rt.surcharge.as_mut() {
                *sa = sp.of(rt.base).map_err(&e)?;
                let x = ct.surcharge.unwrap_or(zero);
                ct.surcharge = Some(
                    ctx.match_rounding(x, *sa)
                        .and_then(|x| x.add(*sa))
                        .map_err(&e)?,
                );
            }
        }
        if ct.informative {
            continue;
        }
        if ct.retained {
            let mut tr = retained.unwrap_or(zero);
            tr = ctx
                .match_rounding(tr, ct.amount)
                .and_then(|t| t.add(ct.amount))
                .map_err(&e)?;
            if let Some(s) = ct.surcharge {
                tr = tr.add(s).map_err(&e)?;
            }
            retained = Some(tr);
        } else {
            tax_sum = ctx
                .match_rounding(tax_sum, ct.amount)
                .and_then(|t| t.add(ct.amount))
                .map_err(&e)?;
            if let Some(s) = ct.surcharge {
                tax_sum = tax_sum.add(s).map_err(&e)?;
            }
        }
    }

    let mut tax_included = None;
    if let Some(pit) = &pit
        && let Some(ct) = cats.iter().find(|c| &c.code == pit)
    {
        tax_included = Some(ct.amount);
        total = total.sub(ct.amount).map_err(num_err("$.totals.total"))?;
    }
    let et = num_err("$.totals");
    let tax = tax_sum;
    let total_with_tax = total.add(tax).map_err(&et)?;
    let mut payable = total_with_tax;
    if let Some(r) = retained {
        payable = payable.sub(r).map_err(&et)?;
    }

    // Final rounding.
    write_lines(doc, &line_calcs, &ctx)?;
    write_doc_adjustments(doc, "discounts", &discounts, &ctx)?;
    write_doc_adjustments(doc, "charges", &charges, &ctx)?;
    let r = |a: Amount| a.rescale(sub).map_err(num_err("$.totals"));
    let mut payable = r(payable)?;
    if let Some(rd) = existing_rounding {
        payable = payable.add(rd).map_err(&et)?;
    }

    let mut t = Obj::new();
    set_amount(&mut t, "sum", r(sum)?);
    if let Some(d) = discount_sum {
        set_amount(&mut t, "discount", r(d)?);
    }
    if let Some(c) = charge_sum {
        set_amount(&mut t, "charge", r(c)?);
    }
    if let Some(ti) = tax_included {
        set_amount(&mut t, "tax_included", r(ti)?);
    }
    set_amount(&mut t, "total", r(total)?);
    if !cats.is_empty() {
        let mut list = Vec::new();
        for ct in &cats {
            let mut co = Obj::new();
            co.insert("code".into(), Value::String(ct.code.clone()));
            if ct.retained {
                co.insert("retained".into(), Value::Bool(true));
            }
            if ct.informative {
                co.insert("informative".into(), Value::Bool(true));
            }
            let mut rl = Vec::new();
            for rt in &ct.rates {
                let mut ro = Obj::new();
                if let Some(c) = &rt.country {
                    ro.insert("country".into(), Value::String(c.clone()));
                }
                if let Some(k) = &rt.key {
                    ro.insert("key".into(), Value::String(k.clone()));
                }
                if let Some(x) = &rt.ext {
                    ro.insert("ext".into(), x.clone());
                }
                set_amount(&mut ro, "base", r(rt.base)?);
                if let Some(p) = rt.percent {
                    ro.insert("percent".into(), Value::String(p.to_string()));
                }
                if let Some((sp, sa)) = rt.surcharge {
                    ro.insert(
                        "surcharge".into(),
                        json!({"percent": sp.to_string(), "amount": r(sa)?.to_string()}),
                    );
                }
                set_amount(&mut ro, "amount", r(rt.amount)?);
                rl.push(Value::Object(ro));
            }
            co.insert("rates".into(), Value::Array(rl));
            set_amount(&mut co, "amount", r(ct.amount)?);
            if let Some(s) = ct.surcharge {
                set_amount(&mut co, "surcharge", r(s)?);
            }
            list.push(Value::Object(co));
        }
        let mut taxes = Obj::new();
        taxes.insert("categories".into(), Value::Array(list));
        set_amount(&mut taxes, "sum", r(tax_sum)?);
        if let Some(rt) = retained {
            set_amount(&mut taxes, "retained", r(rt)?);
        }
        t.insert("taxes".into(), Value::Object(taxes));
    }
    set_amount(&mut t, "tax", r(tax)?);
    set_amount(&mut t, "total_with_tax", r(total_with_tax)?);
    if let Some(rt) = retained {
        set_amount(&mut t, "retained_tax", r(rt)?);
    }
    if let Some(rd) = existing_rounding {
        set_amount(&mut t, "rounding", rd);
    }
    set_amount(&mut t, "payable", payable);

    // Payment: advances, due and due dates.
    if let Some(pay) = doc.get_mut("payment").and_then(Value::as_object_mut) {
        let mut adv_total: Option<Amount> = None;
        if let Some(advs) = pay.get_mut("advances").and_then(Value::as_array_mut)
            && !advs.is_empty()
        {
            let mut s = zero;
            for (i, a) in advs.iter_mut().enumerate() {
                let Some(ao) = a.as_object_mut() else {
                    continue;
                };
                let p = path_idx("$.payment.advances", i);
                let mut amt = amount(ao, "amount", &p)?.unwrap_or(Amount::ZERO);
                if let Some(pc) = percent(ao, "percent", &p)? {
                    amt = pc.of(payable).map_err(num_err(&p))?;
                }
                let amt = amt.rescale(sub).map_err(num_err(&p))?;
                set_amount(ao, "amount", amt);
                s = s.add(amt).map_err(num_err(&p))?;
            }
            adv_total = Some(s);
        }
        if let Some(a) = adv_total {
            set_amount(&mut t, "advance", a.rescale(sub).map_err(&et)?);
            set_amount(
                &mut t,
                "due",
                payable.sub(a).map_err(&et)?.rescale(sub).map_err(&et)?,
            );
        }
        if let Some(dds) = pay
            .get_mut("terms")
            .and_then(Value::as_object_mut)
            .and_then(|t| t.get_mut("due_dates"))
            .and_then(Value::as_array_mut)
        {
            for (i, d) in dds.iter_mut().enumerate() {
                let Some(dobj) = d.as_object_mut() else {
                    continue;
                };
                let p = path_idx("$.payment.terms.due_dates", i);
                let mut amt = amount(dobj, "amount", &p)?.unwrap_or(Amount::ZERO);
                if let Some(pc) = percent(dobj, "percent", &p)?
                    && !pc.is_zero()
                {
                    amt = pc.of(payable).map_err(num_err(&p))?;
                }
                let amt = amt.rescale(sub).map_err(num_err(&p))?;
                insert_after(dobj, "date", "amount", Value::String(amt.to_string()));
            }
        }
    }
    doc.insert("totals".into(), Value::Object(t));

    prepare_scenarios(doc, regime, &tags);
    Ok(())
}

fn set_index(o: &mut Obj, k: &str, i: usize) {
    if o.contains_key(k) {
        o.insert(k.into(), Value::from(i));
    } else {
        o.shift_insert(0, k.into(), Value::from(i));
    }
}

fn apply_customer_rates(doc: &mut Obj) {
    let Some(country) = doc
        .get("customer")
        .and_then(|c| c.get("tax_id"))
        .and_then(|t| t.get("country"))
        .and_then(Value::as_str)
        .map(str::to_string)
    else {
        return;
    };
    for arr in ["lines", "discounts", "charges"] {
        let Some(list) = doc.get_mut(arr).and_then(Value::as_array_mut) else {
            continue;
        };
        for l in list {
            if let Some(taxes) = l.get_mut("taxes").and_then(Value::as_array_mut) {
                for t in taxes {
                    if let Some(o) = t.as_object_mut() {
                        o.insert("country".into(), Value::String(country.clone()));
                    }
                }
            }
        }
    }
}

/// Convert an item's price into the document currency (using `alt_prices` or the exchange
/// rates), raising it to at least the currency's subunits. Returns the price.
fn calculate_item_price(item: &mut Obj, ctx: &Ctx, path: &str) -> Result<Amount, CalcError> {
    let p = format!("{path}.item");
    let price = amount(item, "price", &p)?.unwrap_or(Amount::ZERO);
    let icur = string(item, "currency").map(str::to_string);
    let icur_sub = icur
        .as_deref()
        .and_then(currency::subunits)
        .unwrap_or(ctx.sub);
    let price = price.rescale_up(icur_sub).map_err(num_err(&p))?;
    let Some(icur) = icur.filter(|c| c != &ctx.cur) else {
        set_amount(item, "price", price);
        return Ok(price);
    };
    let original = json!({"currency": icur, "value": price.to_string()});
    if let Some(alts) = item.get("alt_prices").and_then(Value::as_array) {
        for (i, ap) in alts.iter().enumerate() {
            let Some(apo) = ap.as_object() else { continue };
            if string(apo, "currency") == Some(ctx.cur.as_str()) {
                let ap_path = format!("{p}.alt_prices[{i}]");
                let v = amount(apo, "value", &ap_path)?.unwrap_or(Amount::ZERO);
                let v = v.rescale_up(ctx.sub).map_err(num_err(&ap_path))?;
                item.insert("currency".into(), Value::String(ctx.cur.clone()));
                set_amount(item, "price", v);
                item.insert("alt_prices".into(), Value::Array(vec![original]));
                return Ok(v);
            }
        }
    }
    let np = match currency::convert(&ctx.rates, &icur, &ctx.cur, price) {
        Some(r) => r.map_err(num_err(&p))?,
        None => {
            return Err(CalcError::new(
                format!("{p}.currency"),
                format!("no exchange rate found from '{icur}' to '{}'", ctx.cur),
            ));
        }
    };
    item.insert("currency".into(), Value::String(ctx.cur.clone()));
    set_amount(item, "price", np);
    item.insert("alt_prices".into(), Value::Array(vec![original]));
    Ok(np)
}

fn calculate_line(l: &mut Obj, ctx: &Ctx, path: &str) -> Result<Option<LineCalc>, CalcError> {
    let quantity = amount(l, "quantity", path)?.unwrap_or(Amount::ZERO);
    let Some(item) = l.get_mut("item").and_then(Value::as_object_mut) else {
        return Ok(None);
    };
    if item.get("price").is_none_or(|v| v.is_null()) {
        item.remove("alt_prices");
        l.remove("sum");
        l.remove("total");
        return Ok(None);
    }
    let price = calculate_item_price(item, ctx, path)?;
    let price_exp = price.exp();
    let e = num_err(path);
    let mut exp = ctx.sub;
    if ctx.rr == Rounding::Precise {
        exp += LINE_PRECISION_EXTRA;
    }
    let price = price.rescale_up(exp).map_err(&e)?;
    let sum = ctx.apply(price.mul(quantity).map_err(&e)?).map_err(&e)?;
    let mut total = sum;
    let mut discounts = Vec::new();
    if let Some(ds) = l.get_mut("discounts").and_then(Value::as_array_mut) {
        for (i, d) in ds.iter_mut().enumerate() {
            let Some(dobj) = d.as_object_mut() else {
                continue;
            };
            let p = format!("{path}.discounts[{i}]");
            let a = line_adjustment(dobj, ctx, sum, None, &p)?;
            total = total.sub(a).map_err(&e)?;
            discounts.push(a);
        }
    }
    let mut charges = Vec::new();
    if let Some(cs) = l.get_mut("charges").and_then(Value::as_array_mut) {
        for (i, c) in cs.iter_mut().enumerate() {
            let Some(cobj) = c.as_object_mut() else {
                continue;
            };
            let p = format!("{path}.charges[{i}]");
            let a = line_adjustment(cobj, ctx, sum, Some(quantity), &p)?;
            total = total.add(a).map_err(&e)?;
            charges.push(a);
        }
    }
    // Keep the item's price precision for the final rounding.
    let _ = price_exp;
    Ok(Some(LineCalc {
        sum,
        total,
        discounts,
        charges,
    }))
}

/// A line discount or charge amount (`quantity` given for charges, which may have a rate).
fn line_adjustment(
    o: &mut Obj,
    ctx: &Ctx,
    sum: Amount,
    quantity: Option<Amount>,
    p: &str,
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

/// Document-level discounts or charges: index, amount. Returns the unrounded amounts.
fn calculate_doc_adjustments(
    doc: &mut Obj,
    key: &str,
    ctx: &Ctx,
    sum: Amount,
) -> Result<Vec<Option<Amount>>, CalcError> {
    let mut out = Vec::new();
    let Some(list) = doc.get_mut(key).and_then(Value::as_array_mut) else {
        return Ok(out);
    };
    for (i, d) in list.iter_mut().enumerate() {
        let Some(o) = d.as_object_mut() else {
            out.push(None);
            continue;
        };
        let p = format!("$.{key}[{i}]");
        let e = num_err(&p);
        set_index(o, "i", i + 1);
        let mut amt = amount(o, "amount", &p)?.unwrap_or(Amount::ZERO);
        if let Some(pc) = percent(o, "percent", &p)? {
            let mut base = sum;
            if let Some(b) = amount(o, "base", &p)? {
                base = ctx
                    .apply(b.rescale_up(ctx.sub + LINE_PRECISION_EXTRA).map_err(&e)?)
                    .map_err(&e)?;
            }
            amt = pc.of(base).map_err(&e)?;
        }
        out.push(Some(ctx.apply(amt).map_err(&e)?));
    }
    Ok(out)
}

fn sum_adjustments(list: &[Option<Amount>], ctx: &Ctx) -> Result<Option<Amount>, CalcError> {
    if list.is_empty() {
        return Ok(None);
    }
    let mut t = ctx.zero();
    for a in list.iter().flatten() {
        t = t
            .match_precision(*a)
            .and_then(|t| t.add(*a))
            .map_err(num_err("$.totals"))?;
    }
    Ok(Some(t))
}

fn write_doc_adjustments(
    doc: &mut Obj,
    key: &str,
    list: &[Option<Amount>],
    ctx: &Ctx,
) -> Result<(), CalcError> {
    let Some(arr) = doc.get_mut(key).and_then(Value::as_array_mut) else {
        return Ok(());
    };
    for (i, (v, a)) in arr.iter_mut().zip(list).enumerate() {
        let (Some(o), Some(a)) = (v.as_object_mut(), a) else {
            continue;
        };
        let p = format!("$.{key}[{i}]");
        let mut e = ctx.sub;
        if let Some(b) = amount(o, "base", &p)? {
            e = b.exp();
        }
        let a = a.rescale_down(e).map_err(num_err(&p))?;
        if o.contains_key("amount") {
            set_amount(o, "amount", a);
        } else {
            let after = if o.contains_key("percent") {
                "percent"
            } else {
                "reason"
            };
            insert_after(o, after, "amount", Value::String(a.to_string()));
        }
    }
    Ok(())
}

fn write_lines(doc: &mut Obj, calcs: &[Option<LineCalc>], _ctx: &Ctx) -> Result<(), CalcError> {
    let Some(lines) = doc.get_mut("lines").and_then(Value::as_array_mut) else {
        return Ok(());
    };
    for (i, (l, lc)) in lines.iter_mut().zip(calcs).enumerate() {
        let (Some(lo), Some(lc)) = (l.as_object_mut(), lc) else {
            continue;
        };
        let p = path_idx("$.lines", i);
        let e = num_err(&p);
        let pe = lo
            .get("item")
            .and_then(Value::as_object)
            .map(|it| amount(it, "price", &p))
            .transpose()?
            .flatten()
            .map(|a| a.exp())
            .unwrap_or(0);
        let sum = lc.sum.rescale_down(pe).map_err(&e)?;
        let total = lc.total.rescale_down(pe).map_err(&e)?;
        for (arr, vals) in [("discounts", &lc.discounts), ("charges", &lc.charges)] {
            if let Some(list) = lo.get_mut(arr).and_then(Value::as_array_mut) {
                for (d, a) in list.iter_mut().zip(vals.iter()) {
                    if let Some(dobj) = d.as_object_mut() {
                        let a = a.rescale_down(pe).map_err(&e)?;
                        if dobj.contains_key("amount") {
                            set_amount(dobj, "amount", a);
                        } else {
                            let after = if dobj.contains_key("percent") {
                                "percent"
                            } else {
                                "reason"
                            };
                            insert_after(dobj, after, "amount", Value::String(a.to_string()));
                        }
                    }
                }
            }
        }
        // Keep GOBL's order: i, quantity, item, sum, discounts, charges, taxes, total.
        lo.remove("sum");
        lo.remove("total");
        let after = if lo.contains_key("item") {
            "item"
        } else {
            "quantity"
        };
        insert_after(lo, after, "sum", Value::String(sum.to_string()));
        lo.insert("total".into(), Value::String(total.to_string()));
        let trailing: Vec<String> = lo
            .keys()
            .skip_while(|k| *k != "total")
            .skip(1)
            .cloned()
            .collect();
        for k in trailing {
            if let Some(v) = lo.remove(&k) {
                lo.insert(k, v);
            }
        }
    }
    Ok(())
}

fn read_tax_line(
    doc: &Obj,
    arr: &'static str,
    i: usize,
    total: Amount,
) -> Result<TaxLine, CalcError> {
    let mut combos = Vec::new();
    if let Some(taxes) = doc
        .get(arr)
        .and_then(Value::as_array)
        .and_then(|a| a.get(i))
        .and_then(|l| l.get("taxes"))
        .and_then(Value::as_array)
    {
        for (j, t) in taxes.iter().enumerate() {
            let Some(o) = t.as_object() else { continue };
            let p = format!("$.{arr}[{i}].taxes[{j}]");
            combos.push((Combo::read(o, &p)?, p));
        }
    }
    Ok(TaxLine {
        total,
        combos,
        owner: (arr, i),
    })
}

fn write_combos(doc: &mut Obj, tl: &TaxLine) {
    let (arr, i) = tl.owner;
    let Some(taxes) = doc
        .get_mut(arr)
        .and_then(Value::as_array_mut)
        .and_then(|a| a.get_mut(i))
        .and_then(|l| l.get_mut("taxes"))
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    let mut j = 0;
    for t in taxes.iter_mut() {
        if let Some(o) = t.as_object_mut() {
            if let Some((c, _)) = tl.combos.get(j) {
                c.write(o);
            }
            j += 1;
        }
    }
}

fn rate_total_for<'a>(cats: &'a mut Vec<CatTotal>, c: &Combo, zero: Amount) -> &'a mut RateTotal {
    let ci = match cats.iter().position(|ct| ct.code == c.cat) {
        Some(i) => i,
        None => {
            cats.push(CatTotal {
                code: c.cat.clone(),
                retained: c.retained,
                informative: c.informative,
                rates: Vec::new(),
                amount: zero,
                surcharge: None,
            });
            cats.len() - 1
        }
    };
    let ct = &mut cats[ci];
    let matches = |rt: &RateTotal| -> bool {
        if rt.ext != c.ext || rt.country != c.country {
            return false;
        }
        match (rt.percent, c.percent) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                match (&rt.surcharge, &c.surcharge) {
                    (None, None) => {}
                    (Some((sa, _)), Some(sb)) => {
                        if !sa.equals(sb) {
                            return false;
                        }
                    }
                    _ => return false,
                }
                a.equals(&b)
            }
            _ => false,
        }
    };
    let ri = match ct.rates.iter().position(matches) {
        Some(i) => i,
        None => {
            ct.rates.push(RateTotal {
                country: c.country.clone(),
                key: c.key.clone(),
                ext: c.ext.clone(),
                base: zero,
                percent: c.percent,
                surcharge: c.surcharge.map(|s| (s, zero)),
                amount: zero,
            });
            ct.rates.len() - 1
        }
    };
    &mut ct.rates[ri]
}

/// Categories used by the invoice's lines, charges and discounts.
fn tax_categories(doc: &Obj) -> Vec<String> {
    let mut cats = Vec::new();
    for arr in ["lines", "charges", "discounts"] {
        for l in doc.get(arr).and_then(Value::as_array).into_iter().flatten() {
            for t in l
                .get("taxes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(c) = t.get("cat").and_then(Value::as_str)
                    && !cats.iter().any(|x| x == c)
                {
                    cats.push(c.to_string());
                }
            }
        }
    }
    cats
}

/// Add the notes of the regime's matching scenarios to `tax.notes`.
fn prepare_scenarios(doc: &mut Obj, regime: Option<&'static RegimeDef>, tags: &[String]) {
    let Some(r) = regime else { return };
    let cats = tax_categories(doc);
    let mut notes: Vec<(Option<&str>, &str, &str)> = Vec::new();
    for s in r.scenarios {
        if !s.tags.iter().all(|t| tags.iter().any(|x| x == t)) {
            continue;
        }
        if !s.cats.is_empty() && !s.cats.iter().any(|c| cats.iter().any(|x| x == c)) {
            continue;
        }
        let n = (s.note_cat, s.note_key, s.text);
        match notes.iter().position(|x| x.0 == n.0 && x.1 == n.1) {
            Some(i) => notes[i] = n,
            None => notes.push(n),
        }
    }
    if notes.is_empty() {
        return;
    }
    let tax = doc
        .entry("tax")
        .or_insert_with(|| Value::Object(Obj::new()));
    let Some(tax) = tax.as_object_mut() else {
        return;
    };
    let list = tax
        .entry("notes")
        .or_insert_with(|| Value::Array(Vec::new()));
    let Some(list) = list.as_array_mut() else {
        return;
    };
    for (cat, key, text) in notes {
        let exists = list.iter().any(|n| {
            n.get("key").and_then(Value::as_str) == Some(key)
                && n.get("cat").and_then(Value::as_str) == cat
        });
        if !exists {
            let mut o = Obj::new();
            if let Some(c) = cat {
                o.insert("cat".into(), Value::String(c.into()));
            }
            o.insert("key".into(), Value::String(key.into()));
            o.insert("text".into(), Value::String(text.into()));
            list.push(Value::Object(o));
        }
    }
}

/// The regime for an invoice: `$regime`, else the supplier's tax-id country.
pub(crate) fn regime_for(doc: &Obj) -> Option<&'static RegimeDef> {
    string(doc, "$regime").and_then(regimes::get)
}
