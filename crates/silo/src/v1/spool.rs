//! `/silo/v1/spool`: temporary uploads (base64 in, raw bytes out) that a later request or job
//! refers to by key, with the shapes of Invopop's `silo_v1` spool operations.

use axum::http::StatusCode;
use axum::response::Response;
use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Path};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::files::{attachment, decode};
use super::operations::operations;
use super::wire::Wire;
use crate::Silo;

/// Body of a spool upload (Invopop's field names).
#[derive(Debug, Deserialize, ToSchema)]
pub struct SpoolIn {
    /// The content, base64 (required).
    #[schema(required = true, value_type = String, format = Byte)]
    pub data: Option<String>,
    /// File name associated with the data (ends the key; `file` when absent).
    pub name: Option<String>,
    /// Media type of the data; guessed from the name when absent.
    #[serde(rename = "type")]
    #[schema(
        pattern = "^([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(;[ -~]*)?)?$"
    )]
    pub mime: Option<String>,
}

/// A spooled file (Invopop's `SiloUploadTempFileResponse`, with its expiry).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SpoolOut {
    /// Use this key to download the file again later.
    pub key: String,
    /// When the file is deleted.
    pub expires_at: String,
}

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W; upload, download, remove)
}

/// Upload temporary file data to the spool.
///
/// The file is kept for `spool_ttl_seconds` (24 hours by default), then deleted with its
/// bytes. Larger than `spool_bytes` (7 MiB by default) decoded is 413.
#[utoipa::path(post, path = "/silo/v1/spool", operation_id = "silo.v1.spool.create", tag = "silo",
    request_body = SpoolIn,
    responses((status = 200, description = "The key of the spooled file.", body = SpoolOut),
        (status = 413, description = "Larger than the spool limit.", body = folio_api::ErrorBody),
        (status = 422, description = "No data, or not base64.", body = folio_api::ErrorBody)))]
async fn upload(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Json(body): Json<SpoolIn>,
) -> ApiResult<Json<SpoolOut>> {
    let data = body
        .data
        .ok_or_else(|| ApiError::invalid_field("data", "required"))?;
    let bytes = decode(&data).ok_or_else(|| ApiError::invalid_field("data", "not valid base64"))?;
    let file = silo
        .spool_put(caller.scope(), body.name, body.mime, bytes)
        .await?;
    Ok(Json(SpoolOut {
        key: file.key,
        expires_at: folio_api::time::format(&file.expires_at),
    }))
}

/// Download a previously uploaded file from the spool: the bytes as uploaded.
#[utoipa::path(get, path = "/silo/v1/spool/{key}", operation_id = "silo.v1.spool.fetch", tag = "silo",
    params(("key" = String, Path, description = "Key of the file provided during upload.")),
    responses((status = 200, description = "Contains the originally uploaded data, with the `type` it was uploaded with.", content_type = "*/*", body = Vec<u8>)))]
async fn download(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(key): Path<String>,
) -> ApiResult<Response> {
    let (file, bytes) = silo.spool_get(caller.scope(), &key).await?;
    Ok(attachment(&file.name, file.mime, bytes))
}

/// Delete a previously uploaded file from the spool.
#[utoipa::path(delete, path = "/silo/v1/spool/{key}", operation_id = "silo.v1.spool.delete", tag = "silo",
    params(("key" = String, Path, description = "Key of the file provided during upload.")),
    responses((status = 204, description = "No Content.")))]
async fn remove(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(key): Path<String>,
) -> ApiResult<StatusCode> {
    silo.spool_delete(caller.scope(), &key).await?;
    Ok(StatusCode::NO_CONTENT)
}
