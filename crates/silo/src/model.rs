//! Domain types of the silo, shared by every version of its HTTP layer (and by other services).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::Meta;

/// A stored envelope with its storage metadata.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Equals the GOBL `head.uuid`.
    pub id: Uuid,
    /// When it was stored.
    pub created_at: DateTime<Utc>,
    /// When it last changed (data, folder, tags, meta, state or files).
    pub updated_at: DateTime<Utc>,
    /// Optional key, unique in the workspace.
    pub key: Option<String>,
    /// Optional grouping.
    pub folder: Option<String>,
    /// `$schema` of the envelope.
    pub env_schema: String,
    /// `$schema` of the document.
    pub doc_schema: String,
    /// `head.dig.val` (sha256, lowercase hex).
    pub digest: String,
    /// Whether the envelope carries signatures.
    pub signed: bool,
    /// Latest state key.
    pub state: Option<String>,
    /// Short content id of the current data.
    pub version: String,
    /// Tags.
    pub tags: Vec<String>,
    /// Metadata rows.
    pub meta: Meta,
    /// Current (not replaced) files, oldest first.
    pub attachments: Vec<FileInfo>,
    /// The GOBL envelope as JSON text, exactly as stored; `None` in lists.
    pub data: Option<String>,
    /// What validation found wrong with the document when it was built from a bare document
    /// and stored anyway (`allow_invalid`); empty for valid documents and for full envelopes,
    /// which are not rebuilt.
    pub faults: Vec<gobl::Fault>,
    /// In a related list: where the entry's document mentions the UUID asked about
    /// (`preceding`, `line.item`; several comma-separated).
    pub context: Option<String>,
}

impl Entry {
    /// The entry's place in the lists ordered by `(created_at, id)`.
    pub fn position(&self) -> folio_api::page::Position {
        folio_api::page::Position {
            created_at: self.created_at,
            id: self.id,
        }
    }

    /// The short document type, e.g. `bill/invoice`.
    pub fn typ(&self) -> &str {
        gobl::envelope::short_type(&self.doc_schema)
    }

    /// The envelope as a JSON value (number literals and member order kept), when loaded.
    pub fn envelope_value(&self) -> Option<gobl::json::Value> {
        self.data
            .as_deref()
            .and_then(|text| gobl::json::parse_with_limit(text, usize::MAX).ok())
    }
}

/// What to store: the body of a `PUT`/`POST`.
#[derive(Debug, Clone, Default)]
pub struct NewEnvelope {
    /// Client-chosen id; `None` lets the server choose (the envelope's own `head.uuid`, or a new
    /// UUID v7 for a bare document).
    pub id: Option<Uuid>,
    /// A GOBL envelope or a bare GOBL document, as JSON text.
    pub data: String,
    /// Optional key, unique in the workspace.
    pub key: Option<String>,
    /// Optional folder.
    pub folder: Option<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// Metadata rows (their times are set when stored).
    pub meta: Meta,
    /// Sign the envelope with the workspace key.
    pub sign: bool,
    /// Store a bare document even when validation finds faults (they are recorded on the
    /// entry); without it such a document is refused. Full envelopes are not rebuilt, so it
    /// does not matter for them.
    pub allow_invalid: bool,
}

/// A change to an envelope (`PATCH`); `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct EnvelopeUpdate {
    /// New data (envelope or bare document, as JSON text), or with `merge_patch` an RFC 7396
    /// merge patch of the current document (or of the envelope, when it has a `doc` member),
    /// whose result is built as a bare document is.
    pub data: Option<String>,
    /// `data`'s parse under the silo's depth limit, when the caller has it (a request's body
    /// read once); not used for a merge patch.
    pub parsed: Option<crate::ingest::Parsed>,
    /// `data` is a merge patch (see `data`).
    pub merge_patch: bool,
    /// New folder; `Some("")` clears it.
    pub folder: Option<String>,
    /// New tags.
    pub tags: Option<Vec<String>>,
    /// New metadata: replaces the rows (see [`Meta::settle`]).
    pub meta: Option<Meta>,
    /// Accept new `data` that is a bare document with validation faults (see
    /// [`NewEnvelope::allow_invalid`]).
    pub allow_invalid: bool,
}

