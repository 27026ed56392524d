//! The national e-invoice actions, by the names Invopop's workflows use: `sdi-it.generate`
//! and `sdi-it.import` (FatturaPA), `verifactu.generate` (VERI*FACTU records, chained per
//! issuer), `gov-es.facturae.generate` (Facturae), `gov-pl.generate` and `gov-pl.import`
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

use super::einvoice::CATEGORY;
use super::{Outcome, Registry, Report, StepCx, silo_outcome};

/// Adds the national actions to `r`.
pub(super) fn register(r: &mut Registry) {
    r.add(fatturapa::Generate);
    r.add(fatturapa::Import);
    r.add(verifactu::Generate);
    r.add(facturae::Generate);
    r.add(ticketbai::Generate);
    r.add(ksef::Generate);
    r.add(ksef::Import);
    for step in authority::all() {
        r.add(step);
    }
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
