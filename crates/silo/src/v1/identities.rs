//! `/silo/v1/identities`: the PKCS#12 identities the workspace signs documents with. Answers
//! carry the certificate's public details only: never the file, the key or the password.

use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Path};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use uuid::Uuid;

use super::operations::operations;
use super::wire::Wire;
use crate::IdentityInfo;
use crate::Silo;
use crate::identities::{self, NewIdentity};

/// Body of an import. `Debug` hides the file and the password.
#[derive(Deserialize, ToSchema)]
pub struct IdentityIn {
    /// A name for it (1 to 200 characters); the certificate's subject when absent.
    pub name: Option<String>,
    /// The PKCS#12 (`.p12`, `.pfx`) file, base64 (required).
    #[schema(required = true, value_type = String, format = Byte)]
    pub data: Option<String>,
    /// The file's password (required; may be empty).
    #[schema(required = true, value_type = String, format = Password)]
    pub password: Option<String>,
}

impl std::fmt::Debug for IdentityIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdentityIn")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// An identity: its certificate's public details.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct IdentityOut {
    /// Identity id.
    pub id: String,
    /// Name.
    pub name: String,
    /// The certificate's subject (RFC 4514, e.g. `CN=Acme,O=Acme SL,C=ES`).
    pub subject: String,
    /// The certificate's issuer (RFC 4514).
    pub issuer: String,
    /// The certificate's serial number, hex.
    pub serial: String,
    /// Start of the certificate's validity.
    pub not_before: String,
    /// End of the certificate's validity.
    pub not_after: String,
    /// When it was imported.
    pub created_at: String,
}

impl From<IdentityInfo> for IdentityOut {
    fn from(i: IdentityInfo) -> Self {
        IdentityOut {
            id: i.id.to_string(),
            name: i.name,
            subject: i.subject,
            issuer: i.issuer,
            serial: i.serial,
            not_before: folio_api::time::format(&i.not_before),
            not_after: folio_api::time::format(&i.not_after),
            created_at: folio_api::time::format(&i.created_at),
        }
    }
}

/// The workspace's identities, newest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct IdentityList {
    /// The identities.
    pub list: Vec<IdentityOut>,
}

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W; import, list, get, delete)
}

/// Import a signing identity.
///
/// The password must open the file, its certificate must be valid now and its private key
/// (RSA or ECDSA P-256) must be the certificate's; otherwise 422 naming the problem. The file
/// and the password are stored encrypted with the server's key-encryption key and are never
/// answered.
#[utoipa::path(post, path = "/silo/v1/identities", operation_id = "silo.v1.identities.create", tag = "silo",
    request_body = IdentityIn,
    responses((status = 200, description = "The imported identity.", body = IdentityOut)))]
async fn import(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Json(body): Json<IdentityIn>,
) -> ApiResult<Json<IdentityOut>> {
    let data = body
        .data
        .ok_or_else(|| ApiError::invalid_field("data", "required"))?;
    let pkcs12 = STANDARD
        .decode(data.trim())
        .map_err(|_| ApiError::invalid_field("data", "must be base64 (the PKCS#12 file)"))?;
    let password = body
        .password
        .ok_or_else(|| ApiError::invalid_field("password", "required"))?;
    let new = NewIdentity {
        name: body.name,
        pkcs12,
        password,
    };
    let info = identities::import(silo.store(), caller.scope(), new).await?;
    Ok(Json(info.into()))
}

/// List the workspace's signing identities, newest first.
#[utoipa::path(get, path = "/silo/v1/identities", operation_id = "silo.v1.identities.list", tag = "silo",
    responses((status = 200, description = "The identities.", body = IdentityList)))]
async fn list(caller: Caller, Handle(silo): Handle<Silo>) -> ApiResult<Json<IdentityList>> {
    let list = identities::list(silo.store(), caller.scope()).await?;
    Ok(Json(IdentityList {
        list: list.into_iter().map(IdentityOut::from).collect(),
    }))
}

/// Get a signing identity.
#[utoipa::path(get, path = "/silo/v1/identities/{id}", operation_id = "silo.v1.identities.get", tag = "silo",
    params(("id" = Uuid, Path, description = "Identity id.")),
    responses((status = 200, description = "The identity.", body = IdentityOut)))]
async fn get(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<IdentityOut>> {
    let info = identities::get(silo.store(), caller.scope(), id).await?;
    Ok(Json(info.into()))
}

/// Delete a signing identity.
#[utoipa::path(delete, path = "/silo/v1/identities/{id}", operation_id = "silo.v1.identities.delete", tag = "silo",
    params(("id" = Uuid, Path, description = "Identity id.")),
    responses((status = 204, description = "Deleted.")))]
async fn delete(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(id): Path<Uuid>,
) -> ApiResult<StatusCode> {
    identities::delete(silo.store(), caller.scope(), id).await?;
    Ok(StatusCode::NO_CONTENT)
}
