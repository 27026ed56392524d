//! `/silo/v1/entries/{id}/related` and `/silo/v1/entries/related?uuid=`: the entries whose
//! document mentions a document, with Invopop's parameters (`uuid`, `context`, `created_at`,
//! `cursor`, `limit`) and its `SiloEntryCollection` answer, each entry with its `context`.

use folio_api::page::{self, Position};
use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Path, Query};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use uuid::Uuid;

use super::envelopes::EnvelopeList;
use super::operations::operations;
use super::wire::Wire;
use crate::{RelatedQuery, Silo};

/// Query of the related lists.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RelatedParams {
    /// The document UUID to find mentions of (each route declares it: required on
    /// `/entries/related`, optional on `/entries/{id}/related`).
    #[param(ignore)]
    uuid: Option<String>,
    /// Only mentions in this place of the document, e.g. `preceding` or `line.item`.
    context: Option<String>,
    /// Entries created at or before this time.
    #[param(schema_with = folio_api::time::query_schema)]
    created_at: Option<String>,
    /// Continue after this cursor (send `next_cursor` back here).
    #[param(schema_with = page::cursor_schema)]
    cursor: Option<String>,
    /// Page size: default 20, at most 100.
    #[param(minimum = 1)]
    limit: Option<i64>,
}

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W; of_entry<W>, of_uuid<W>)
}

/// Find the entries whose document mentions the given entry's UUID (newest first).
#[utoipa::path(get, path = "/silo/v1/entries/{id}/related", operation_id = "silo.v1.entries.related", tag = "silo",
    params(("id" = Uuid, Path, description = "Silo entry ID to find related entries for."),
        ("uuid" = Option<Uuid>, Query, description = "A UUID asked about instead of the entry's own."),
        RelatedParams),
    responses((status = 200, description = "A page of related entries.", body = EnvelopeList)))]
async fn of_entry<W: Wire>(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(id): Path<Uuid>,
    Query(params): Query<RelatedParams>,
) -> ApiResult<Json<EnvelopeList<W::Entry>>> {
    let targets = match parse_uuid(params.uuid.as_deref())? {
        Some(uuid) => {
            silo.exists(caller.scope(), id).await?;
            vec![uuid]
        }
        None => silo.related_targets(caller.scope(), id).await?,
    };
    list::<W>(&silo, caller, targets, params).await
}

/// Find the entries whose document mentions a UUID (newest first).
#[utoipa::path(get, path = "/silo/v1/entries/related", operation_id = "silo.v1.entries.related_by_uuid", tag = "silo",
    params(("uuid" = Uuid, Query, description = "The document UUID to find mentions of."),
        RelatedParams),
    responses((status = 200, description = "A page of related entries.", body = EnvelopeList)))]
async fn of_uuid<W: Wire>(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Query(params): Query<RelatedParams>,
) -> ApiResult<Json<EnvelopeList<W::Entry>>> {
    let uuid = parse_uuid(params.uuid.as_deref())?
        .ok_or_else(|| ApiError::invalid_field("uuid", "required"))?;
    list::<W>(&silo, caller, vec![uuid], params).await
}

fn parse_uuid(text: Option<&str>) -> ApiResult<Option<Uuid>> {
    match text.filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => Uuid::parse_str(t)
            .map(Some)
            .map_err(|_| ApiError::invalid_field("uuid", "not a UUID")),
    }
}

async fn list<W: Wire>(
    silo: &Silo,
    caller: Caller,
    targets: Vec<Uuid>,
    params: RelatedParams,
) -> ApiResult<Json<EnvelopeList<W::Entry>>> {
    let limit = page::limit(params.limit)?;
    let created_at = page::created_at(params.created_at.as_deref())?;
    let cursor = params.cursor.filter(|c| !c.is_empty());
    let query = RelatedQuery {
        targets,
        context: params.context.filter(|c| !c.is_empty()),
        limit,
        created_at,
        cursor: Position::param(cursor.as_deref())?,
    };
    let page = silo.related(caller.scope(), &query).await?;
    EnvelopeList::of::<W>(page, limit, created_at, cursor, None).map(Json)
}
