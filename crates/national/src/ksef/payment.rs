//! `Platnosc`: what was paid already (in full: `Zaplacono`; in part:
//! `ZnacznikZaplatyCzesciowej` with each `ZaplataCzesciowa`), the due dates, the means
//! (`FormaPlatnosci`, or `PlatnoscInna` with its description) and the bank accounts.

use gobl::model::{Advance, CreditTransfer, Payment};

use super::codes::payment_means;
use super::ctx::Ctx;
use super::format::{amount, date, token};
use crate::xml::Xml;

/// `TData`: payment dates from July 2016.
const FIRST_DATE: &str = "2016-07-01";

pub(super) fn write(x: &mut Xml, ctx: &Ctx) {
    let Some(p) = ctx.inv.payment.as_ref() else {
        return;
    };
    let mut body = crate::xml::Xml::fragment(x.depth() + 1);
    paid(&mut body, ctx, p);
    due_dates(&mut body, p);
    means(&mut body, p);
    accounts(&mut body, p);
    if body.is_empty() {
        return;
    }
    x.open("Platnosc");
    x.append(body);
    x.close("Platnosc");
}

fn valid_date(d: Option<chrono::NaiveDate>) -> Option<String> {
    d.map(date).filter(|d| d.as_str() >= FIRST_DATE)
}

/// Paid in full with one advance, or in part (or in full) with several.
fn paid(x: &mut Xml, ctx: &Ctx, p: &Payment) {
    let dated: Vec<(&Advance, String)> = p
        .advances
        .iter()
        .filter_map(|a| valid_date(a.date).map(|d| (a, d)))
        .take(100)
        .collect();
    if dated.is_empty() {
        return;
    }
    let settled = ctx.inv.totals.due.is_some_and(|d| d.is_zero());
    if settled && dated.len() == 1 {
        x.text("Zaplacono", "1");
        x.text("DataZaplaty", &dated[0].1);
        return;
    }
    x.text("ZnacznikZaplatyCzesciowej", if settled { "2" } else { "1" });
    for (a, d) in dated {
        x.group("ZaplataCzesciowa", |x| {
            x.text("KwotaZaplatyCzesciowej", &amount(ctx.sign.of(a.amount)));
            x.text("DataZaplatyCzesciowej", &d);
            if let Some(code) = payment_means(a.key.as_deref(), &a.ext) {
                x.text("FormaPlatnosci", &code);
            }
        });
    }
}

fn due_dates(x: &mut Xml, p: &Payment) {
    let Some(terms) = p.terms.as_ref() else {
        return;
    };
    for d in terms.due_dates.iter().take(100) {
        if let Some(d) = valid_date(d.date) {
            x.group("TerminPlatnosci", |x| x.text("Termin", &d));
        }
    }
}

/// The means code, or `PlatnoscInna` with the key as its description.
fn means(x: &mut Xml, p: &Payment) {
    let Some(i) = p.instructions.as_ref() else {
        return;
    };
    if let Some(code) = payment_means(i.key.as_deref(), &i.ext) {
        x.text("FormaPlatnosci", &code);
    } else if let Some(key) = i.key.as_deref().and_then(|k| token(k, 256)) {
        x.text("PlatnoscInna", "1");
        x.text("OpisPlatnosci", &key);
    }
}

fn accounts(x: &mut Xml, p: &Payment) {
    let Some(i) = p.instructions.as_ref() else {
        return;
    };
    for ct in i.credit_transfer.iter().take(100) {
        account(x, ct);
    }
}

/// `RachunekBankowy`: the IBAN (or account number) of 10 to 34 characters, the BIC, the
/// bank's name.
fn account(x: &mut Xml, ct: &CreditTransfer) {
    let number: String = ct
        .iban
        .as_deref()
        .or(ct.number.as_deref())
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if !(10..=34).contains(&number.len()) {
        return;
    }
    let bic = ct.bic.as_deref().filter(|b| swift_shaped(b));
    x.group("RachunekBankowy", |x| {
        x.text("NrRB", &number);
        x.opt("SWIFT", bic);
        x.opt(
            "NazwaBanku",
            ct.name.as_deref().and_then(|n| token(n, 256)).as_deref(),
        );
    });
}

/// `SWIFT_Type`: six letters, two letters or digits, optionally three more.
fn swift_shaped(b: &str) -> bool {
    let c = b.as_bytes();
    (c.len() == 8 || c.len() == 11)
        && c[..6].iter().all(u8::is_ascii_uppercase)
        && c[6..]
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}
