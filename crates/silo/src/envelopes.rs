//! Storing, reading and changing envelopes.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use folio_store::{Scope, StoreError, WriteTx, now};
use gobl::FieldError;
use gobl::envelope::Envelope;
use uuid::Uuid;

use crate::error::{SiloError, SiloResult};
use crate::fingerprint::Fingerprint;
use crate::ingest::{self, Prepared};
use crate::model::{Entry, EnvelopeUpdate, History, NewEnvelope, Version};
use crate::summary::Summary;
use crate::{Meta, Silo, WorkspaceKeys, db, patch, related};

impl Silo {
    /// Stores an envelope (or envelopes a bare document). Repeating the same request for the
    /// same id returns the stored envelope; the same id with other content, or a `key` already
    /// used in the workspace, is a conflict. Nothing is written when it fails.
    pub async fn create(&self, ws: Scope, new: NewEnvelope) -> SiloResult<Entry> {
        self.create_parsed(ws, new, None).await
    }

    /// [`Self::create`] of `data` its caller has parsed already (under
    /// [`Self::limits`]' `json_depth`): the parse is taken, not done again.
    pub async fn create_parsed(
        &self,
        ws: Scope,
        new: NewEnvelope,
        parsed: Option<ingest::Parsed>,
    ) -> SiloResult<Entry> {
        let keys = if new.sign || has_sigs(&new.data, parsed.as_ref()) {
            Some(self.keys(ws).await?)
        } else {
            None
        };
        let Ready {
            entry,
            fingerprint,
            sent,
            prepared,
            summary,
            refs,
        } = self.ready(new, parsed, keys.as_deref(), now())?;
        let stored = (prepared.text.as_str(), &summary);
        if !db::envelopes::create(self.store(), ws, &entry, &fingerprint.value, stored).await? {
            return match self.find(ws, entry.id).await? {
                Some((stored, stored_fingerprint))
                    if fingerprint.matches(&stored_fingerprint, &sent) =>
                {
                    // A repeated request also repairs an index write a crash interrupted
                    // (a read finds it whole almost always; the write is only the repair).
                    let indexed = db::related::count(self.store(), ws, stored.id).await?;
                    if indexed != refs.len() {
                        self.index_related(ws, &stored, &refs).await?;
                    }
                    Ok(stored)
                }
                Some(_) => Err(SiloError::Conflict(format!(
                    "envelope {} already exists with other content",
                    entry.id
                ))),
                None => Err(SiloError::Conflict(format!(
                    "key {:?} is already used in this workspace",
                    entry.key.clone().unwrap_or_default()
                ))),
            };
        }
        self.index_soon();
        self.index_related(ws, &entry, &refs).await?;
        Ok(Entry {
            data: Some(prepared.text),
            ..entry
        })
    }

    /// A new envelope made ready to store at `at`: checked, prepared (built, or its digest and
    /// signatures checked; signed with `keys` when asked), with what is stored beside it.
    /// `parsed`: the parse of its `data`, when the caller has it.
    pub(crate) fn ready(
        &self,
        mut new: NewEnvelope,
        parsed: Option<ingest::Parsed>,
        keys: Option<&WorkspaceKeys>,
        at: DateTime<Utc>,
    ) -> SiloResult<Ready> {
        check_labels(
            new.key.as_deref(),
            new.folder.as_deref(),
            &new.tags,
            &new.meta,
        )?;
        let data = std::mem::take(&mut new.data);
        let mut input = ingest::Input::read(&data, parsed, self.limits().json_depth)?;
        let (fingerprint, doc_digest) = Fingerprint::of(&input.value, &new)?;
        input.doc_digest = doc_digest;
        let prepared = ingest::prepare(
            input,
            new.id,
            keys.map(|k| k.public.as_slice()).unwrap_or_default(),
            keys.filter(|_| new.sign).map(|k| &k.signing),
            new.allow_invalid,
        )?;
        let entry = Entry {
            id: prepared.id,
            created_at: at,
            updated_at: at,
            key: new.key,
            folder: new.folder,
            env_schema: gobl::envelope::ENVELOPE_SCHEMA.into(),
            doc_schema: prepared.doc_schema(),
            digest: prepared.envelope.head.dig.val.clone(),
            signed: prepared.signed(),
            state: None,
            version: prepared.version(),
            tags: new.tags,
            meta: new.meta.settle(None, at),
            attachments: Vec::new(),
            data: None,
            faults: prepared.faults.clone().unwrap_or_default(),
            context: None,
        };
        Ok(Ready {
            refs: related::references(&prepared.envelope.doc, entry.id),
            summary: Summary::of(entry.key.as_deref(), &prepared.envelope.doc),
            entry,
            fingerprint,
            sent: data,
            prepared,
        })
    }

