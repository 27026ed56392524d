//! The issue record (`RegistroAlta`) of an invoice: its identity, type and corrections,
//! description, recipients, tax breakdown and totals. The chain and fingerprint are added
//! by the caller ([`super::record`]).

use gobl::model::{DocumentRef, Invoice, TaxTotal};
use gobl::num::Amount;

use super::breakdown::{self, Detail, Sign};
use super::parties::{self, Identified};
use super::sum1::{self, Sum1};
use super::text::limit;
use super::{Error, InvoiceId, time};

const DOC_TYPE: &str = "es-verifactu-doc-type";
const CORRECTION_TYPE: &str = "es-verifactu-correction-type";
const ISSUER_TYPE: &str = "es-verifactu-issuer-type";
const SIMPLIFIED_ART7273: &str = "es-verifactu-simplified-art7273";

/// Operations above 100 million euros are flagged (`Macrodato`).
const MACRO_THRESHOLD: i64 = 100_000_000;

/// The business content of a `RegistroAlta`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Alta {
    pub id: InvoiceId,
    pub issuer_name: String,
    pub invoice_type: String,
    pub correction_type: Option<String>,
    pub rectified: Vec<InvoiceId>,
    pub substituted: Vec<InvoiceId>,
    pub rectification: Option<[String; 3]>,
    pub op_date: Option<String>,
    pub description: String,
    pub simplified_art7273: Option<String>,
    pub without_recipient: Option<&'static str>,
    pub macro_data: bool,
    pub issued_by: Option<String>,
    pub third_party: Option<Identified>,
    pub recipients: Vec<Identified>,
    pub details: Vec<Detail>,
    pub tax_total: String,
    pub total: String,
}

/// Read the record's content from a built invoice.
pub(crate) fn build(inv: &Invoice) -> Result<Alta, Error> {
    let id = super::invoice_id(inv)?;
    let ext = |k: &str| inv.tax_ext(k).filter(|v| !v.is_empty()).map(str::to_string);
    let invoice_type = ext(DOC_TYPE).ok_or(Error::Missing("tax.ext.es-verifactu-doc-type"))?;
    let corrective = invoice_type.starts_with('R');
    let simplified = matches!(invoice_type.as_str(), "F2" | "R5");
    // A credit note corrects by differences: VERI*FACTU wants its amounts negative.
    let sign = Sign {
        negative: inv.kind == "credit-note",
    };
    let correction_type = if corrective {
        Some(ext(CORRECTION_TYPE).ok_or(Error::Missing("tax.ext.es-verifactu-correction-type"))?)
    } else {
        None
    };
    let refs = |on: bool| -> Result<Vec<InvoiceId>, Error> {
        if !on {
            return Ok(Vec::new());
        }
        inv.preceding
            .iter()
            .map(|r| preceding_id(&id.issuer, r))
            .collect()
    };
    let rectification = match correction_type.as_deref() {
        Some("S") => Some(rectified_amounts(&inv.preceding)?),
        _ => None,
    };
    Ok(Alta {
        issuer_name: issuer_name(inv)?,
        rectified: refs(corrective)?,
        substituted: refs(invoice_type == "F3")?,
        rectification,
        op_date: inv.op_date.map(time::date),
        description: description(inv),
        simplified_art7273: ext(SIMPLIFIED_ART7273),
        without_recipient: simplified.then(|| if inv.customer.is_some() { "N" } else { "S" }),
        macro_data: inv
            .totals
            .total_with_tax
            .compare(&Amount::new(MACRO_THRESHOLD, 0))
            .is_gt(),
        issued_by: ext(ISSUER_TYPE),
        third_party: third_party(inv)?,
        recipients: recipients(inv, simplified)?,
        details: breakdown::details(inv, sign)?,
        tax_total: breakdown::tax_total(inv, sign)?,
        total: breakdown::total(inv, sign)?,
        correction_type,
        invoice_type,
        id,
    })
}

fn issuer_name(inv: &Invoice) -> Result<String, Error> {
    let name = inv
        .supplier
        .name
        .as_deref()
        .filter(|n| !n.trim().is_empty());
    Ok(limit(name.ok_or(Error::Missing("supplier.name"))?, 120))
}

/// A corrected or replaced invoice, issued by the same supplier.
fn preceding_id(issuer: &str, r: &DocumentRef) -> Result<InvoiceId, Error> {
    let date = r.issue_date.ok_or(Error::Missing("preceding.issue_date"))?;
    Ok(InvoiceId {
        issuer: issuer.to_string(),
        number: super::number(&r.full_code())?,
        issue_date: time::date(date),
    })
}

/// `ImporteRectificacion` of a correction by substitution: the base, tax and surcharge of
/// the invoices it replaces.
fn rectified_amounts(preceding: &[DocumentRef]) -> Result<[String; 3], Error> {
    let zero = Amount::new(0, 2);
    let (mut base, mut tax, mut surcharge) = (zero, zero, zero);
    let add = |a: Amount, b: Amount| a.add(b).map_err(|e| Error::Amount(e.to_string()));
    for total in preceding.iter().filter_map(|r| r.tax.as_ref()) {
        for cat in taxed_categories(total) {
            for rate in &cat.rates {
                base = add(base, rate.base)?;
            }
            tax = add(tax, cat.amount)?;
            if let Some(s) = cat.surcharge {
                surcharge = add(surcharge, s)?;
            }
        }
    }
    let plain = Sign { negative: false };
    Ok([
        plain.amount(base)?,
        plain.amount(tax)?,
        plain.amount(surcharge)?,
    ])
}

