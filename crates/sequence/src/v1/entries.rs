//! `/sequence/v1/series/{series_id}/entries`: take a code (`PUT`), fetch and list entries.

use std::collections::BTreeMap;

use folio_api::page::Position;
use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Path, Query, page};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::{EntriesFrom, Entry, NewEntry, Sequence};

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
    /// The older style of `next_cursor` (the last entry's index): pass as `cursor` for the next
    /// page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// Pass as `cursor` for the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = page::cursor_schema)]
    pub next_cursor: Option<String>,
}

/// Query of the entry list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EntryQuery {
    /// Page size (default 20, at most 100).
    #[param(minimum = 1)]
    limit: Option<i64>,
    /// `next_cursor` of the previous page (or, as older clients send it, its `cursor`: an
    /// index).
    #[param(schema_with = cursor_or_index)]
    cursor: Option<String>,
}

/// The `cursor` parameter: a cursor of this API, or an entry index as older clients send it.
fn cursor_or_index() -> utoipa::openapi::Schema {
    use utoipa::openapi::schema::{AnyOfBuilder, ObjectBuilder, Type};
    let index = ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some("^(-?[0-9]{1,18})?$"));
    AnyOfBuilder::new()
        .item(index)
        .item(page::cursor_schema())
        .build()
        .into()
}

impl EntryQuery {
    /// Where the page starts: an index (all digits) or a cursor of this API, else 422.
    fn from(&self) -> ApiResult<EntriesFrom> {
        let Some(cursor) = self.cursor.as_deref().filter(|c| !c.is_empty()) else {
            return Ok(EntriesFrom::First);
        };
        if let Ok(index) = cursor.parse::<i64>() {
            return Ok(EntriesFrom::BelowIndex(index));
        }
        match Position::param(Some(cursor)) {
            Ok(Some(place)) => Ok(EntriesFrom::After(place)),
            _ => Err(ApiError::invalid_field(
                "cursor",
                "not a cursor of this list",
            )),
        }
    }
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
///
/// Page by sending `next_cursor` back as `cursor` (older clients send the `cursor` field, an
/// index, back there: it keeps working).
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
    let page = sequence
        .entries(caller.scope(), series_id, q.from()?, limit)
        .await?;
    let more = page.next.is_some();
    let cursor = more
        .then(|| page.items.last().map(|e| e.index.to_string()))
        .flatten();
    Ok(Json(EntryList {
        list: page.items.into_iter().map(EntryOut::from).collect(),
        limit,
        cursor,
        next_cursor: page.next.map(Position::cursor),
    }))
}
