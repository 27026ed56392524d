//! A meta row on silo/v2's wire: Invopop's `SiloMeta`, read and written whole.

use folio_api::{ApiError, ApiResult};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::MetaRow;

/// A meta row of an entry (Invopop's `SiloMeta`). Written with `key` (required), `src`, `value`,
/// `ref`, the flags and the link; `id`, `entry_id`, `created_at`, `updated_at` are the server's
/// and ignored when sent back.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SiloMeta {
    /// Compound id, `<entry id>:<src>:<key>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub id: Option<String>,
    /// The entry the row belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub entry_id: Option<String>,
    /// The service or source that wrote the row (absent for a row written through silo/v1's
    /// map of strings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub src: Option<String>,
    /// The row's key within its source (required; a source and key name one row).
    #[schema(min_length = 1)]
    pub key: String,
    /// The row's data, a JSON object (`{}` when absent). A value written through silo/v1 (a
    /// string) reads as `{"value": "…"}`.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub value: Map<String, Value>,
    /// A value the row may be looked up by.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Marked for search (kept and answered; folio's search does not read meta).
    #[serde(default)]
    pub indexed: bool,
    /// Left out of lists, search results and related lists: only the entry fetched by itself
    /// (or as written) shows the row.
    #[serde(default)]
    pub secure: bool,
    /// May be shared with other applications (kept and answered).
    #[serde(default)]
    pub shared: bool,
    /// Indexed by owner (kept and answered).
    #[serde(default)]
    pub owned: bool,
    /// A URL to act on the row or see more of it (at most 2048 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_url: Option<String>,
    /// Where the link may be shown, e.g. `public`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_scope: Option<String>,
    /// When the row was first written (absent for a row written through silo/v1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub created_at: Option<String>,
    /// When the row last changed (absent for a row written through silo/v1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(read_only)]
    pub updated_at: Option<String>,
}

impl SiloMeta {
    /// The wire form of a row of the entry `entry_id`.
    pub fn of(entry_id: Uuid, row: MetaRow) -> SiloMeta {
        let value = match row.value {
            Value::Object(members) => members,
            other => Map::from_iter([("value".to_string(), other)]),
        };
        SiloMeta {
            id: Some(format!("{entry_id}:{}:{}", row.src, row.key)),
            entry_id: Some(entry_id.to_string()),
            src: (!row.src.is_empty()).then_some(row.src),
            key: row.key,
            value,
            reference: row.reference,
            indexed: row.indexed,
            secure: row.secure,
            shared: row.shared,
            owned: row.owned,
            link_url: row.link_url,
            link_scope: row.link_scope,
            created_at: row.created_at.as_ref().map(folio_api::time::format),
            updated_at: row.updated_at.as_ref().map(folio_api::time::format),
        }
    }

    /// The domain row of the `i`th row of a request.
    pub fn into_row(self, i: usize) -> ApiResult<MetaRow> {
        if self.key.is_empty() {
            return Err(ApiError::invalid_field(
                &format!("meta[{i}].key"),
                "required",
            ));
        }
        Ok(MetaRow {
            src: self.src.unwrap_or_default(),
            key: self.key,
            value: Value::Object(self.value),
            reference: self.reference,
            indexed: self.indexed,
            secure: self.secure,
            shared: self.shared,
            owned: self.owned,
            link_url: self.link_url,
            link_scope: self.link_scope,
            created_at: None,
            updated_at: None,
        })
    }
}
