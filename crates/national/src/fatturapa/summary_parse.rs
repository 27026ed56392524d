//! The document's own figures against GOBL's calculation: `ImportoTotaleDocumento`, each
//! `DatiRiepilogo` (base and VAT per rate or nature), each line's `PrezzoTotale`, the
//! retained taxes and the fund contributions. Every difference is a finding; nothing is
//! corrected silently (the payable difference is kept as `totals.rounding`, and said so).

use gobl::model::{Invoice, RateTotal};
use gobl::num::Amount;

use super::findings::{Ctx, Severity};
use super::import_error::ImportError;
use super::tree::Node;
use super::values::{amount, parse_amount};
use super::vat_parse::same_rate;

fn built(envelope: &serde_json::Value) -> Option<Invoice> {
    Invoice::from_value(envelope).ok()
}

/// `ImportoTotaleDocumento` minus GOBL's payable, when they differ; reported unless it is
/// the rounding (`Arrotondamento`) the document states.
pub(crate) fn payable_difference(
    envelope: &serde_json::Value,
    body: &Node,
    ctx: &mut Ctx,
) -> Result<Option<Amount>, ImportError> {
    let d = "DatiGenerali/DatiGeneraliDocumento";
    let Some(stated) = amount(body, &format!("{d}/ImportoTotaleDocumento"))? else {
        return Ok(None);
    };
    let Some(inv) = built(envelope) else {
        return Ok(None);
    };
    let payable = inv.totals.payable;
    let Ok(diff) = stated.sub(payable) else {
        return Ok(None);
    };
    if diff.is_zero() {
        return Ok(None);
    }
    if inv.totals.retained_tax.is_some() && stated.equals(&inv.totals.total_with_tax) {
        // Some issuers state the total before withholding: the payable stays GOBL's.
        ctx.note(
            Severity::Information,
            "DatiGeneraliDocumento/ImportoTotaleDocumento",
            format!("the document states {stated}, the total before retained taxes; GOBL's payable is {payable}"),
        );
        return Ok(None);
    }
    let rounding = amount(body, &format!("{d}/Arrotondamento"))?;
    let severity = if rounding.is_some_and(|r| r.equals(&diff)) {
        Severity::Information
    } else {
        Severity::Warning
    };
    ctx.note(
        severity,
        "DatiGeneraliDocumento/ImportoTotaleDocumento",
        format!(
            "the document states a total of {stated}, GOBL calculates {payable}: \
             the difference {diff} is kept as totals.rounding"
        ),
    );
    Ok(Some(diff))
}

/// Compare the built invoice with the document's summaries, lines, retained taxes and
/// fund contributions.
pub(crate) fn compare(envelope: &serde_json::Value, body: &Node, ctx: &mut Ctx) {
    let Some(inv) = built(envelope) else {
        return;
    };
    if let Some(goods) = body.child("DatiBeniServizi") {
        summaries(&inv, goods, ctx);
        lines(&inv, goods, ctx);
    }
    if let Some(d) = body.at("DatiGenerali/DatiGeneraliDocumento") {
        retained(&inv, d, ctx);
        funds(&inv, d, ctx);
    }
}

fn differ(ctx: &mut Ctx, path: String, stated: &str, calculated: Amount) {
    let Ok(s) = parse_amount(stated, &path) else {
        ctx.note(
            Severity::Warning,
            &path,
            format!("{stated:?} is not an amount"),
        );
        return;
    };
    if !cents(s).equals(&cents(calculated)) {
        ctx.note(
            Severity::Warning,
            &path,
            format!("the document states {stated}, GOBL calculates {calculated}"),
        );
    }
}

/// Amounts compared to the cent: FatturaPA states lines with up to eight decimals.
fn cents(a: Amount) -> Amount {
    a.rescale(2).unwrap_or(a)
}

fn summaries(inv: &Invoice, goods: &Node, ctx: &mut Ctx) {
    let rates: &[RateTotal] = inv.totals.category("VAT").map_or(&[], |c| &c.rates);
    let mut seen = vec![false; rates.len()];
    for s in goods.all("DatiRiepilogo") {
        let label = s
            .text("Natura")
            .or(s.text("AliquotaIVA"))
            .unwrap_or_default();
        let path = format!("DatiRiepilogo[{label}]");
        let found = rates
            .iter()
            .enumerate()
            .position(|(i, r)| !seen[i] && summary_matches(s, r));
        let Some(i) = found else {
            ctx.note(
                Severity::Warning,
                &path,
                "GOBL calculates no such VAT rate".into(),
            );
            continue;
        };
        seen[i] = true;
        if let Some(b) = s.text("ImponibileImporto") {
            differ(ctx, format!("{path}/ImponibileImporto"), b, rates[i].base);
        }
        if let Some(a) = s.text("Imposta") {
            differ(ctx, format!("{path}/Imposta"), a, rates[i].amount);
        }
    }
    for (r, _) in rates.iter().zip(&seen).filter(|(_, s)| !**s) {
        ctx.note(
            Severity::Warning,
            "DatiRiepilogo",
            format!(
                "no summary for GOBL's VAT rate of base {} and tax {}",
                r.base, r.amount
            ),
        );
    }
}

fn summary_matches(s: &Node, r: &RateTotal) -> bool {
    let nature = r.ext.get("it-sdi-exempt").map(String::as_str);
    if s.text("Natura").is_some() || nature.is_some() {
        return s.text("Natura") == nature;
    }
    let pct = r
        .percent
        .and_then(|p| p.percent_amount().ok())
        .map(|p| p.to_string());
    same_rate(s.text("AliquotaIVA"), pct.as_deref())
}

fn lines(inv: &Invoice, goods: &Node, ctx: &mut Ctx) {
    for (d, line) in goods.all("DettaglioLinee").zip(&inv.lines) {
        if let (Some(stated), Some(total)) = (d.text("PrezzoTotale"), line.total) {
            differ(
                ctx,
                format!("DettaglioLinee[{}]/PrezzoTotale", line.index),
                stated,
                total,
            );
        }
    }
}

fn retained(inv: &Invoice, d: &Node, ctx: &mut Ctx) {
    for r in d.all("DatiRitenuta") {
        let Some(stated) = r.text("ImportoRitenuta") else {
            continue;
        };
        let kind = r.text("TipoRitenuta").unwrap_or_default();
        let Some(cat) = super::retained_parse::category(kind) else {
            continue;
        };
        // The rate with the document's percentage, else the whole category.
        let category = inv.totals.category(cat);
        let rate = r.text("AliquotaRitenuta");
        let calculated = category
            .and_then(|c| {
                c.rates.iter().find(|x| {
                    let pct = x
                        .percent
                        .and_then(|p| p.percent_amount().ok())
                        .map(|p| p.to_string());
                    same_rate(rate, pct.as_deref())
                })
            })
            .map(|x| x.amount)
            .or(category.map(|c| c.amount))
            .unwrap_or_default();
        differ(
            ctx,
            format!("DatiRitenuta[{kind}]/ImportoRitenuta"),
            stated,
            calculated,
        );
    }
}

fn funds(inv: &Invoice, d: &Node, ctx: &mut Ctx) {
    let charges = inv
        .charges
        .iter()
        .filter(|c| c.has_key("fund-contribution"));
    for (f, c) in d.all("DatiCassaPrevidenziale").zip(charges) {
        if let Some(stated) = f.text("ImportoContributoCassa") {
            let kind = f.text("TipoCassa").unwrap_or_default();
            differ(
                ctx,
                format!("DatiCassaPrevidenziale[{kind}]/ImportoContributoCassa"),
                stated,
                c.amount,
            );
        }
    }
}
