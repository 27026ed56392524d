//! `GET /silo/v1/search`: free-text search over the workspace's envelopes, with the shape of
//! Invopop's `SiloEntrySearchCollection`.

use folio_api::page::{self, Position};
use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Query};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::envelopes::{EnvelopeOut, listed};
use super::operations::operations;
use super::wire::Wire;
use crate::{SearchQuery, Silo};

/// Query of a search.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchParams {
    /// Words to find in the key, series-code, and the parties' names and tax ids (required).
    #[param(required = true, value_type = String, min_length = 1, pattern = r"\S")]
    q: Option<String>,
    /// Only this folder.
    folder: Option<String>,
    /// Page size (default 20, at most 100).
    #[param(minimum = 1)]
    limit: Option<i64>,
    /// Matches to skip (after `cursor` when given).
    #[param(minimum = 0)]
    offset: Option<i64>,
    /// Continue after this cursor (send `next_cursor` back here).
    #[param(schema_with = page::cursor_schema)]
    cursor: Option<String>,
}

/// A page of matches, newest first.
// `E`: the version's envelope resource (v1's is the default).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[schema(bound = "")]
pub struct SearchList<E = EnvelopeOut> {
    /// The query.
    pub query: String,
    /// The folder searched, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    /// Page size.
    pub limit: i64,
    /// Matches skipped.
    pub offset: i64,
    /// The matching envelopes (without data).
    #[schema(value_type = Vec<EnvelopeOut>)]
    pub list: Vec<E>,
    /// The cursor this page continued from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// Send back as `cursor` for the next page (absent on the last page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = page::cursor_schema)]
    pub next_cursor: Option<String>,
}

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W; search<W>)
}

/// Search the workspace's envelopes.
///
/// Every word must match (PostgreSQL: its text search, `simple` configuration; SQLite: a
/// case-insensitive substring). Never across workspaces. Page by sending `next_cursor` back as
/// `cursor` (or by `offset`).
#[utoipa::path(get, path = "/silo/v1/search", operation_id = "silo.v1.search", tag = "silo", params(SearchParams),
    responses((status = 200, description = "A page of matches.", body = SearchList)))]
async fn search<W: Wire>(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Query(params): Query<SearchParams>,
) -> ApiResult<Json<SearchList<W::Entry>>> {
    let query = params
        .q
        .filter(|q| !q.trim().is_empty())
        .ok_or_else(|| ApiError::invalid_field("q", "required"))?;
    let limit = page::limit(params.limit)?;
    let offset = params.offset.unwrap_or(0);
    if offset < 0 {
        return Err(ApiError::invalid_field("offset", "must be 0 or more"));
    }
    let cursor = params.cursor.filter(|c| !c.is_empty());
    let search = SearchQuery {
        q: query,
        folder: params.folder.filter(|f| !f.is_empty()),
        cursor: Position::param(cursor.as_deref())?,
        limit,
        offset,
    };
    let found = silo.search(caller.scope(), &search).await?;
    Ok(Json(SearchList {
        list: listed::<W>(found.items)?,
        query: search.q,
        folder: search.folder,
        limit,
        offset,
        cursor,
        next_cursor: found.next.map(Position::cursor),
    }))
}
