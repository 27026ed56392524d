//! `GET /utils/v1/ping`: how clients test their connection and credentials.

use folio_api::{ApiResult, Caller, Json};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

/// The answer to a ping.
#[derive(Debug, Serialize, ToSchema)]
pub struct Pong {
    /// Always `pong`.
    pub ping: &'static str,
}

pub(super) fn routes() -> OpenApiRouter {
    OpenApiRouter::new().routes(routes!(ping))
}

/// Test the connection and the token.
///
/// Answers `{"ping": "pong"}` when the bearer token is valid.
#[utoipa::path(get, path = "/utils/v1/ping", operation_id = "utils.v1.ping.get", tag = "utils",
    responses((status = 200, description = "The token is valid.", body = Pong)))]
async fn ping(_caller: Caller) -> ApiResult<Json<Pong>> {
    Ok(Json(Pong { ping: "pong" }))
}