/// A file attached to an envelope.
#[derive(Debug, Clone, PartialEq)]
pub struct FileInfo {
    /// File id (unique per envelope).
    pub id: Uuid,
    /// When it was attached.
    pub created_at: DateTime<Utc>,
    /// File name.
    pub name: String,
    /// Description.
    pub desc: Option<String>,
    /// Key: with `category`, a later file of the same key replaces this one.
    pub key: Option<String>,
    /// Category.
    pub category: Option<String>,
    /// SHA-256 of the content, lowercase hex.
    pub hash: String,
    /// Media type.
    pub mime: String,
    /// Size in bytes.
    pub size: i64,
    /// String metadata.
    pub meta: Option<BTreeMap<String, String>>,
    /// Id of the file that replaced this one, if any.
    pub replaced_by: Option<Uuid>,
    /// False for a placeholder whose content is still to be uploaded.
    pub stored: bool,
}

/// A file to attach.
#[derive(Debug, Clone, Default)]
pub struct NewFile {
    /// File name.
    pub name: String,
    /// The content.
    pub bytes: Vec<u8>,
    /// Media type (guessed from the name when absent).
    pub mime: Option<String>,
    /// Description.
    pub desc: Option<String>,
    /// Key.
    pub key: Option<String>,
    /// Category.
    pub category: Option<String>,
    /// String metadata.
    pub meta: Option<BTreeMap<String, String>>,
}

/// A state change of an envelope.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// State id.
    pub id: Uuid,
    /// When it was set.
    pub created_at: DateTime<Utc>,
    /// `draft`, `processing`, `registered`, `completed`, `sent`, `received`, `error`,
    /// `rejected`, `paid`, `void`, or another short word.
    pub key: String,
    /// Notes.
    pub notes: Option<String>,
    /// String metadata.
    pub meta: Option<BTreeMap<String, String>>,
    /// What set it (e.g. `transform`).
    pub src: Option<String>,
    /// Id in the source (e.g. a job id).
    pub src_id: Option<String>,
}

/// A state to set.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewState {
    /// State key.
    pub key: String,
    /// Notes.
    pub notes: Option<String>,
    /// String metadata.
    pub meta: Option<BTreeMap<String, String>>,
    /// What sets it.
    pub src: Option<String>,
    /// Id in the source.
    pub src_id: Option<String>,
}

/// What happened to an envelope, as a page beside the envelope shows it: its states and the
/// versions it has had (their ids and times, not their data), each oldest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// The state history.
    pub states: Vec<State>,
    /// `(version, stored at)` of every version.
    pub versions: Vec<(String, DateTime<Utc>)>,
}

/// One stored content of an envelope.
#[derive(Debug, Clone, PartialEq)]
pub struct Version {
    /// Short content id.
    pub version: String,
    /// When this content was stored.
    pub created_at: DateTime<Utc>,
    /// The envelope JSON text.
    pub data: String,
}

/// What is known of an identity without opening it: its certificate's public details.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityInfo {
    /// Identity id.
    pub id: Uuid,
    /// Name given at import (the certificate's subject when none was).
    pub name: String,
    /// The certificate's subject (RFC 4514).
    pub subject: String,
    /// The certificate's issuer (RFC 4514).
    pub issuer: String,
    /// The certificate's serial number, hex.
    pub serial: String,
    /// Start of the certificate's validity.
    pub not_before: DateTime<Utc>,
    /// End of the certificate's validity.
    pub not_after: DateTime<Utc>,
    /// When it was imported.
    pub created_at: DateTime<Utc>,
}

/// A spooled file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpoolFile {
    /// The key it is fetched by.
    pub key: String,
    /// Its temporary blob.
    pub blob: Uuid,
    /// File name.
    pub name: String,
    /// Media type.
    pub mime: String,
    /// Size in bytes.
    pub size: i64,
    /// SHA-256, lowercase hex.
    pub hash: String,
    /// When it was uploaded.
    pub created_at: DateTime<Utc>,
    /// When it is deleted.
    pub expires_at: DateTime<Utc>,
}
