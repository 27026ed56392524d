//! `/sequence/v1/series/{series_id}/entries`: take a code (`PUT`), fetch and list entries.

use std::collections::BTreeMap;

use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Path, Query, page};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::{Entry, NewEntry, Sequence};

/// The body of `PUT .../entries/{id}`.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct EntryIn {
    /// String metadata kept with the entry.
    pub meta: Option<BTreeMap<String, String>>,
    /// A JSON Web Signature of the entry's key properties (kept in `sigs`, not checked).
    pub sig: Option<String>,
}

/// An entry: one code of a series.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct EntryOut {
    /// Id.
    pub id: Uuid,
    /// The series.
    pub series_id: Uuid,
    /// The code: prefix, zero-padded number, suffix.
    pub code: String,
    /// The entry before this one in the series.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_id: Option<Uuid>,
    /// String metadata.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub meta: BTreeMap<String, String>,
    /// Signatures given with it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sigs: Vec<String>,
    /// Created.
    pub created_at: String,
    /// Last changed (entries do not change: the creation time).
    pub updated_at: String,
}

impl From<Entry> for EntryOut {
    fn from(e: Entry) -> Self {
        let at = folio_api::time::format(&e.created_at);
        EntryOut {
            id: e.id,
            series_id: e.series_id,
            code: e.code,
            previous_id: e.previous_id,
            meta: e.meta,
            sigs: e.sigs,
            created_at: at.clone(),
            updated_at: at,
        }
    }
}

/// A page of entries, newest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct EntryList {
    /// The entries.
    pub list: Vec<EntryOut>,
    /// The page size used.
    pub limit: i64,
    /// Pass as `cursor` for the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// Query of the entry list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EntryQuery {
    /// Page size (default 20, at most 100).
    #[param(minimum = 1)]
    limit: Option<i64>,
    /// `cursor` of the previous page.
    #[param(pattern = "^(-?[0-9]{1,18})?$")]
    cursor: Option<String>,
}

pub(super) fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .routes(routes!(create, fetch))
        .routes(routes!(list))
}

/// Take the next code of a series.
///
/// Idempotent by id: the same id again answers the entry made the first time, with the same
/// code. Codes are consecutive with no gap and no repeat, however many requests run at once.
#[utoipa::path(put, path = "/sequence/v1/series/{series_id}/entries/{id}", operation_id = "sequence.v1.entries.put", tag = "sequence",
    params(("series_id" = Uuid, Path, description = "Series id."),
           ("id" = Uuid, Path, description = "The entry's id, chosen by the client.")),
    request_body = EntryIn,
    responses((status = 200, description = "The entry.", body = EntryOut)))]
async fn create(
    caller: Caller,
    Handle(sequence): Handle<Sequence>,
    Path((series_id, id)): Path<(Uuid, Uuid)>,
    Json(body): Json<EntryIn>,
) -> ApiResult<Json<EntryOut>> {
    let new = NewEntry {
        meta: body.meta.unwrap_or_default(),
        sig: body.sig,
    };
    let entry = sequence
        .create_entry(caller.scope(), series_id, id, new)
        .await?;
    Ok(Json(entry.into()))
}

/// Fetch an entry.
#[utoipa::path(get, path = "/sequence/v1/series/{series_id}/entries/{id}", operation_id = "sequence.v1.entries.fetch", tag = "sequence",
    params(("series_id" = Uuid, Path, description = "Series id."),
           ("id" = Uuid, Path, description = "Entry id.")),
    responses((status = 200, description = "The entry.", body = EntryOut)))]
async fn fetch(
    caller: Caller,
    Handle(sequence): Handle<Sequence>,
    Path((series_id, id)): Path<(Uuid, Uuid)>,
) -> ApiResult<Json<EntryOut>> {
    let entry = sequence.entry(caller.scope(), series_id, id).await?;
    Ok(Json(entry.into()))
}

/// List the entries of a series, newest first.
#[utoipa::path(get, path = "/sequence/v1/series/{series_id}/entries", operation_id = "sequence.v1.entries.list", tag = "sequence",
    params(("series_id" = Uuid, Path, description = "Series id."), EntryQuery),
    responses((status = 200, description = "A page of entries.", body = EntryList)))]
async fn list(
    caller: Caller,
    Handle(sequence): Handle<Sequence>,
    Path(series_id): Path<Uuid>,
    Query(q): Query<EntryQuery>,
) -> ApiResult<Json<EntryList>> {
    let limit = page::limit(q.limit)?;
    let before = match q.cursor.as_deref().filter(|c| !c.is_empty()) {
        None => None,
        Some(c) => Some(
            c.parse::<i64>()
                .map_err(|_| ApiError::invalid_field("cursor", "not a cursor of this list"))?,
        ),
    };
    let entries = sequence
        .entries(caller.scope(), series_id, before, limit)
        .await?;
    let cursor = (entries.len() as i64 == limit)
        .then(|| entries.last().map(|e| e.index.to_string()))
        .flatten();
    Ok(Json(EntryList {
        list: entries.into_iter().map(EntryOut::from).collect(),
        limit,
        cursor,
    }))
}
