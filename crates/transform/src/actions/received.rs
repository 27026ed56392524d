//! What the import actions share (`ubl.import`, `cii.import`, `cii.pdf.import`,
//! `sdi-it.import`, `gov-pl.import`): finding the received file — an attachment of the job's
//! envelope, or the text the job was given as `data` — and storing what was read as a new
//! envelope with the received file attached.

use folio_silo::{Entry, FileInfo, NewEnvelope, NewFile, SiloError};
use uuid::Uuid;

use super::{Outcome, Report, StepCx, silo_outcome};

/// The kind of file an import step reads.
pub(super) struct Wanted<'a> {
    /// The attachment's name, when the step's config names one.
    pub name: Option<&'a str>,
    /// Whether an attachment is one this step reads, when no name is given.
    pub reads: fn(&FileInfo) -> bool,
    /// What it is, for messages ("an XML file", "a PDF file").
    pub what: &'static str,
}

/// The file name kept for a file given as job `data`.
pub(super) const INPUT_NAME: &str = "einvoice.xml";

/// The received file: with an envelope, its attachment; without one, the text the job was
/// given as `data` (named [`INPUT_NAME`]).
pub(super) async fn source(
    cx: &StepCx<'_>,
    wanted: &Wanted<'_>,
) -> Result<(String, Vec<u8>), Outcome> {
    if let Some(envelope_id) = cx.silo_entry_id {
        return attached(cx, envelope_id, wanted).await;
    }
    match cx.transform.job_input(cx.scope(), cx.job_id).await {
        Ok(Some(text)) => Ok((INPUT_NAME.to_string(), text.into_bytes())),
        Ok(None) => Err(Outcome::Ko(Report::new(
            "no-input",
            format!(
                "this step needs an envelope with {}, or a job given the file as data",
                wanted.what
            ),
        ))),
        Err(e) => Err(Outcome::Err(Report::new("storage", e.to_string()), None)),
    }
}

/// The attachment named in `wanted`, else the envelope's first attachment it reads.
async fn attached(
    cx: &StepCx<'_>,
    envelope_id: Uuid,
    wanted: &Wanted<'_>,
) -> Result<(String, Vec<u8>), Outcome> {
    let silo = cx.transform.silo();
    let entry = silo
        .get(cx.scope(), envelope_id)
        .await
        .map_err(silo_outcome)?;
    let file = entry
        .attachments
        .iter()
        .find(|f| match wanted.name {
            Some(name) => f.name == name,
            None => (wanted.reads)(f),
        })
        .ok_or_else(|| {
            let message = match wanted.name {
                Some(name) => format!("the envelope has no file named {name}"),
                None => format!("the envelope has no {} to import", wanted.what),
            };
            Outcome::Ko(Report::new("no-file", message))
        })?;
    let (_, bytes) = silo
        .get_file(cx.scope(), envelope_id, file.id)
        .await
        .map_err(silo_outcome)?;
    Ok((file.name.clone(), bytes.to_vec()))
}

/// The received file, to keep with the envelope read from it.
pub(super) struct Source {
    /// Its name.
    pub name: String,
    /// Its bytes, as received.
    pub bytes: Vec<u8>,
    /// Its media type.
    pub mime: &'static str,
    /// The silo file key (the format: `ubl`, `fatturapa`...).
    pub key: &'static str,
}

/// Stores `doc` (a bare GOBL document as JSON text) as a new envelope, with the received
/// file attached. The envelope's and the file's ids derive from the intent (and `n`, for a
/// file holding several invoices), so a re-run finds them.
pub(super) async fn store(
    cx: &StepCx<'_>,
    n: usize,
    doc: String,
    source: &Source,
) -> Result<Entry, Outcome> {
    let salt = if n == 0 {
        String::new()
    } else {
        format!("-{n}")
    };
    let new_id = Uuid::new_v5(&cx.intent_id, format!("import{salt}").as_bytes());
    let new = NewEnvelope {
        id: Some(new_id),
        data: doc,
        allow_invalid: true,
        ..NewEnvelope::default()
    };
    let silo = cx.transform.silo();
    let entry = match silo.create(cx.scope(), new).await {
        Ok(e) => e,
        // a re-run after a crash: the envelope is already there
        Err(SiloError::Conflict(_)) => silo.get(cx.scope(), new_id).await.map_err(silo_outcome)?,
        Err(e) => return Err(silo_outcome(e)),
    };
    let file = NewFile {
        name: source.name.clone(),
        bytes: source.bytes.clone(),
        mime: Some(source.mime.into()),
        desc: Some("the e-invoice this envelope was imported from".into()),
        key: Some(source.key.into()),
        category: Some(super::category::CATEGORY.into()),
        meta: None,
    };
    let file_id = Uuid::new_v5(&cx.intent_id, format!("source{salt}").as_bytes());
    silo.put_file(cx.scope(), entry.id, file_id, file)
        .await
        .map_err(silo_outcome)?;
    Ok(entry)
}
