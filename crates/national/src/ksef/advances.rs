//! Advances and settlements: the advance invoices a settlement invoice (ROZ) deducts
//! (`FakturaZaliczkowa`), the document's charges and discounts (`Rozliczenie`), and the
//! order an advance invoice (ZAL) is paid for (`WarunkiTransakcji`, `Zamowienie`).

use gobl::model::{DocumentRef, Ordering};
use gobl::num::Amount;

use super::codes::{combo_category, is_ksef_number, rate_code};
use super::ctx::Ctx;
use super::format::{amount, date, percent, price, token};
use crate::xml::Xml;

/// `FakturaZaliczkowa`: on a settlement invoice, each advance with a reference, by its
/// KSeF number or, when it has none, by its own number.
pub(super) fn settled_invoices(x: &mut Xml, ctx: &Ctx) {
    if ctx.kind != "ROZ" && ctx.kind != "KOR_ROZ" {
        return;
    }
    let Some(payment) = ctx.inv.payment.as_ref() else {
        return;
    };
    for r in payment
        .advances
        .iter()
        .filter_map(|a| a.reference.as_deref())
    {
        let Some(r) = token(r, 256) else { continue };
        x.group("FakturaZaliczkowa", |x| {
            if is_ksef_number(&r) {
                x.text("NrKSeFFaZaliczkowej", &r);
            } else {
                x.text("NrKSeFZN", "1");
                x.text("NrFaZaliczkowej", &r);
            }
        });
    }
}

/// `Rozliczenie`: the document's charges (`Obciazenia`) and discounts (`Odliczenia`) with
/// their sums.
pub(super) fn charges_and_deductions(x: &mut Xml, ctx: &Ctx) {
    let inv = ctx.inv;
    if inv.charges.is_empty() && inv.discounts.is_empty() {
        return;
    }
    let charges: Vec<(Amount, String)> = inv
        .charges
        .iter()
        .map(|c| (c.amount, reason(&c.reason, &c.key, "charge")))
        .collect();
    let discounts: Vec<(Amount, String)> = inv
        .discounts
        .iter()
        .map(|d| (d.amount, reason(&d.reason, &d.key, "discount")))
        .collect();
    x.open("Rozliczenie");
    entries(x, ctx, "Obciazenia", "SumaObciazen", &charges);
    entries(x, ctx, "Odliczenia", "SumaOdliczen", &discounts);
    x.close("Rozliczenie");
}

fn reason(reason: &Option<String>, key: &Option<String>, default: &str) -> String {
    reason
        .as_deref()
        .or(key.as_deref())
        .and_then(|r| token(r, 256))
        .unwrap_or_else(|| default.into())
}

fn entries(x: &mut Xml, ctx: &Ctx, each: &str, total: &str, rows: &[(Amount, String)]) {
    if rows.is_empty() {
        return;
    }
    let mut sum = Amount::zero(2);
    for (a, why) in rows {
        sum = sum
            .match_precision(*a)
            .and_then(|s| s.add(*a))
            .unwrap_or(sum);
        x.group(each, |x| {
            x.text("Kwota", &amount(ctx.sign.of(*a)));
            x.text("Powod", why);
        });
    }
    x.text(total, &amount(ctx.sign.of(sum)));
}

/// `WarunkiTransakcji` (contracts and orders referred to) and, on an advance invoice, the
/// `Zamowienie` it is paid for: the first purchase order's payable amount and one row per
/// VAT rate of it.
pub(super) fn order(x: &mut Xml, ctx: &Ctx) {
    let Some(ordering) = ctx.inv.ordering.as_ref() else {
        return;
    };
    conditions(x, ordering);
    if ctx.kind != "ZAL" && ctx.kind != "KOR_ZAL" {
        return;
    }
    let Some(po) = ordering.purchases.first() else {
        return;
    };
    let (Some(payable), Some(rows)) = (po.payable, order_rows(po)) else {
        return;
    };
    x.open("Zamowienie");
    x.text("WartoscZamowienia", &amount(ctx.sign.of(payable)));
    for (i, row) in rows.iter().enumerate() {
        x.group("ZamowienieWiersz", |x| {
            x.text("NrWierszaZam", &(i + 1).to_string());
            x.opt(
                "P_7Z",
                po.description
                    .as_deref()
                    .and_then(|d| token(d, 512))
                    .as_deref(),
            );
            x.text("P_8BZ", "1");
            x.text("P_9AZ", &price(row.base));
            x.text("P_11NettoZ", &amount(row.base));
            x.text("P_11VatZ", &amount(row.tax));
            x.opt("P_12Z", row.code.as_deref());
        });
    }
    x.close("Zamowienie");
}

struct OrderRow {
    base: Amount,
    tax: Amount,
    code: Option<String>,
}

/// One row per VAT rate of the order's taxes.
fn order_rows(po: &DocumentRef) -> Option<Vec<OrderRow>> {
    let vat = po
        .tax
        .as_ref()?
        .categories
        .iter()
        .find(|c| c.code == "VAT")?;
    let rows: Vec<OrderRow> = vat
        .rates
        .iter()
        .map(|r| {
            let combo = gobl::model::TaxCombo {
                cat: "VAT".into(),
                key: r.key.clone(),
                percent: r.percent,
                ext: r.ext.clone(),
                ..Default::default()
            };
            let code = combo_category(&combo)
                .and_then(|c| rate_code(&c, r.percent).ok())
                .or_else(|| r.percent.map(percent));
            OrderRow {
                base: r.base,
                tax: r.amount,
                code,
            }
        })
        .collect();
    (!rows.is_empty()).then_some(rows)
}

/// `WarunkiTransakcji`: contracts (`Umowy`) and purchase orders (`Zamowienia`).
fn conditions(x: &mut Xml, o: &Ordering) {
    if o.contracts.is_empty() && o.purchases.is_empty() {
        return;
    }
    x.open("WarunkiTransakcji");
    for c in o.contracts.iter().take(100) {
        reference(x, "Umowy", "DataUmowy", "NrUmowy", c);
    }
    for p in o.purchases.iter().take(100) {
        reference(x, "Zamowienia", "DataZamowienia", "NrZamowienia", p);
    }
    x.close("WarunkiTransakcji");
}

fn reference(x: &mut Xml, group: &str, date_el: &str, code_el: &str, r: &DocumentRef) {
    x.group(group, |x| {
        if let Some(d) = r.issue_date {
            x.text(date_el, &date(d));
        }
        x.opt(code_el, token(&r.full_code(), 256).as_deref());
    });
}
