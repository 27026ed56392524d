//! TicketBAI 1.2.2 (the Basque Country: Araba/Álava, Bizkaia, Gipuzkoa) written from a
//! built GOBL invoice with the `es-tbai-v1` add-on: the `TicketBai` file (`Cabecera`,
//! `Sujetos`, `Factura`, `HuellaTBAI`) to be signed XAdES-EPES under the province's policy,
//! then the TBAI identifier and the QR URL computed from its signature value.
//!
//! Writing is two pure steps around the signature. [`draft`] takes the invoice, the
//! previous invoice's [`ChainLink`] (none for the first of the issuer's chain), the moment
//! of issue and the [`Options`], and gives a [`Draft`]: the document without its
//! `ds:Signature`, which the official schema requires, so a draft is not a valid file on
//! its own. [`Draft::sign`] signs it XAdES-EPES by the issuer's identity under the
//! province's policy (enveloped, the last child of `TicketBai`) and reads the signature
//! value back ([`Draft::complete`], for a file signed elsewhere) into the [`Ticket`]: the
//! file, the TBAI identifier, the QR URL and the new [`ChainLink`], to keep as the
//! issuer's chain head. [`from_envelope_signed`] does both at once.
//!
//! As the reference converter (`invopop/gobl.ticketbai`) does, the issue date and time
//! (`FechaExpedicionFactura`, `HoraExpedicionFactura`) are the moment of issue given, in
//! Spanish peninsular time; the invoice's own date goes to `FechaOperacion` (its operation
//! date when it has one). A credit note is written with negative amounts (a correction by
//! differences).
//!
//! Files: `header` (`CabeceraFactura`), `parties` (`Sujetos`), `data` (`DatosFactura`:
//! description, lines, totals, regime keys), `breakdown` (`TipoDesglose`), `huella`
//! (`HuellaTBAI`: the chain and the software), `code` (CRC-8, TBAI identifier, QR URL),
//! `chain` (reading a link back from a signed file), `region`, `time`, `amounts`.

mod amounts;
mod breakdown;
mod chain;
pub mod code;
mod data;
mod header;
mod huella;
mod parties;
mod region;
mod time;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use gobl::model::{Invoice, ReadError, without_included_taxes};
use serde_json::Value;

use crate::sign::{self, Identity, Policy, XadesOptions};
use crate::xml::Xml;

pub use region::Region;

const NS_TBAI: &str = "urn:ticketbai:emision";
const ADDON: &str = "es-tbai-v1";
/// `IDVersionTBAI`.
const VERSION: &str = "1.2";

/// Who issues the file (`EmitidaPorTercerosODestinatario`), and the XAdES signer role
/// that goes with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IssuerRole {
    /// The supplier itself (`N`).
    #[default]
    Supplier,
    /// The customer, on the supplier's behalf (`D`).
    Customer,
    /// A third party, on the supplier's behalf (`T`).
    ThirdParty,
}

impl IssuerRole {
    /// The code of `EmitidaPorTercerosODestinatario`.
    pub fn code(self) -> &'static str {
        match self {
            IssuerRole::Supplier => "N",
            IssuerRole::Customer => "D",
            IssuerRole::ThirdParty => "T",
        }
    }

    /// The XAdES `ClaimedRole` the TicketBAI signature specification names for this issuer.
    pub fn signer_role(self) -> &'static str {
        match self {
            IssuerRole::Supplier => "Supplier",
            IssuerRole::Customer => "Customer",
            IssuerRole::ThirdParty => "Thirdparty",
        }
    }
}

/// The invoicing software that writes the files (`HuellaTBAI/Software`), registered with
/// each province's treasury under a licence of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Software {
    /// `LicenciaTBAI`, by province (each treasury gives its own).
    pub licenses: BTreeMap<Region, String>,
    /// `EntidadDesarrolladora/NIF`: the developer's Spanish NIF.
    pub developer_nif: String,
    /// `Nombre` (120 characters).
    pub name: String,
    /// `Version` (20 characters).
    pub version: String,
}

/// Options of the writer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The invoicing software.
    pub software: Software,
    /// Who issues the file.
    pub role: IssuerRole,
}

