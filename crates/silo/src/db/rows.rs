//! Reading rows into domain types. A value that does not decode is `StoreError::Corrupt`
//! (answered 500), never the client's fault.

use folio_store::rows::{json, json_opt, uuid, uuid_opt};
use folio_store::{StoreError, from_millis};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::model::{Entry, FileInfo, State, Version};

/// Columns of an envelope row (table alias `e`).
pub const ENTRY_COLUMNS: &str = "e.id, e.created_at, e.updated_at, e.key, e.folder, e.env_schema, \
    e.doc_schema, e.digest, e.signed, e.state, e.version, e.tags, e.meta, e.fingerprint, e.faults";

/// Columns of a file row.
pub const FILE_COLUMNS: &str = "envelope_id, id, created_at, name, descr, key, category, hash, mime, size, meta, replaced_by, \
     stored";

/// Columns of a state row.
pub const STATE_COLUMNS: &str = "id, created_at, key, notes, meta, src, src_id";

/// Serialises tags, meta or faults for a TEXT column.
pub fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

/// An envelope row (without attachments and data) and its fingerprint.
pub fn entry(row: &AnyRow) -> Result<(Entry, String), StoreError> {
    let signed: i64 = row.try_get("signed")?;
    Ok((
        Entry {
            id: uuid(row, "id")?,
            created_at: from_millis(row.try_get("created_at")?),
            updated_at: from_millis(row.try_get("updated_at")?),
            key: row.try_get("key")?,
            folder: row.try_get("folder")?,
            env_schema: row.try_get("env_schema")?,
            doc_schema: row.try_get("doc_schema")?,
            digest: row.try_get("digest")?,
            signed: signed != 0,
            state: row.try_get("state")?,
            version: row.try_get("version")?,
            tags: json::<Vec<String>>(row, "tags")?,
            meta: json::<crate::Meta>(row, "meta")?,
            attachments: Vec::new(),
            data: None,
            faults: json_opt(row, "faults")?.unwrap_or_default(),
            context: None,
        },
        row.try_get("fingerprint")?,
    ))
}

/// A file row and the envelope it belongs to.
pub fn file(row: &AnyRow) -> Result<(Uuid, FileInfo), StoreError> {
    Ok((
        uuid(row, "envelope_id")?,
        FileInfo {
            id: uuid(row, "id")?,
            created_at: from_millis(row.try_get("created_at")?),
            name: row.try_get("name")?,
            desc: row.try_get("descr")?,
            key: row.try_get("key")?,
            category: row.try_get("category")?,
            hash: row.try_get("hash")?,
            mime: row.try_get("mime")?,
            size: row.try_get("size")?,
            meta: json_opt(row, "meta")?,
            replaced_by: uuid_opt(row, "replaced_by")?,
            stored: row.try_get::<i64, _>("stored")? != 0,
        },
    ))
}

/// A state row.
pub fn state(row: &AnyRow) -> Result<State, StoreError> {
    Ok(State {
        id: uuid(row, "id")?,
        created_at: from_millis(row.try_get("created_at")?),
        key: row.try_get("key")?,
        notes: row.try_get("notes")?,
        meta: json_opt(row, "meta")?,
        src: row.try_get("src")?,
        src_id: row.try_get("src_id")?,
    })
}

/// A version row.
pub fn version(row: &AnyRow) -> Result<Version, StoreError> {
    Ok(Version {
        version: row.try_get("version")?,
        created_at: from_millis(row.try_get("created_at")?),
        data: row.try_get("data")?,
    })
}
