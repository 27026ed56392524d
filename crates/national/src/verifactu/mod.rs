//! VERI*FACTU (Spain, AEAT) records written from a built GOBL invoice with the
//! `es-verifactu-v1` add-on: the issue record (`RegistroAlta`) or the cancellation record
//! (`RegistroAnulacion`) inside a `RegFactuSistemaFacturacion` submission, chained to the
//! issuer's previous record by its fingerprint (`Huella`), and the verification QR URL.
//!
//! The chain is state the caller keeps per issuer: [`record`] and [`cancellation`] are pure
//! functions of the invoice, the previous record's [`ChainLink`] (none for the first), the
//! generation time and the [`Options`] (the invoicing system's identity), and return the
//! XML with the new record's link, to store as the issuer's chain head. Each record is
//! also given alone ([`Record::record`], declaring its namespace) to be signed by itself;
//! [`submission`] puts records (up to 1000, signed or not) byte for byte in one
//! submission. Amounts in the fingerprint are the texts the XML carries (two decimals).
//!
//! Files: `alta` (the issue record), `anulacion` (the cancellation), `breakdown` (taxes and
//! totals), `parties` (NIF or `IDOtro`), `huella` (the fingerprint), `qr` (the URL), `time`
//! (dates and the Spanish time of generation), `chain` (reading a link back from a record),
//! `system` (the invoicing system), `submission` (the wrapper and each record's tail).

mod alta;
mod anulacion;
mod breakdown;
mod chain;
pub mod huella;
mod parties;
pub mod qr;
mod submission;
mod sum1;
mod system;
mod text;
mod time;

use chrono::{DateTime, Utc};
use gobl::model::{Invoice, ReadError};
use serde_json::Value;

pub use qr::{Environment, QrData};
pub use submission::submission;
pub use system::Software;
pub use time::spain_time;

use submission::write_tail;
use system::check_software;

pub(crate) const NS_SUM: &str = "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroLR.xsd";
pub(crate) const NS_SUM1: &str = "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd";

/// `IDVersion` of the records.
const VERSION: &str = "1.0";

/// `TipoHuella`: SHA-256.
pub(crate) const FINGERPRINT_TYPE: &str = "01";

/// What identifies a record in the issuer's chain: the invoice it is about and its
/// fingerprint. The next record names it in `Encadenamiento/RegistroAnterior`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChainLink {
    /// `IDEmisorFactura`: the issuer's NIF.
    pub issuer: String,
    /// `NumSerieFactura`: the invoice's series and number.
    pub number: String,
    /// `FechaExpedicionFactura` (`dd-mm-yyyy`).
    pub issue_date: String,
    /// `Huella`: the record's fingerprint.
    pub huella: String,
}

impl ChainLink {
    /// The link of the last record in a VERI*FACTU document (a submission, a SOAP envelope
    /// or a bare record), to chain a new record to a record written elsewhere.
    pub fn from_record_xml(xml: &str) -> Option<ChainLink> {
        chain::last_link(xml)
    }
}

/// A person or company with a Spanish NIF (`PersonaFisicaJuridicaESType`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedNif {
    /// Name.
    pub name: String,
    /// NIF.
    pub nif: String,
}

/// Options of the writer.
#[derive(Debug, Clone)]
pub struct Options {
    /// The invoicing system.
    pub software: Software,
    /// The representative who submits for the issuer (`Cabecera/Representante`), if any.
    pub representative: Option<NamedNif>,
    /// The AEAT host of the QR URL.
    pub environment: Environment,
}

/// A record written: the submission's XML, the record's chain link and, for an issue
/// record, the URL of its verification QR code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The `RegFactuSistemaFacturacion` document holding the record.
    pub xml: String,
    /// The record alone (`RegistroAlta` or `RegistroAnulacion` declaring its namespace), to
    /// sign before putting it in a submission with [`submission`].
    pub record: String,
    /// The new head of the issuer's chain.
    pub link: ChainLink,
    /// The `ValidarQR` URL (issue records only).
    pub qr_url: Option<String>,
}

/// Why an invoice cannot be written as a VERI*FACTU record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The input is not a built invoice.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Something VERI*FACTU requires is missing (the path names it).
    #[error("{0} is required by VERI*FACTU")]
    Missing(&'static str),
    /// A value VERI*FACTU cannot take.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// An amount out of range.
    #[error("amount: {0}")]
    Amount(String),
}

/// An invoice's identity in VERI*FACTU (`IDFactura`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InvoiceId {
    pub issuer: String,
    pub number: String,
    pub issue_date: String,
}

/// A built invoice read for its record, before its place in the chain is known: its issuer
/// says which chain to take the previous link from (and to lock, for a caller that keeps
/// chains), then [`Issue::record`] writes the issue record, or [`Issue::cancellation`] the
/// record that cancels it.
#[derive(Debug, Clone)]
pub struct Issue {
    inv: Invoice,
    issuer: String,
}

impl Issue {
    /// Read a built envelope (or bare built invoice).
    pub fn from_envelope(envelope: &Value) -> Result<Issue, Error> {
        let inv = Invoice::from_value(envelope)?;
        let issuer = invoice_id(&inv)?.issuer;
        Ok(Issue { inv, issuer })
    }

    /// The issuer's NIF: the chain the record belongs to.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The issuer's name, as the invoice gives it.
    pub fn issuer_name(&self) -> &str {
        self.inv.supplier.name.as_deref().unwrap_or_default()
    }