/// What names an invoice in the issuer's chain: the next invoice's
/// `EncadenamientoFacturaAnterior`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChainLink {
    /// `SerieFactura` (empty when the invoice has no series).
    pub series: String,
    /// `NumFactura`.
    pub number: String,
    /// `FechaExpedicionFactura` (`dd-mm-yyyy`).
    pub issue_date: String,
    /// The first 100 characters of the file's `SignatureValue`.
    pub signature: String,
}

impl ChainLink {
    /// The link of a signed TicketBAI file (written by folio or another system), to chain
    /// the next invoice to it.
    pub fn from_ticket_xml(xml: &str) -> Option<ChainLink> {
        chain::link(xml)
    }
}

/// A TicketBAI file written but not signed yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    /// The `TicketBai` document without its `ds:Signature`: sign these bytes.
    pub xml: String,
    /// The province whose treasury receives it, and whose signature policy applies.
    pub region: Region,
    /// Who issues it (the signer's claimed role).
    pub role: IssuerRole,
    /// What the identifier, the QR URL and the chain take from the file.
    facts: Facts,
}

/// The values of the file that the identifier, the QR URL and the chain repeat.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Facts {
    nif: String,
    series: String,
    number: String,
    issue_date: String,
    total: String,
}

/// A signed TicketBAI file and what comes of its signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ticket {
    /// The signed `TicketBai` document.
    pub xml: String,
    /// The province.
    pub region: Region,
    /// The TBAI identifier (`TBAI-<NIF>-<ddmmyy>-<13 characters>-<CRC-8>`), printed on the
    /// invoice.
    pub tbai_id: String,
    /// The province's QR URL, printed as a QR code on the invoice.
    pub qr_url: String,
    /// The new head of the issuer's chain.
    pub link: ChainLink,
}

/// Why an invoice cannot be written as TicketBAI.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The input is not a built invoice.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Restating prices without the included tax failed.
    #[error("removing included taxes: {0}")]
    Calculation(String),
    /// Something TicketBAI requires is missing (the path names it).
    #[error("{0} is required by TicketBAI")]
    Missing(&'static str),
    /// A value TicketBAI cannot take, or a case this writer does not handle.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// An amount out of range.
    #[error("amount: {0}")]
    Amount(String),
    /// The signed file carries no usable `SignatureValue`.
    #[error("signature: {0}")]
    Signature(String),
}

/// [`draft`] of a built envelope (or bare built invoice); prices that include VAT are
/// restated without it first.
pub fn draft_from_envelope(
    envelope: &Value,
    previous: Option<&ChainLink>,
    issued_at: DateTime<Utc>,
    opts: &Options,
) -> Result<Draft, Error> {
    let net = without_included_taxes(envelope).map_err(|e| Error::Calculation(e.to_string()))?;
    draft(&Invoice::from_value(&net)?, previous, issued_at, opts)
}

/// Write the TicketBAI file of a built invoice (prices without tax), chained to
/// `previous` (the issuer's last file; `None` for the first), issued at `issued_at`.
pub fn draft(
    inv: &Invoice,
    previous: Option<&ChainLink>,
    issued_at: DateTime<Utc>,
    opts: &Options,
) -> Result<Draft, Error> {
    check_invoice(inv)?;
    let region = region::of(inv)?;
    let license = opts
        .software
        .licenses
        .get(&region)
        .filter(|l| !l.trim().is_empty())
        .ok_or(Error::Missing(
            "options.software.licenses for the invoice's region",
        ))?;
    huella::check_software(&opts.software)?;
    if let Some(p) = previous {
        huella::check_link(p)?;
    }
    let issued = time::issued(issued_at);
    let cab = header::build(inv, &issued)?;
    let sujetos = parties::build(inv, opts.role)?;
    let datos = data::build(inv)?;
    let desglose = breakdown::build(inv)?;
    let mut x = Xml::new();
    x.open_with("T:TicketBai", &[("xmlns:T", NS_TBAI)]);
    x.group("Cabecera", |x| x.text("IDVersionTBAI", VERSION));
    parties::write(&mut x, &sujetos);
    x.group("Factura", |x| {
        header::write(x, &cab);
        data::write(x, &datos);
        breakdown::write(x, &desglose);
    });
    huella::write(&mut x, previous, license, &opts.software);
    x.close("T:TicketBai");
    Ok(Draft {
        xml: x.finish(),
        region,
        role: opts.role,
        facts: Facts {
            nif: sujetos.issuer_nif,
            series: cab.series.unwrap_or_default(),
            number: cab.number,
            issue_date: issued.date,
            total: datos.total,
        },
    })
}

