//! `/access/v1/workspace`: the workspace of the token, read (`GET`) and changed (`PATCH`).

use folio_api::{ApiResult, Caller, Handle, Json};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::{Access, Profile, ProfileChange};

/// The workspace of the token (Invopop's `AccessWorkspace`, with `logo_url`).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WorkspaceOut {
    /// Workspace id.
    pub id: Uuid,
    /// Name of the workspace.
    pub name: String,
    /// Unique URL-friendly identifier, once one is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// The country the workspace is based in (ISO 3166-1 alpha-2), once set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Always false: folio has no sandbox; every workspace is live.
    pub sandbox: bool,
    /// URL of the company logo, once set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo_url: Option<String>,
    /// When the workspace was created.
    pub created_at: String,
    /// When it was last changed.
    pub updated_at: String,
}

impl From<Profile> for WorkspaceOut {
    fn from(p: Profile) -> Self {
        WorkspaceOut {
            id: p.id,
            name: p.name,
            slug: p.slug,
            country: p.country,
            sandbox: false,
            logo_url: p.logo_url,
            created_at: folio_api::time::format(&p.created_at),
            updated_at: folio_api::time::format(&p.updated_at),
        }
    }
}

/// The body of `PATCH /access/v1/workspace` (Invopop's `AccessUpdateWorkspace`, with
/// `country`). Absent fields stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
pub struct WorkspacePatch {
    /// New name (unique on this server), without control characters or leading or trailing
    /// white space.
    #[schema(
        min_length = 1,
        max_length = 255,
        pattern = r"^[^\s\x00-\x1f\x7f-\x9f]([^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f])?$"
    )]
    pub name: Option<String>,
    /// New slug: 2 to 64 lowercase letters, digits, `-` or `_`; unique on this server.
    #[schema(
        min_length = 2,
        max_length = 64,
        pattern = "^[a-z0-9][a-z0-9_-]*[a-z0-9]$"
    )]
    pub slug: Option<String>,
    /// URL of the company logo (http or https); empty clears it.
    #[schema(
        max_length = 2048,
        pattern = "^(https?://[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*(:[0-9]{1,4})?(/[!-~]*)?)?$"
    )]
    pub logo_url: Option<String>,
    /// The country the workspace is based in (ISO 3166-1 alpha-2); empty clears it.
    #[schema(max_length = 2, pattern = "^([A-Za-z]{2})?$")]
    pub country: Option<String>,
}

pub(super) fn routes() -> OpenApiRouter {
    OpenApiRouter::new().routes(routes!(fetch, update))
}

/// Fetch the workspace of the token.
#[utoipa::path(get, path = "/access/v1/workspace", operation_id = "access.v1.workspace.fetch", tag = "access",
    responses((status = 200, description = "The workspace.", body = WorkspaceOut)))]
async fn fetch(caller: Caller, Handle(access): Handle<Access>) -> ApiResult<Json<WorkspaceOut>> {
    Ok(Json(access.workspace(caller.scope()).await?.into()))
}

/// Update the workspace of the token.
///
/// Only the fields given change. A slug or name another workspace has is 409 (naming the
/// field); malformed values are 422, every one named.
#[utoipa::path(patch, path = "/access/v1/workspace", operation_id = "access.v1.workspace.patch", tag = "access",
    request_body = WorkspacePatch,
    responses((status = 200, description = "The updated workspace.", body = WorkspaceOut),
        (status = 409, description = "Another workspace has this slug or name.", body = folio_api::ErrorBody),
        (status = 422, description = "A field is malformed.", body = folio_api::ErrorBody)))]
async fn update(
    caller: Caller,
    Handle(access): Handle<Access>,
    Json(body): Json<WorkspacePatch>,
) -> ApiResult<Json<WorkspaceOut>> {
    let change = ProfileChange {
        name: body.name,
        slug: body.slug,
        logo_url: body.logo_url,
        country: body.country,
    };
    Ok(Json(
        access
            .update_workspace(caller.scope(), change)
            .await?
            .into(),
    ))
}