fn taxed_categories(t: &TaxTotal) -> impl Iterator<Item = &gobl::model::CategoryTotal> {
    t.categories.iter().filter(|c| !c.retained)
}

/// The general note, else the items' names (`DescripcionOperacion`, 500 characters).
fn description(inv: &Invoice) -> String {
    let note = inv
        .notes
        .iter()
        .find(|n| n.key.as_deref() == Some("general") && !n.text.trim().is_empty());
    if let Some(n) = note {
        return limit(&n.text, 500);
    }
    let names: Vec<&str> = inv
        .lines
        .iter()
        .map(|l| l.item.name.trim())
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        return "Sin descripción".into();
    }
    let text = format!("{}.", names.join(", "));
    if text.chars().count() <= 500 {
        return text;
    }
    format!("{}...", limit(&text, 497))
}

/// The customer, identified (simplified invoices name none).
fn recipients(inv: &Invoice, simplified: bool) -> Result<Vec<Identified>, Error> {
    if simplified {
        return Ok(Vec::new());
    }
    let customer = inv.customer.as_ref().ok_or(Error::Missing("customer"))?;
    match parties::identify(customer, "customer.name")? {
        Some(p) => Ok(vec![p]),
        None => Err(Error::Missing(
            "customer.tax_id or an identity with es-verifactu-identity-type",
        )),
    }
}

/// The third party that issued the invoice on the supplier's behalf.
fn third_party(inv: &Invoice) -> Result<Option<Identified>, Error> {
    let Some(issuer) = inv.ordering.as_ref().and_then(|o| o.issuer.as_ref()) else {
        return Ok(None);
    };
    parties::identify(issuer, "ordering.issuer.name")
}

/// The record as a document of its own; `tail` writes the chain, system, time and
/// fingerprint.
pub(crate) fn document(a: &Alta, tail: impl FnOnce(&mut Sum1)) -> String {
    sum1::record_document("RegistroAlta", |w| {
        w.text("IDVersion", super::VERSION);
        w.group("IDFactura", |w| write_id(w, &a.id));
        w.text("NombreRazonEmisor", &a.issuer_name);
        w.text("TipoFactura", &a.invoice_type);
        w.opt("TipoRectificativa", a.correction_type.as_deref());
        write_ids(
            w,
            "FacturasRectificadas",
            "IDFacturaRectificada",
            &a.rectified,
        );
        write_ids(
            w,
            "FacturasSustituidas",
            "IDFacturaSustituida",
            &a.substituted,
        );
        if let Some([base, tax, surcharge]) = &a.rectification {
            w.group("ImporteRectificacion", |w| {
                w.text("BaseRectificada", base);
                w.text("CuotaRectificada", tax);
                w.text("CuotaRecargoRectificado", surcharge);
            });
        }
        w.opt("FechaOperacion", a.op_date.as_deref());
        w.text("DescripcionOperacion", &a.description);
        w.opt(
            "FacturaSimplificadaArt7273",
            a.simplified_art7273.as_deref(),
        );
        w.opt("FacturaSinIdentifDestinatarioArt61d", a.without_recipient);
        w.opt("Macrodato", a.macro_data.then_some("S"));
        w.opt("EmitidaPorTerceroODestinatario", a.issued_by.as_deref());
        if let Some(t) = &a.third_party {
            w.group("Tercero", |w| write_party(w, t));
        }
        if !a.recipients.is_empty() {
            w.group("Destinatarios", |w| {
                for r in &a.recipients {
                    w.group("IDDestinatario", |w| write_party(w, r));
                }
            });
        }
        breakdown::write(w, &a.details);
        w.text("CuotaTotal", &a.tax_total);
        w.text("ImporteTotal", &a.total);
        tail(w);
    })
}

fn write_id(w: &mut Sum1, id: &InvoiceId) {
    w.text("IDEmisorFactura", &id.issuer);
    w.text("NumSerieFactura", &id.number);
    w.text("FechaExpedicionFactura", &id.issue_date);
}

fn write_ids(w: &mut Sum1, group: &str, item: &str, ids: &[InvoiceId]) {
    if ids.is_empty() {
        return;
    }
    w.group(group, |w| {
        for id in ids {
            w.group(item, |w| write_id(w, id));
        }
    });
}

/// `PersonaFisicaJuridicaType`: name, then NIF or `IDOtro`.
pub(crate) fn write_party(w: &mut Sum1, p: &Identified) {
    w.text("NombreRazon", &p.name);
    match &p.id {
        parties::PartyId::Nif(nif) => w.text("NIF", nif),
        parties::PartyId::Other {
            country,
            kind,
            code,
        } => w.group("IDOtro", |w| {
            w.opt("CodigoPais", country.as_deref());
            w.text("IDType", kind);
            w.text("ID", code);
        }),
    }
}
