//! `GET /utils/v1/services`: discovery of every service, its versions and their status.

use std::sync::Arc;

use folio_api::registry::Catalog;
use folio_api::{ApiResult, Caller, Handle, Json};
use utoipa_axum::{router::OpenApiRouter, routes};

pub(super) fn routes() -> OpenApiRouter {
    OpenApiRouter::new().routes(routes!(services))
}

/// List services and versions.
///
/// Every service with its versions, each with its status (`stable`, `deprecated` with dates and
/// successor, or `sunset`) and the path of its OpenAPI document.
#[utoipa::path(get, path = "/utils/v1/services", operation_id = "utils.v1.services.list", tag = "utils",
    responses((status = 200, description = "The discovery document.", body = Catalog)))]
async fn services(
    _caller: Caller,
    Handle(catalog): Handle<Arc<Catalog>>,
) -> ApiResult<Json<Catalog>> {
    Ok(Json(catalog.as_of_now()))
}