    /// Write the issue record, chained to `previous` ([`record`]).
    pub fn record(
        &self,
        previous: Option<&ChainLink>,
        generated_at: DateTime<Utc>,
        opts: &Options,
    ) -> Result<Record, Error> {
        record(&self.inv, previous, generated_at, opts)
    }

    /// Write the cancellation record of the invoice, chained to `previous` ([`cancellation`]).
    pub fn cancellation(
        &self,
        previous: Option<&ChainLink>,
        generated_at: DateTime<Utc>,
        opts: &Options,
    ) -> Result<Record, Error> {
        cancellation(&self.inv, previous, generated_at, opts)
    }
}

/// Write the issue record of a built envelope (or bare built invoice).
pub fn record_from_envelope(
    envelope: &Value,
    previous: Option<&ChainLink>,
    generated_at: DateTime<Utc>,
    opts: &Options,
) -> Result<Record, Error> {
    record(
        &Invoice::from_value(envelope)?,
        previous,
        generated_at,
        opts,
    )
}

/// Write the issue record (`RegistroAlta`) of a built invoice, chained to `previous` (the
/// issuer's last record; `None` starts the chain), generated at `generated_at`.
pub fn record(
    inv: &Invoice,
    previous: Option<&ChainLink>,
    generated_at: DateTime<Utc>,
    opts: &Options,
) -> Result<Record, Error> {
    check_software(&opts.software)?;
    let a = alta::build(inv)?;
    let generated = spain_time(generated_at);
    let huella = huella::alta(&huella::AltaFields {
        issuer: &a.id.issuer,
        number: &a.id.number,
        issue_date: &a.id.issue_date,
        invoice_type: &a.invoice_type,
        tax_total: &a.tax_total,
        total: &a.total,
        previous: previous.map_or("", |p| p.huella.as_str()),
        generated: &generated,
    });
    let element = alta::document(&a, |w| {
        write_tail(w, previous, &generated, &huella, &opts.software)
    });
    let obligado = NamedNif {
        name: a.issuer_name.clone(),
        nif: a.id.issuer.clone(),
    };
    let xml = submission(&obligado, opts.representative.as_ref(), &[&element]);
    let qr = QrData {
        nif: a.id.issuer.clone(),
        number: a.id.number.clone(),
        issue_date: a.id.issue_date.clone(),
        total: a.total.clone(),
    };
    Ok(Record {
        xml,
        record: element,
        link: link(a.id, huella),
        qr_url: Some(qr::url(&qr, opts.environment)),
    })
}

/// Write the cancellation record (`RegistroAnulacion`) of a built invoice issued earlier,
/// chained to `previous`.
pub fn cancellation(
    inv: &Invoice,
    previous: Option<&ChainLink>,
    generated_at: DateTime<Utc>,
    opts: &Options,
) -> Result<Record, Error> {
    check_software(&opts.software)?;
    let id = invoice_id(inv)?;
    let name = inv.supplier.name.as_deref().unwrap_or_default();
    let name = text::limit(name, 120);
    if name.is_empty() {
        return Err(Error::Missing("supplier.name"));
    }
    let generated = spain_time(generated_at);
    let huella = huella::anulacion(&huella::AnulacionFields {
        issuer: &id.issuer,
        number: &id.number,
        issue_date: &id.issue_date,
        previous: previous.map_or("", |p| p.huella.as_str()),
        generated: &generated,
    });
    let element = anulacion::document(&id, |w| {
        write_tail(w, previous, &generated, &huella, &opts.software)
    });
    let obligado = NamedNif {
        name,
        nif: id.issuer.clone(),
    };
    let xml = submission(&obligado, opts.representative.as_ref(), &[&element]);
    Ok(Record {
        xml,
        record: element,
        link: link(id, huella),
        qr_url: None,
    })
}

fn link(id: InvoiceId, huella: String) -> ChainLink {
    ChainLink {
        issuer: id.issuer,
        number: id.number,
        issue_date: id.issue_date,
        huella,
    }
}

/// The invoice's `IDFactura`: the supplier's NIF, its number and issue date.
pub(crate) fn invoice_id(inv: &Invoice) -> Result<InvoiceId, Error> {
    if inv.currency != "EUR" {
        return Err(Error::Unsupported(format!(
            "currency {}: VERI*FACTU records are in euros",
            inv.currency
        )));
    }
    let tax_id = inv.supplier.tax_id.as_ref();
    if tax_id.is_some_and(|t| t.country != "ES") {
        return Err(Error::Unsupported(
            "a supplier without a Spanish tax id".into(),
        ));
    }
    let nif = tax_id
        .and_then(|t| t.code.as_deref())
        .filter(|c| !c.is_empty())
        .ok_or(Error::Missing("supplier.tax_id.code"))?;
    if nif.chars().count() != 9 {
        return Err(Error::Unsupported(format!("NIF '{nif}' (9 characters)")));
    }
    let date = inv.issue_date.ok_or(Error::Missing("issue_date"))?;
    Ok(InvoiceId {
        issuer: nif.to_string(),
        number: number(&inv.full_code())?,
        issue_date: time::date(date),
    })
}

/// `NumSerieFactura`: 1 to 60 characters.
pub(crate) fn number(code: &str) -> Result<String, Error> {
    let code = code.trim();
    match code.chars().count() {
        0 => Err(Error::Missing("code")),
        1..=60 => Ok(code.to_string()),
        _ => Err(Error::Unsupported(format!(
            "invoice number '{code}' (60 characters at most)"
        ))),
    }
}

#[cfg(test)]
mod tests;
