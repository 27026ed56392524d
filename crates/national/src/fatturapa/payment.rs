//! `DatiPagamento`: advances already paid (`TP03`), then the payment due, in full
//! (`TP02`) or in instalments (`TP01`), with the means the add-on sets
//! (`it-sdi-payment-means`).

use chrono::NaiveDate;
use gobl::model::{CreditTransfer, Invoice, Payment};
use gobl::num::Amount;

use super::Error;
use super::codes::latin;
use super::format::amount2;
use crate::xml::Xml;

const INSTALMENTS: &str = "TP01";
const FULL: &str = "TP02";
const ADVANCE: &str = "TP03";

/// One `DettaglioPagamento`.
struct Row<'a> {
    means: &'a str,
    /// The date the terms count from (an advance's payment date).
    reference_date: Option<NaiveDate>,
    due_date: Option<NaiveDate>,
    amount: Amount,
    account: Option<&'a CreditTransfer>,
}

pub(crate) fn write(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let Some(pay) = &inv.payment else {
        return Ok(());
    };
    let advances = advance_rows(pay)?;
    if !advances.is_empty() {
        group(x, ADVANCE, &advances);
    }
    if pay.instructions.is_some() {
        let rows = due_rows(pay, inv.totals.payable)?;
        let instalments = rows.len() > 1
            || rows
                .first()
                .is_some_and(|r| r.amount.compare(&inv.totals.payable).is_lt());
        group(x, if instalments { INSTALMENTS } else { FULL }, &rows);
    }
    Ok(())
}

fn advance_rows(pay: &Payment) -> Result<Vec<Row<'_>>, Error> {
    pay.advances
        .iter()
        .map(|a| {
            Ok(Row {
                means: a
                    .ext
                    .get("it-sdi-payment-means")
                    .ok_or(Error::Missing("payment.advances ext it-sdi-payment-means"))?,
                reference_date: a.date,
                due_date: None,
                amount: a.amount,
                account: a.credit_transfer.as_ref(),
            })
        })
        .collect()
}

/// One row per due date of the terms, else one for the whole payable amount.
fn due_rows(pay: &Payment, payable: Amount) -> Result<Vec<Row<'_>>, Error> {
    let Some(ins) = &pay.instructions else {
        return Ok(Vec::new());
    };
    let means = ins.ext.get("it-sdi-payment-means").ok_or(Error::Missing(
        "payment.instructions ext it-sdi-payment-means",
    ))?;
    let row = |due_date, amount| Row {
        means,
        reference_date: None,
        due_date,
        amount,
        account: ins.credit_transfer.first(),
    };
    let due_dates = pay.terms.as_ref().map_or(&[][..], |t| &t.due_dates);
    if due_dates.is_empty() {
        return Ok(vec![row(None, payable)]);
    }
    Ok(due_dates.iter().map(|d| row(d.date, d.amount)).collect())
}

fn group(x: &mut Xml, condition: &str, rows: &[Row]) {
    x.open("DatiPagamento");
    x.text("CondizioniPagamento", condition);
    for r in rows {
        x.group("DettaglioPagamento", |x| {
            x.text("ModalitaPagamento", r.means);
            let date = |d: Option<NaiveDate>| d.map(|d| d.to_string());
            x.opt(
                "DataRiferimentoTerminiPagamento",
                date(r.reference_date).as_deref(),
            );
            x.opt("DataScadenzaPagamento", date(r.due_date).as_deref());
            x.text("ImportoPagamento", &amount2(r.amount));
            if let Some(ct) = r.account {
                let bank = ct.name.as_deref().map(|n| latin(n, 80));
                x.opt("IstitutoFinanziario", bank.as_deref());
                // IBANs are often written in groups of four; the schema has no spaces.
                let iban = ct.iban.as_deref().map(|i| i.replace(' ', ""));
                x.opt("IBAN", iban.as_deref());
                x.opt("BIC", ct.bic.as_deref());
            }
        });
    }
    x.close("DatiPagamento");
}