    /// Indexes a new envelope's references right after it is stored (most documents have
    /// none, and then nothing is written).
    async fn index_related(
        &self,
        ws: Scope,
        entry: &Entry,
        refs: &BTreeMap<Uuid, String>,
    ) -> SiloResult<()> {
        if refs.is_empty() {
            return Ok(());
        }
        let mut tx = self.store().begin_write().await?;
        let at = folio_store::millis(entry.created_at);
        db::related::replace(&mut tx, ws, entry.id, refs, at).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The envelope with its data and attachments.
    pub async fn get(&self, ws: Scope, id: Uuid) -> SiloResult<Entry> {
        Ok(self
            .find(ws, id)
            .await?
            .ok_or(SiloError::NotFound("envelope"))?
            .0)
    }

    /// The envelope with this key, with its data and attachments.
    pub async fn get_by_key(&self, ws: Scope, key: &str) -> SiloResult<Entry> {
        let id = db::envelopes::id_by_key(self.store(), ws, key)
            .await?
            .ok_or(SiloError::NotFound("envelope"))?;
        self.get(ws, id).await
    }

    /// The envelope and its creation fingerprint, or `None`.
    async fn find(&self, ws: Scope, id: Uuid) -> SiloResult<Option<(Entry, String)>> {
        let Some((mut entry, fingerprint)) = db::envelopes::get(self.store(), ws, id).await? else {
            return Ok(None);
        };
        self.attach(ws, std::slice::from_mut(&mut entry)).await?;
        Ok(Some((entry, fingerprint)))
    }

    /// Fills in the current files of `entries`.
    pub(crate) async fn attach(&self, ws: Scope, entries: &mut [Entry]) -> SiloResult<()> {
        if entries.is_empty() {
            return Ok(());
        }
        let ids: Vec<Uuid> = entries.iter().map(|e| e.id).collect();
        for (envelope_id, file) in db::files::current_of(self.store(), ws, &ids).await? {
            if let Some(e) = entries.iter_mut().find(|e| e.id == envelope_id) {
                e.attachments.push(file);
            }
        }
        Ok(())
    }

    /// Changes data, folder, tags or meta (`PATCH`). New data makes a new version; a signed
    /// envelope's document cannot change, nor can its signatures be dropped.
    pub async fn update(&self, ws: Scope, id: Uuid, update: EnvelopeUpdate) -> SiloResult<Entry> {
        let current = self.get(ws, id).await?;
        let tags = update.tags.unwrap_or_else(|| current.tags.clone());
        let meta = match update.meta {
            Some(meta) => meta.settle(Some(&current.meta), now()),
            None => current.meta.clone(),
        };
        let folder = match update.folder {
            Some(f) if f.is_empty() => None,
            Some(f) => Some(f),
            None => current.folder.clone(),
        };
        check_labels(None, folder.as_deref(), &tags, &meta)?;
        let prepared = match update.data {
            None => None,
            Some(text) => {
                let (text, parsed) = match update.merge_patch {
                    true => (merged_document(&current, &text)?, None),
                    false => (text, update.parsed),
                };
                let keys = if has_sigs(&text, parsed.as_ref()) {
                    Some(self.keys(ws).await?)
                } else {
                    None
                };
                let keys = keys
                    .as_ref()
                    .map(|k| k.public.as_slice())
                    .unwrap_or_default();
                let input = ingest::Input::read(&text, parsed, self.limits().json_depth)?;
                let prepared = ingest::prepare(input, Some(id), keys, None, update.allow_invalid)?;
                if current.signed
                    && (prepared.envelope.head.dig.val != current.digest || !prepared.signed())
                {
                    return Err(SiloError::Conflict(
                        "the envelope is signed: its document cannot change".into(),
                    ));
                }
                Some(prepared)
            }
        };
        self.save(ws, current, prepared, folder, tags, meta).await
    }

    /// Moves the envelope to a folder (`None` or empty: no folder).
    pub async fn set_folder(
        &self,
        ws: Scope,
        id: Uuid,
        folder: Option<String>,
    ) -> SiloResult<Entry> {
        let update = EnvelopeUpdate {
            folder: Some(folder.unwrap_or_default()),
            ..EnvelopeUpdate::default()
        };
        self.update(ws, id, update).await
    }

    /// Moves the envelope to a folder (`None` or empty: no folder) with one statement in the
    /// caller's transaction `tx` that touches only the folder (and `updated_at`), reading
    /// nothing: for callers that do not need the envelope back (workflow steps, which commit
    /// it with the step's progress).
    pub async fn move_to_folder(
        &self,
        tx: &mut WriteTx,
        ws: Scope,
        id: Uuid,
        folder: Option<String>,
    ) -> SiloResult<()> {
        let folder = folder.filter(|f| !f.is_empty());
        check_labels(None, folder.as_deref(), &[], &Meta::default())?;
        if !db::envelopes::set_folder(tx, ws, id, folder, now()).await? {
            return Err(SiloError::NotFound("envelope"));
        }
        Ok(())
    }

    /// Applies an RFC 7396 merge patch to the document, making a new version with a new digest.
    /// Refused (conflict) when the envelope is signed.
    pub async fn modify(
        &self,
        ws: Scope,
        id: Uuid,
        doc_patch: &serde_json::Value,
    ) -> SiloResult<Entry> {
        let current = self.get(ws, id).await?;
        if current.signed {
            return Err(SiloError::Conflict(
                "the envelope is signed: its document cannot change".into(),
            ));
        }
        let mut env = self.envelope_of(&current)?;
        patch::merge(&mut env.doc, &gobl::json::Value::from(doc_patch));
        match env.doc.get("$schema") {
            Some(gobl::json::Value::String(_)) => {}
            _ => {
                return Err(SiloError::invalid(
                    "patch.$schema",
                    "the document needs a $schema",
                ));
            }
        }
        env.refresh_digest().map_err(SiloError::fault)?;
        let prepared = Prepared {
            id,
            text: env.to_json_string(),
            envelope: env,
            faults: None,
        };
        let (folder, tags, meta) = (
            current.folder.clone(),
            current.tags.clone(),
            current.meta.clone(),
        );
        self.save(ws, current, Some(prepared), folder, tags, meta)
            .await
    }

    /// Signs ("closes") the envelope with the workspace key; a new version. Signing an envelope
    /// the workspace already signed changes nothing.
    pub async fn sign(&self, ws: Scope, id: Uuid) -> SiloResult<Entry> {
        let current = self.get(ws, id).await?;
        let keys = self.keys(ws).await?;
        let text = current.data.clone().unwrap_or_default();
        let prepared = ingest::prepare(
            ingest::Input::parse(&text, usize::MAX)?,
            Some(id),
            &keys.public,
            Some(&keys.signing),
            false,
        )?;
        if prepared.text == text {
            return Ok(current);
        }
        let (folder, tags, meta) = (
            current.folder.clone(),
            current.tags.clone(),
            current.meta.clone(),
        );
        self.save(ws, current, Some(prepared), folder, tags, meta)
            .await
    }

    /// A stored version of the envelope.
    pub async fn version(&self, ws: Scope, id: Uuid, version: &str) -> SiloResult<Version> {
        db::versions::get(self.store(), ws, id, version)
            .await?
            .ok_or(SiloError::NotFound("version"))
    }

    /// The envelope's [`History`] in one statement, for a caller that has read the envelope
    /// already (an envelope that is not there, or not the workspace's, has none: no 404).
    pub async fn history(&self, ws: Scope, id: Uuid) -> SiloResult<History> {
        db::history::of(self.store(), ws, id).await
    }

    /// Every version of the envelope, oldest first.
    pub async fn versions(&self, ws: Scope, id: Uuid) -> SiloResult<Vec<Version>> {
        self.exists(ws, id).await?;
        db::versions::list(self.store(), ws, id).await
    }

    /// The stored envelope of an entry, parsed.
    fn envelope_of(&self, entry: &Entry) -> SiloResult<Envelope> {
        let value = ingest::parse(entry.data.as_deref().unwrap_or_default(), usize::MAX)?;
        Envelope::from_owned(value)
            .map_err(|e| SiloError::Store(StoreError::Corrupt(format!("stored envelope: {e:?}"))))
    }

    /// Writes a change: optionally new data (a new version), and the labels. The row is only
    /// changed if nobody changed it since `current` was read (same version), else conflict.
    async fn save(
        &self,
        ws: Scope,
        current: Entry,
        prepared: Option<Prepared>,
        folder: Option<String>,
        tags: Vec<String>,
        meta: Meta,
    ) -> SiloResult<Entry> {
        let read_version = current.version.clone();
        let mut next = Entry {
            updated_at: now(),
            folder,
            tags,
            meta,
            ..current
        };
        if let Some(p) = &prepared {
            let digest = p.envelope.head.dig.val.clone();
            // Faults describe the document: a rebuilt one brings its own; the same document
            // (e.g. now signed) keeps them; another document that was not built has none.
            next.faults = match &p.faults {
                Some(faults) => faults.clone(),
                None if digest == next.digest => next.faults,
                None => Vec::new(),
            };
            next.version = p.version();
            next.digest = digest;
            next.doc_schema = p.doc_schema();
            next.signed = p.signed();
            next.data = Some(p.text.clone());
        }
        let mut tx = self.store().begin_write().await?;
        if let Some(p) = &prepared {
            db::versions::insert(
                &mut tx,
                ws,
                next.id,
                &next.version,
                next.updated_at,
                &p.text,
            )
            .await?;
            related::index(&mut tx, ws, &next, &p.envelope.doc).await?;
        }
        let summary = prepared
            .as_ref()
            .map(|p| Summary::of(next.key.as_deref(), &p.envelope.doc));
        if !db::envelopes::update(&mut tx, ws, &next, &read_version, summary.as_ref()).await? {
            tx.rollback().await?;
            return Err(SiloError::Conflict(
                "the envelope changed meanwhile; read it again and retry".into(),
            ));
        }
        tx.commit().await?;
        if prepared.is_some() {
            self.index_soon();
        }
        Ok(next)
    }
}

/// A new envelope ready to store ([`Silo::ready`]).
pub(crate) struct Ready {
    /// Its row.
    pub entry: Entry,
    /// What recognises a repeated request.
    pub fingerprint: Fingerprint,
    /// The request's data as sent.
    pub sent: String,
    /// The envelope and its text.
    pub prepared: Prepared,
    /// Its headline facts and search text.
    pub summary: Summary,
    /// The documents it mentions (`related.rs`).
    pub refs: BTreeMap<Uuid, String>,
}

/// Labels are short single-line strings.
fn check_labels(
    key: Option<&str>,
    folder: Option<&str>,
    tags: &[String],
    meta: &Meta,
) -> SiloResult<()> {
    let mut bad = Vec::new();
    let mut check = |path: String, value: &str| {
        if value.len() > 255 || value.chars().any(char::is_control) {
            bad.push(FieldError::new(
                path,
                "must be at most 255 characters, without control characters",
            ));
        }
    };
    if let Some(key) = key {
        if key.is_empty() {
            check("key".into(), "\u{0}");
        }
        check("key".into(), key);
    }
    if let Some(folder) = folder {
        check("folder".into(), folder);
    }
    for (i, tag) in tags.iter().enumerate() {
        check(format!("tags[{i}]"), tag);
    }
    check_meta(meta, &mut bad);
    if bad.is_empty() {
        Ok(())
    } else {
        Err(SiloError::Invalid(bad))
    }
}

/// Meta rows: their labels are short single-line strings, as other labels (a plain row is
/// named `meta.<key>`, as a string map names it; another `meta[<i>]`), a link at most 2048
/// characters, and a source and key name one row.
fn check_meta(meta: &Meta, bad: &mut Vec<FieldError>) {
    const LABEL: &str = "must be at most 255 characters, without control characters";
    let line = |value: &str, max: usize| value.len() <= max && !value.chars().any(char::is_control);
    for (i, row) in meta.rows.iter().enumerate() {
        if row.is_plain() {
            if !line(&row.key, 255) {
                bad.push(FieldError::new(format!("meta.{}", row.key), LABEL));
            }
            continue;
        }
        let labels = [
            ("key", Some(&row.key)),
            ("src", Some(&row.src)),
            ("ref", row.reference.as_ref()),
            ("link_scope", row.link_scope.as_ref()),
        ];
        for (name, value) in labels {
            if value.is_some_and(|v| !line(v, 255)) {
                bad.push(FieldError::new(format!("meta[{i}].{name}"), LABEL));
            }
        }
        if row.link_url.as_deref().is_some_and(|u| !line(u, 2048)) {
            bad.push(FieldError::new(
                format!("meta[{i}].link_url"),
                "must be at most 2048 characters, without control characters",
            ));
        }
        if meta.rows[..i]
            .iter()
            .any(|r| r.src == row.src && r.key == row.key)
        {
            bad.push(FieldError::new(
                format!("meta[{i}]"),
                "repeats the src and key of an earlier row",
            ));
        }
    }
}

/// Whether an envelope's text has signatures to verify: its `sigs` member, or without its
/// parse, any mention of one.
fn has_sigs(text: &str, parsed: Option<&ingest::Parsed>) -> bool {
    match parsed {
        Some(parsed) => parsed.value.get("sigs").is_some(),
        None => text.contains("\"sigs\""),
    }
}

/// The current document with the merge patch `patch` applied (to the document, or to the
/// envelope when the patch has a `doc` member), as JSON text.
fn merged_document(current: &Entry, patch: &str) -> SiloResult<String> {
    let patch = gobl::json::parse(patch).map_err(|e| SiloError::invalid("data", e.to_string()))?;
    let mut doc = current
        .envelope_value()
        .and_then(|env| env.get("doc").cloned())
        .ok_or_else(|| {
            SiloError::Store(StoreError::Corrupt(format!(
                "envelope {} without its document",
                current.id
            )))
        })?;
    patch::merge(&mut doc, patch.get("doc").unwrap_or(&patch));
    Ok(doc.to_json_string())
}
