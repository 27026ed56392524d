//! The national e-invoice actions, by the names Invopop's workflows use: `sdi-it.generate`
//! and `sdi-it.import` (FatturaPA), `verifactu.generate` and `verifactu.cancel` (VERI*FACTU
//! records, chained per issuer), `gov-es.facturae.generate` (Facturae), `gov-pl.generate` and `gov-pl.import`
//! (KSeF FA(3)); and the steps that need an authority's service ([`authority`]), which end
//! their job `KO`.
//!
//! A generate step writes the job's envelope in its format and attaches the file (category
//! `einvoice`, the format as key: a later run replaces the earlier file, which stays
//! downloadable by its id); an import step reads a received file into a new envelope.

pub(super) mod authority;
mod facturae;
mod fatturapa;
mod ksef;
mod ticketbai;
mod verifactu;

use std::collections::BTreeMap;

use folio_national::sign::Identity;
use folio_silo::NewFile;
use uuid::Uuid;

use super::category::CATEGORY;
use super::{Outcome, Registry, Report, StepCx, silo_outcome};

/// Adds the national actions to `r`.
pub(super) fn register(r: &mut Registry) {
    r.add(fatturapa::Generate);
    r.add(fatturapa::Import);
    r.add(verifactu::Generate);
    r.add(verifactu::Cancel);
    r.add(facturae::Generate);
    r.add(ticketbai::Generate);
    r.add(ksef::Generate);
    r.add(ksef::Import);
    for step in authority::all() {
        r.add(step);
    }
}

/// The config of the FatturaPA and FA(3) steps: Invopop's options (`environment`...) are
/// accepted and not needed offline; an import step reads the attachment `file`, else the
/// envelope's first file of its format.
#[derive(Debug, Default, serde::Deserialize)]
struct FileConfig {
    #[serde(default)]
    file: Option<String>,
}

/// A document a generate step writes.
struct Written {
    /// The format's name, for messages (`FatturaPA 1.2.2`).
    format: &'static str,
    /// The silo file key (`fatturapa`).
    key: &'static str,
    /// The file name.
    name: String,
    /// The XML.
    xml: String,
    /// Values kept with the file (the VERI*FACTU fingerprint and QR URL).
    meta: Option<BTreeMap<String, String>>,
}

/// A generate step's whole run: the job's envelope, written off the async workers by
/// `write` (its error, a message naming what the format requires, ends the step `KO`), then
/// attached.
async fn generate<F>(cx: &StepCx<'_>, write: F) -> Outcome
where
    F: FnOnce(serde_json::Value) -> Result<Written, String> + Send + 'static,
{
    let (envelope_id, data) = match envelope(cx).await {
        Ok(found) => found,
        Err(o) => return o,
    };
    match convert(move || write(data)).await {
        Ok(w) => attach(cx, envelope_id, w).await,
        Err(o) => o,
    }
}

/// A chained document (VERI*FACTU record, TicketBAI file) the step writes.
struct Chained<'a> {
    format: &'static str,
    /// The chain (`verifactu`): issue and cancellation records share one.
    chain: &'static str,
    /// The silo file key (`verifactu`, `verifactu-cancel`).
    key: &'static str,
    name: &'static str,
    issuer: &'a str,
}

/// Adds the record `write` makes to the issuer's chain of `c.key` (see `crate::chains`) and
/// attaches it, its chain position beside its own meta.
async fn append_and_attach<L, E>(
    cx: &StepCx<'_>,
    envelope_id: Uuid,
    c: Chained<'_>,
    write: impl FnOnce(Option<L>) -> Result<crate::chains::Written<L>, E>,
) -> Outcome
where
    L: serde::Serialize + serde::de::DeserializeOwned,
    E: std::fmt::Display,
{
    let by = crate::chains::Writer {
        intent_id: cx.intent_id,
        envelope_id: Some(envelope_id),
    };
    let key = crate::chains::Key {
        format: c.chain,
        issuer: c.issuer,
    };
    let stored = match cx.transform.chain_append(cx.scope(), key, by, write).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return Outcome::Ko(Report::new("convert", e.to_string())),
        Err(e) => return Outcome::Err(Report::new("storage", e.to_string()), None),
    };
    let mut meta = stored.record.meta;
    meta.insert("chain_position".into(), stored.position.to_string());
    let written = Written {
        format: c.format,
        key: c.key,
        name: c.name.into(),
        xml: stored.record.xml,
        meta: Some(meta),
    };
    attach(cx, envelope_id, written).await
}

/// Runs a conversion off the async workers; its error (a message naming what the format
/// requires) ends the step `KO`.
async fn convert<T, F>(f: F) -> Result<T, Outcome>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, String> + Send + 'static,
{
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(done)) => Ok(done),
        Ok(Err(message)) => Err(Outcome::Ko(Report::new("convert", message))),
        Err(e) => Err(Outcome::Err(Report::new("internal", e.to_string()), None)),
    }
}

/// A reader's refusal (from [`convert`]) as an `import` outcome naming the file.
fn unreadable(name: &str, outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Ko(r) => {
            let message = r.message.unwrap_or_default();
            Outcome::Ko(Report::new("import", format!("{name}: {message}")))
        }
        other => other,
    }
}

/// The workspace's signing identity (`id`, or its newest valid one), opened; a `KO` that
/// says how to give one when it has none, or why the one it has cannot sign.
async fn signing_identity(cx: &StepCx<'_>, id: Option<Uuid>) -> Result<Identity, Outcome> {
    let found = cx
        .transform
        .silo()
        .signing_identity(cx.scope(), id)
        .await
        .map_err(silo_outcome)?;
    let Some((pkcs12, password)) = found else {
        return Err(Outcome::Ko(Report::new(
            "no-identity",
            "this step signs with a signing identity of the workspace, and it has none valid: \
             import one (POST /silo/v1/identities, or folio identities import)",
        )));
    };
    Identity::from_pkcs12(&pkcs12, &password, folio_store::now())
        .map_err(|e| Outcome::Ko(Report::new("identity", e.to_string())))
}

/// The job's envelope id and its GOBL envelope.
async fn envelope(cx: &StepCx<'_>) -> Result<(Uuid, serde_json::Value), Outcome> {
    let (entry, data) = cx.envelope_entry().await?;
    Ok((entry.id, data))
}

/// Attaches a written document to the envelope; the file's id derives from the step's
/// intent, so a re-run replaces nothing twice.
async fn attach(cx: &StepCx<'_>, envelope_id: Uuid, written: Written) -> Outcome {
    let file_id = Uuid::new_v5(&cx.intent_id, written.key.as_bytes());
    let meta = written.meta.clone();
    let file = NewFile {
        name: written.name,
        bytes: written.xml.into_bytes(),
        mime: Some("application/xml".into()),
        desc: Some(written.format.into()),
        key: Some(written.key.into()),
        category: Some(CATEGORY.into()),
        meta: written.meta,
    };
    let info = match cx.attach(envelope_id, file_id, file).await {
        Ok(info) => info,
        Err(o) => return o,
    };
    let message = format!(
        "attached {} ({}, {} bytes)",
        info.name, written.format, info.size
    );
    let mut report = Report::attached("generated", message, &info);
    report.args.insert("format".into(), written.format.into());
    report.args.extend(meta.unwrap_or_default());
    Outcome::Ok(report)
}
