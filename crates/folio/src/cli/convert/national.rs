//! `folio convert` for the national formats: GOBL → FatturaPA, VERI*FACTU, Facturae or KSeF
//! FA(3); FatturaPA (plain or `.xml.p7m`) and FA(3) → GOBL.
//!
//! The CLI keeps no chain: a VERI*FACTU record or TicketBAI file it writes is the first of its
//! issuer's chain unless `--previous` names the record to chain to (a file holding it).
//! Facturae is signed when `--identity` (a PKCS#12 file) and `--password-file` are given;
//! TicketBAI always is, and names the software's licence (`--license`, `--developer-nif`).

use std::path::Path;
use std::process::ExitCode;

use folio_national::sign::Identity;
use folio_national::{facturae, fatturapa, ksef, ticketbai, verifactu};
use serde_json::Value;

use super::input::{built, gobl_input};
use super::outcome::{INVALID, USAGE, fail, pretty};

/// The national targets of `--to`.
pub(super) const TARGETS: &[&str] = &["fatturapa", "verifactu", "facturae", "ticketbai", "ksef"];

/// What the national targets read beside the invoice.
pub(super) struct Options<'a> {
    /// `--previous`: the issuer's last VERI*FACTU record or TicketBAI file.
    pub previous: Option<&'a Path>,
    /// `--cancel`: the VERI*FACTU cancellation record rather than the issue record.
    pub cancel: bool,
    /// `--identity`: the PKCS#12 file to sign with.
    pub identity: Option<&'a Path>,
    /// `--password-file`: its password.
    pub password_file: Option<&'a Path>,
    /// `--license`: TicketBAI's software licence.
    pub license: Option<&'a str>,
    /// `--developer-nif`: TicketBAI's software developer.
    pub developer_nif: Option<&'a str>,
}

/// GOBL → the national format `to`; exit 1 when the invoice lacks what the format requires.
pub(super) fn to_national(bytes: &[u8], to: &str, opts: &Options) -> Result<String, ExitCode> {
    let envelope = built(gobl_input(bytes)?)?;
    let written = match to {
        "fatturapa" => fatturapa::from_envelope(&envelope, &Default::default())
            .map_err(|e| (matches!(e, fatturapa::Error::Read(_)), e.to_string())),
        "facturae" => match identity(opts)? {
            Some(id) => facturae::from_envelope_signed(&envelope, &Default::default(), &id, now()),
            None => facturae::from_envelope(&envelope, &Default::default()),
        }
        .map_err(|e| (matches!(e, facturae::Error::Read(_)), e.to_string())),
        "ticketbai" => return ticket(&envelope, opts),
        "ksef" => ksef::from_envelope(&envelope, &Default::default())
            .map_err(|e| (matches!(e, ksef::Error::Read(_)), e.to_string())),
        _ => return verifactu_record(&envelope, opts),
    };
    written
        .map_err(|(not_invoice, message)| fail(if not_invoice { USAGE } else { INVALID }, &message))
}

/// The VERI*FACTU issue record (or with `--cancel` the cancellation record), chained to
/// `--previous` when given.
fn verifactu_record(envelope: &Value, opts: &Options) -> Result<String, ExitCode> {
    let previous = match opts.previous {
        Some(path) => Some(previous_link(path)?),
        None => None,
    };
    let issue =
        verifactu::Issue::from_envelope(envelope).map_err(|e| fail(INVALID, &e.to_string()))?;
    let options = verifactu::Options {
        software: verifactu::Software::folio(issue.issuer_name(), issue.issuer(), "cli"),
        representative: None,
        environment: verifactu::Environment::Production,
    };
    let record = if opts.cancel {
        issue.cancellation(previous.as_ref(), now(), &options)
    } else {
        issue.record(previous.as_ref(), now(), &options)
    }
    .map_err(|e| fail(INVALID, &e.to_string()))?;
    if let Some(url) = &record.qr_url {
        eprintln!("qr: {url}");
    }
    eprintln!("huella: {}", record.link.huella);
    Ok(record.xml)
}

fn now() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
}

/// The identity `--identity` and `--password-file` give, if any; exit 2 when it cannot sign
/// (unreadable, wrong password, expired: the message says which).
fn identity(opts: &Options) -> Result<Option<Identity>, ExitCode> {
    let Some(path) = opts.identity else {
        return Ok(None);
    };
    let Some(password_file) = opts.password_file else {
        return Err(fail(USAGE, "--identity needs --password-file"));
    };
    let read = |p: &Path| {
        std::fs::read(p).map_err(|e| fail(USAGE, &format!("cannot read {}: {e}", p.display())))
    };
    let bytes = read(path)?;
    let password = String::from_utf8(read(password_file)?)
        .map_err(|_| fail(USAGE, "the password file is not UTF-8"))?;
    let password = password.trim_end_matches(['\r', '\n']);
    Identity::from_pkcs12(&bytes, password, now())
        .map(Some)
        .map_err(|e| fail(USAGE, &format!("{}: {e}", path.display())))
}

