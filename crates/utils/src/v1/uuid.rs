//! `GET /utils/v1/uuid`: UUIDs of versions 1, 3, 4, 5, 6 and 7.

use folio_api::{ApiError, ApiResult, Caller, Json, Query};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::uuids::{self, UuidError};

/// `v`'s schema: the versions `uuids::generate` offers.
fn offered_versions() -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .enum_values(Some(uuids::OFFERED))
        .build()
}

/// Query of a UUID request.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UuidQuery {
    /// UUID version: 1, 3, 4, 5, 6 or 7 (default 4).
    #[param(schema_with = offered_versions)]
    v: Option<u8>,
    /// Namespace UUID, for versions 3 and 5.
    base: Option<uuid::Uuid>,
    /// Name hashed in the namespace, for versions 3 and 5.
    key: Option<String>,
}

/// A generated UUID.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct UuidOut {
    /// The UUID.
    pub uuid: String,
    /// Its version, as a string (`"4"`).
    pub version: String,
}

pub(super) fn routes() -> OpenApiRouter {
    OpenApiRouter::new().routes(routes!(generate))
}

/// Generate a UUID.
///
/// Versions 3 and 5 need both `base` and `key`; the others take neither.
#[utoipa::path(get, path = "/utils/v1/uuid", operation_id = "utils.v1.uuid.get", tag = "utils", params(UuidQuery),
    responses((status = 200, description = "A new UUID.", body = UuidOut)))]
async fn generate(_caller: Caller, Query(q): Query<UuidQuery>) -> ApiResult<Json<UuidOut>> {
    let version = q.v.unwrap_or(4);
    let name = match (q.base, q.key.as_deref()) {
        (Some(base), Some(key)) => Some((base, key)),
        (None, None) => None,
        (Some(_), None) => return Err(ApiError::invalid_field("key", "required with base")),
        (None, Some(_)) => return Err(ApiError::invalid_field("base", "required with key")),
    };
    let uuid = uuids::generate(version, name).map_err(|err| {
        let field = match err {
            UuidError::UnsupportedVersion(_) => "v",
            UuidError::MissingName(_) => "base",
            UuidError::UnexpectedName => "v",
        };
        ApiError::invalid_field(field, err.to_string())
    })?;
    Ok(Json(UuidOut {
        uuid: uuid.to_string(),
        version: version.to_string(),
    }))
}
