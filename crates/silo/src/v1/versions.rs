//! `/silo/v1/envelopes/{id}/versions`: earlier contents of an envelope.

use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Path};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use uuid::Uuid;

use super::operations::operations;
use super::wire::Wire;
use crate::Silo;

/// One version of an envelope.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct VersionOut {
    /// Short content id.
    pub version: String,
    /// The GOBL envelope of that version, exactly as stored.
    #[schema(value_type = Object)]
    pub data: Box<RawValue>,
}

/// A version without its data.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct VersionSummary {
    /// Short content id.
    pub version: String,
    /// When it was stored.
    pub created_at: String,
}

/// The versions of an envelope, oldest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct VersionList {
    /// The versions.
    pub list: Vec<VersionSummary>,
}

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W; fetch, list)
}

/// Fetch one version of an envelope.
#[utoipa::path(get, path = "/silo/v1/envelopes/{id}/versions/{version}", operation_id = "silo.v1.versions.fetch", tag = "silo",
    params(("id" = Uuid, Path, description = "Envelope id."),
           ("version" = String, Path, description = "The `version` of the envelope at the time.")),
    responses((status = 200, description = "The version.", body = VersionOut)))]
pub(super) async fn fetch(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path((id, version)): Path<(Uuid, String)>,
) -> ApiResult<Json<VersionOut>> {
    let v = silo.version(caller.scope(), id, &version).await?;
    Ok(Json(VersionOut {
        version: v.version,
        data: RawValue::from_string(v.data).map_err(ApiError::internal)?,
    }))
}

/// List the versions of an envelope, oldest first.
#[utoipa::path(get, path = "/silo/v1/envelopes/{id}/versions", operation_id = "silo.v1.versions.list", tag = "silo",
    params(("id" = Uuid, Path, description = "Envelope id.")),
    responses((status = 200, description = "The versions.", body = VersionList)))]
pub(super) async fn list(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<VersionList>> {
    let versions = silo.versions(caller.scope(), id).await?;
    Ok(Json(VersionList {
        list: versions
            .into_iter()
            .map(|v| VersionSummary {
                version: v.version,
                created_at: folio_api::time::format(&v.created_at),
            })
            .collect(),
    }))
}