/// The signed TicketBAI file, chained to `--previous` when given.
fn ticket(envelope: &Value, opts: &Options) -> Result<String, ExitCode> {
    let Some(identity) = identity(opts)? else {
        return Err(fail(
            USAGE,
            "TicketBAI files are signed: give --identity and --password-file",
        ));
    };
    let (Some(license), Some(nif)) = (opts.license, opts.developer_nif) else {
        return Err(fail(
            USAGE,
            "TicketBAI files name the software's licence: give --license and --developer-nif",
        ));
    };
    let previous = match opts.previous {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| fail(USAGE, &format!("cannot read {}: {e}", path.display())))?;
            Some(ticketbai::ChainLink::from_ticket_xml(&text).ok_or_else(|| {
                fail(
                    USAGE,
                    &format!("{} holds no signed TicketBAI file", path.display()),
                )
            })?)
        }
        None => None,
    };
    let regions = [
        ticketbai::Region::Araba,
        ticketbai::Region::Bizkaia,
        ticketbai::Region::Gipuzkoa,
    ];
    let options = ticketbai::Options {
        software: ticketbai::Software {
            licenses: regions
                .into_iter()
                .map(|r| (r, license.to_string()))
                .collect(),
            developer_nif: nif.to_string(),
            name: "folio".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        role: ticketbai::IssuerRole::Supplier,
    };
    let t =
        ticketbai::from_envelope_signed(envelope, previous.as_ref(), now(), &options, &identity)
            .map_err(|e| fail(INVALID, &e.to_string()))?;
    eprintln!("tbai: {}", t.tbai_id);
    eprintln!("qr: {}", t.qr_url);
    Ok(t.xml)
}

/// The link of the last record in the file at `path`.
fn previous_link(path: &Path) -> Result<verifactu::ChainLink, ExitCode> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| fail(USAGE, &format!("cannot read {}: {e}", path.display())))?;
    verifactu::ChainLink::from_record_xml(&text).ok_or_else(|| {
        fail(
            USAGE,
            &format!("{} holds no VERI*FACTU record to chain to", path.display()),
        )
    })
}

/// FatturaPA or FA(3) → the built GOBL envelope; `None` when the input is neither.
pub(super) fn to_gobl(bytes: &[u8]) -> Option<Result<String, ExitCode>> {
    if fatturapa::detect(bytes) {
        return Some(from_fatturapa(bytes));
    }
    if is_fa3(bytes) {
        return Some(from_fa3(bytes));
    }
    None
}

/// Whether the input declares KSeF's FA(3) namespace.
fn is_fa3(bytes: &[u8]) -> bool {
    const NS: &[u8] = b"crd.gov.pl/wzor/2025/06/25/13775";
    bytes.windows(NS.len()).any(|w| w == NS)
}

/// A received FatturaPA file: its invoices (one envelope, or an array for a batch); a
/// `.p7m` whose signature does not verify is refused (exit 1).
fn from_fatturapa(bytes: &[u8]) -> Result<String, ExitCode> {
    let got = fatturapa::receive(bytes).map_err(|e| fail(USAGE, &e.to_string()))?;
    for signer in got.signers.iter().flatten() {
        let who = signer.subject.as_deref().unwrap_or("a signer");
        match &signer.status {
            fatturapa::p7m::SignatureStatus::Intact => eprintln!("signature intact: {who}"),
            fatturapa::p7m::SignatureStatus::Broken(why)
            | fatturapa::p7m::SignatureStatus::Unverifiable(why) => {
                return Err(fail(
                    INVALID,
                    &format!("the .p7m signature of {who} does not verify: {why}"),
                ));
            }
        }
    }
    for invoice in &got.invoices {
        for f in &invoice.findings {
            eprintln!("{:?} {}: {}", f.severity, f.path, f.message);
        }
    }
    let mut envelopes: Vec<Value> = got.invoices.into_iter().map(|i| i.envelope).collect();
    Ok(match envelopes.len() {
        1 => pretty(&envelopes.remove(0)),
        _ => pretty(&Value::Array(envelopes)),
    })
}

/// A received FA(3) file, built.
fn from_fa3(bytes: &[u8]) -> Result<String, ExitCode> {
    let text = std::str::from_utf8(bytes).map_err(|_| fail(USAGE, "the input is not UTF-8"))?;
    let doc = ksef::read(text).map_err(|e| fail(USAGE, &e.to_string()))?;
    Ok(pretty(&built(doc)?))
}