/// Write and sign the TicketBAI file of a built envelope in one go: [`draft_from_envelope`],
/// then [`Draft::sign`] by `identity` at the moment of issue.
pub fn from_envelope_signed(
    envelope: &Value,
    previous: Option<&ChainLink>,
    issued_at: DateTime<Utc>,
    opts: &Options,
    identity: &Identity,
) -> Result<Ticket, Error> {
    draft_from_envelope(envelope, previous, issued_at, opts)?.sign(identity, issued_at)
}

impl Draft {
    /// Sign the draft XAdES-EPES (enveloped) by `identity` under its province's policy, in
    /// the issuer's role, at `signing_time`, and complete it.
    pub fn sign(self, identity: &Identity, signing_time: DateTime<Utc>) -> Result<Ticket, Error> {
        let opts = XadesOptions {
            policy: policy(self.region),
            signing_time,
            role: Some(self.role.signer_role()),
        };
        let signed = sign::sign_enveloped(&self.xml, identity, &opts)
            .map_err(|e| Error::Signature(e.to_string()))?;
        self.complete(signed)
    }

    /// The ticket of this draft once signed: `signed_xml` is the draft with its
    /// `ds:Signature` appended, whose `SignatureValue` gives the identifier and the link.
    pub fn complete(self, signed_xml: String) -> Result<Ticket, Error> {
        let f = &self.facts;
        let read = chain::link(&signed_xml)
            .ok_or_else(|| Error::Signature("no ds:SignatureValue in the signed file".into()))?;
        if (
            read.series.as_str(),
            read.number.as_str(),
            read.issue_date.as_str(),
        ) != (f.series.as_str(), f.number.as_str(), f.issue_date.as_str())
        {
            return Err(Error::Signature(format!(
                "the signed file is invoice {} {} of {}, not this draft's",
                read.series, read.number, read.issue_date
            )));
        }
        let value = chain::signature_value(&signed_xml)
            .ok_or_else(|| Error::Signature("no ds:SignatureValue in the signed file".into()))?;
        let tbai_id = code::tbai_id(&f.nif, &f.issue_date, &value)?;
        let qr_url = code::qr_url(self.region, &tbai_id, &f.series, &f.number, &f.total);
        let link = ChainLink {
            series: f.series.clone(),
            number: f.number.clone(),
            issue_date: f.issue_date.clone(),
            signature: value.chars().take(100).collect(),
        };
        Ok(Ticket {
            xml: signed_xml,
            region: self.region,
            tbai_id,
            qr_url,
            link,
        })
    }
}

/// The signature policy of each province.
fn policy(region: Region) -> &'static Policy {
    match region {
        Region::Araba => &sign::TICKETBAI_ARABA,
        Region::Bizkaia => &sign::TICKETBAI_BIZKAIA,
        Region::Gipuzkoa => &sign::TICKETBAI_GIPUZKOA,
    }
}

/// What the whole file needs of the invoice before any part is written.
fn check_invoice(inv: &Invoice) -> Result<(), Error> {
    if !inv.addons.iter().any(|a| a == ADDON) {
        return Err(Error::Unsupported(format!(
            "an invoice without the {ADDON} add-on"
        )));
    }
    if inv.currency != "EUR" {
        return Err(Error::Unsupported(format!(
            "currency {}: TicketBAI files are in euros",
            inv.currency
        )));
    }
    if inv.kind == "corrective" {
        // As the reference: corrections by differences only, written from credit and
        // debit notes.
        return Err(Error::Unsupported(
            "corrective invoices (use a credit or debit note)".into(),
        ));
    }
    let charged = !inv.charges.is_empty() || inv.lines.iter().any(|l| !l.charges.is_empty());
    if charged {
        // The line details (`IDDetalleFactura`) have no place for a charge.
        return Err(Error::Unsupported("charges".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
