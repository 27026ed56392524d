//! `/sequence/v1/series`: create (`PUT`), fetch and list series.

use folio_api::{ApiResult, Caller, Handle, Json, Path};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::model::MAX_PADDING;
use crate::{NewSeries, Sequence, Series};

/// The body of `PUT /sequence/v1/series/{id}`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SeriesIn {
    /// The name of the series (required).
    #[schema(required = true, value_type = String, min_length = 1, max_length = 255)]
    pub name: Option<String>,
    /// An internal code for the series; not part of its entries' codes.
    #[schema(max_length = 255)]
    pub code: Option<String>,
    /// A description.
    pub description: Option<String>,
    /// Written before each entry's number, e.g. `INV-`.
    #[schema(max_length = 255)]
    pub prefix: Option<String>,
    /// Written after each entry's number, e.g. `-F1`.
    #[schema(max_length = 255)]
    pub suffix: Option<String>,
    /// Digits of the number, zero-padded (default 0: no padding).
    #[schema(minimum = 0, maximum = 20)]
    #[serde(default, deserialize_with = "folio_api::json::integral")]
    pub padding: Option<i64>,
    /// The first index (default 1).
    #[schema(minimum = 0)]
    #[serde(default, deserialize_with = "folio_api::json::integral")]
    pub start: Option<i64>,
    /// A JSON Web Signature of the series' key properties (accepted, not checked).
    pub sig: Option<String>,
}

/// A series.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeriesOut {
    /// Id.
    pub id: Uuid,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
    /// Name.
    pub name: String,
    /// Internal code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Prefix.
    pub prefix: String,
    /// Suffix.
    pub suffix: String,
    /// Digits of the number.
    pub padding: i64,
    /// The last index handed out (`start - 1` before the first entry).
    pub last_index: i64,
    /// The entry that took the last index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_entry_id: Option<Uuid>,
}

impl From<Series> for SeriesOut {
    fn from(s: Series) -> Self {
        SeriesOut {
            id: s.id,
            created_at: folio_api::time::format(&s.created_at),
            updated_at: folio_api::time::format(&s.updated_at),
            last_index: s.last_index.unwrap_or(s.def.start - 1),
            name: s.def.name,
            code: s.def.code,
            description: s.def.description,
            prefix: s.def.prefix,
            suffix: s.def.suffix,
            padding: s.def.padding,
            last_entry_id: s.last_entry_id,
        }
    }
}

/// The workspace's series.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeriesList {
    /// Oldest first.
    pub list: Vec<SeriesOut>,
}

pub(super) fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .routes(routes!(create, fetch))
        .routes(routes!(list))
}

/// Create a series.
///
/// Idempotent by id (any UUID version): the same body again answers the series; a different
/// body under a taken id is 409.
#[utoipa::path(put, path = "/sequence/v1/series/{id}", operation_id = "sequence.v1.series.put", tag = "sequence",
    params(("id" = Uuid, Path, description = "The series' id, chosen by the client.")),
    request_body = SeriesIn,
    responses((status = 200, description = "The series.", body = SeriesOut),
        (status = 409, description = "A different series exists with this id.", body = folio_api::ErrorBody)))]
async fn create(
    caller: Caller,
    Handle(sequence): Handle<Sequence>,
    Path(id): Path<Uuid>,
    Json(body): Json<SeriesIn>,
) -> ApiResult<Json<SeriesOut>> {
    let new = NewSeries {
        name: body.name.unwrap_or_default(),
        code: body.code.filter(|c| !c.is_empty()),
        description: body.description.filter(|d| !d.is_empty()),
        prefix: body.prefix.unwrap_or_default(),
        suffix: body.suffix.unwrap_or_default(),
        padding: body.padding.unwrap_or(0).min(MAX_PADDING + 1),
        start: body.start.unwrap_or(1),
    };
    let series = sequence.create_series(caller.scope(), id, new).await?;
    Ok(Json(series.into()))
}

/// Fetch a series.
#[utoipa::path(get, path = "/sequence/v1/series/{id}", operation_id = "sequence.v1.series.fetch", tag = "sequence",
    params(("id" = Uuid, Path, description = "Series id.")),
    responses((status = 200, description = "The series.", body = SeriesOut)))]
async fn fetch(
    caller: Caller,
    Handle(sequence): Handle<Sequence>,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<SeriesOut>> {
    Ok(Json(sequence.series(caller.scope(), id).await?.into()))
}

/// List the workspace's series, oldest first.
#[utoipa::path(get, path = "/sequence/v1/series", operation_id = "sequence.v1.series.list", tag = "sequence",
    responses((status = 200, description = "The series.", body = SeriesList)))]
async fn list(caller: Caller, Handle(sequence): Handle<Sequence>) -> ApiResult<Json<SeriesList>> {
    let all = sequence.list_series(caller.scope()).await?;
    Ok(Json(SeriesList {
        list: all.into_iter().map(SeriesOut::from).collect(),
    }))
}
