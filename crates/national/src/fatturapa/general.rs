//! `DatiGenerali`: the document's type, number, date and totals, its document-level
//! discounts and charges, and the documents it refers to.

use gobl::model::{DocumentRef, Invoice};

use super::codes::latin;
use super::format::{amount2, amount8, percent};
use super::{Error, retained};
use crate::xml::Xml;

pub(crate) fn write(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    x.open("DatiGenerali");
    document(x, inv)?;
    if let Some(o) = &inv.ordering {
        refs(x, "DatiOrdineAcquisto", &o.purchases);
        refs(x, "DatiContratto", &o.contracts);
        refs(x, "DatiConvenzione", &o.tender);
        refs(x, "DatiRicezione", &o.receiving);
    }
    refs(x, "DatiFattureCollegate", &inv.preceding);
    if let Some(o) = &inv.ordering {
        despatch(x, &o.despatch);
    }
    x.close("DatiGenerali");
    Ok(())
}

fn document(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let kind = inv
        .tax_ext("it-sdi-document-type")
        .ok_or(Error::Missing("tax.ext.it-sdi-document-type"))?;
    if matches!(kind, "TD07" | "TD08" | "TD09") {
        return Err(Error::Unsupported(format!(
            "simplified invoices ({kind}) use the FatturaPA semplificata schema"
        )));
    }
    let date = inv.issue_date.ok_or(Error::Missing("issue_date"))?;
    x.open("DatiGeneraliDocumento");
    x.text("TipoDocumento", kind);
    x.text("Divisa", &inv.currency);
    x.text("Data", &date.to_string());
    x.text("Numero", &latin(&inv.full_code(), 20));
    retained::retained_taxes(x, inv)?;
    retained::stamp_duty(x, inv);
    retained::fund_contributions(x, inv)?;
    adjustments(x, inv);
    x.text("ImportoTotaleDocumento", &amount2(inv.totals.payable));
    x.opt(
        "Arrotondamento",
        inv.totals.rounding.map(amount2).as_deref(),
    );
    for note in inv
        .notes
        .iter()
        .filter(|n| n.key.as_deref() == Some("reason"))
    {
        for part in chunks(&latin(&note.text, usize::MAX), 200) {
            x.text("Causale", &part);
        }
    }
    x.close("DatiGeneraliDocumento");
    Ok(())
}

/// `ScontoMaggiorazione` of the document: its discounts, then the charges that are not
/// stamp duty or fund contributions (those have groups of their own).
fn adjustments(x: &mut Xml, inv: &Invoice) {
    for d in &inv.discounts {
        adjustment(x, "SC", d.percent.map(percent), d.amount);
    }
    for c in inv.charges.iter().filter(|c| !retained::is_special(c)) {
        adjustment(x, "MG", c.percent.map(percent), c.amount);
    }
}

pub(crate) fn adjustment(x: &mut Xml, kind: &str, pct: Option<String>, amount: gobl::num::Amount) {
    x.group("ScontoMaggiorazione", |x| {
        x.text("Tipo", kind);
        x.opt("Percentuale", pct.as_deref());
        x.text("Importo", &amount8(amount));
    });
}

/// References to orders, contracts, tenders, receipts and corrected invoices.
fn refs(x: &mut Xml, name: &str, refs: &[DocumentRef]) {
    for r in refs {
        x.group(name, |x| {
            for line in &r.lines {
                x.text("RiferimentoNumeroLinea", &line.to_string());
            }
            x.text("IdDocumento", &latin(&r.full_code(), 20));
            x.opt("Data", r.issue_date.map(|d| d.to_string()).as_deref());
            let by_key = |k: &str| r.identities.iter().find(|i| i.key.as_deref() == Some(k));
            let by_type = |t: &str| r.identities.iter().find(|i| i.kind.as_deref() == Some(t));
            x.opt("NumItem", by_key("item").map(|i| i.code.as_str()));
            x.opt(
                "CodiceCommessaConvenzione",
                by_key("order").map(|i| i.code.as_str()),
            );
            x.opt("CodiceCUP", by_type("CUP").map(|i| i.code.as_str()));
            x.opt("CodiceCIG", by_type("CIG").map(|i| i.code.as_str()));
        });
    }
}

/// `DatiDDT`: despatch advices, which the schema requires to be dated.
fn despatch(x: &mut Xml, refs: &[DocumentRef]) {
    for r in refs {
        let Some(date) = r.issue_date else { continue };
        x.group("DatiDDT", |x| {
            x.text("NumeroDDT", &latin(&r.full_code(), 20));
            x.text("DataDDT", &date.to_string());
            for line in &r.lines {
                x.text("RiferimentoNumeroLinea", &line.to_string());
            }
        });
    }
}

/// A text in pieces of at most `n` characters.
fn chunks(s: &str, n: usize) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    chars.chunks(n).map(|c| c.iter().collect()).collect()
}
