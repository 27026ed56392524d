//! `/silo/v1/envelopes/{id}/files/{file_id}`: attach files (base64 in) and download them (raw
//! bytes out).

use std::collections::BTreeMap;

use axum::http::header;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use folio_api::json::JsonOrBytes;
use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Path};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use uuid::Uuid;

use super::operations::operations;
use super::wire::Wire;
use crate::{FileInfo, NewFile, Silo};

/// Body of a file upload.
#[derive(Debug, Deserialize, ToSchema)]
pub struct FileIn {
    /// File name, e.g. `invoice.pdf` (required).
    #[schema(required = true, value_type = String, min_length = 1, pattern = r"\S")]
    pub name: Option<String>,
    /// The content, base64 (standard alphabet; URL-safe and unpadded are accepted too).
    /// Without it, `sha256` and `size` make the file a placeholder that a later upload of
    /// exactly that content (a `PUT` with `data` to the file's `url`) fills.
    #[schema(value_type = String, format = Byte)]
    pub data: Option<String>,
    /// SHA-256 of the content to upload later, hex (with `size`, when `data` is absent).
    #[schema(min_length = 64, max_length = 64)]
    pub sha256: Option<String>,
    /// Size in bytes of the content to upload later (with `sha256`, when `data` is absent).
    #[schema(minimum = 0)]
    #[serde(default, deserialize_with = "folio_api::json::integral")]
    pub size: Option<i64>,
    /// Media type; guessed from the name when absent.
    #[schema(
        pattern = "^([A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(;[ -~]*)?)?$"
    )]
    pub mime: Option<String>,
    /// Description.
    pub desc: Option<String>,
    /// Key: a later file with the same key and category replaces this one.
    pub key: Option<String>,
    /// Category.
    pub category: Option<String>,
    /// String metadata.
    pub meta: Option<BTreeMap<String, String>>,
}

/// A file attached to an envelope.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct FileOut {
    /// File id.
    pub id: String,
    /// File name.
    pub name: String,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desc: Option<String>,
    /// Key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// SHA-256 of the content, lowercase hex.
    pub hash: String,
    /// Media type.
    pub mime: String,
    /// Size in bytes.
    pub size: i64,
    /// Where to download it (path on this server).
    pub url: String,
    /// String metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<BTreeMap<String, String>>,
    /// When it was attached.
    pub created_at: String,
    /// False for a placeholder whose content is still to be uploaded.
    pub stored: bool,
}

impl FileOut {
    /// The wire form of a file of an envelope, downloaded from under `prefix` (`/silo/v1`).
    pub fn from_file(prefix: &str, envelope_id: Uuid, f: FileInfo) -> FileOut {
        FileOut {
            url: format!("{prefix}/envelopes/{envelope_id}/files/{}", f.id),
            id: f.id.to_string(),
            name: f.name,
            desc: f.desc,
            key: f.key,
            category: f.category,
            hash: f.hash,
            mime: f.mime,
            size: f.size,
            meta: f.meta,
            created_at: folio_api::time::format(&f.created_at),
            stored: f.stored,
        }
    }
}

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W; put<W>, download)
}

/// Base64 as clients write it: either alphabet, padded or not, whitespace and non-zero
/// trailing bits ignored (encoders differ; the bytes meant are the same).
pub(super) fn decode(text: &str) -> Option<Vec<u8>> {
    use base64::alphabet::{STANDARD, URL_SAFE};
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const LENIENT: GeneralPurposeConfig = GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent);
    let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    GeneralPurpose::new(&STANDARD, LENIENT)
        .decode(&compact)
        .ok()
        .or_else(|| {
            GeneralPurpose::new(&URL_SAFE, LENIENT)
                .decode(&compact)
                .ok()
        })
}

/// Attach a file to an envelope.
///
/// With `data` the content is stored now; with `sha256` and `size` instead, the file is a
/// placeholder (`stored` false) that a later `PUT` with `data` of exactly that content fills
/// (422 if its digest or size differs). A `PUT` of the bytes themselves (any `Content-Type` but
/// JSON) fills a placeholder too, as Invopop's clients upload to the file's `url`. The same `file_id` with the same content returns the
/// stored file (409 with other content).
/// A file with the same `key` and `category` as an attached file replaces it; the earlier one
/// stays downloadable by its id.
#[utoipa::path(put, path = "/silo/v1/envelopes/{id}/files/{file_id}", operation_id = "silo.v1.files.put", tag = "silo",
    params(("id" = Uuid, Path, description = "Envelope id."),
           ("file_id" = Uuid, Path, description = "File id.")),
    request_body(content((FileIn = "application/json"), (Vec<u8> = "application/octet-stream"))),
    responses((status = 200, description = "The attached file.", body = FileOut)))]
pub(super) async fn put<W: Wire>(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path((id, file_id)): Path<(Uuid, Uuid)>,
    body: JsonOrBytes<FileIn>,
) -> ApiResult<Json<W::File>> {
    let body = match body {
        JsonOrBytes::Json(body) => body,
        JsonOrBytes::Bytes(bytes) => {
            let file = silo
                .fill_file(caller.scope(), id, file_id, bytes.to_vec())
                .await?;
            return Ok(Json(W::file(id, file)));
        }
    };
    let name = body
        .name
        .filter(|n| !n.trim().is_empty())
        .ok_or_else(|| ApiError::invalid_field("name", "required"))?;
    let new = NewFile {
        name,
        bytes: Vec::new(),
        mime: body.mime,
        desc: body.desc,
        key: body.key.filter(|k| !k.is_empty()),
        category: body.category.filter(|c| !c.is_empty()),
        meta: body.meta,
    };
    let file = match (body.data, body.sha256, body.size) {
        (Some(data), _, _) => {
            let bytes =
                decode(&data).ok_or_else(|| ApiError::invalid_field("data", "not valid base64"))?;
            let new = NewFile { bytes, ..new };
            silo.put_file(caller.scope(), id, file_id, new).await?
        }
        (None, Some(sha256), Some(size)) => {
            silo.put_placeholder(caller.scope(), id, file_id, new, &sha256, size)
                .await?
        }
        (None, _, _) => {
            return Err(ApiError::invalid_field(
                "data",
                "required, unless sha256 and size announce a later upload",
            ));
        }
    };
    Ok(Json(W::file(id, file)))
}

/// Download a file: its bytes, with its media type and name.
#[utoipa::path(get, path = "/silo/v1/envelopes/{id}/files/{file_id}", operation_id = "silo.v1.files.fetch", tag = "silo",
    params(("id" = Uuid, Path, description = "Envelope id."),
           ("file_id" = Uuid, Path, description = "File id.")),
    responses((status = 200, description = "The file's bytes.", content_type = "application/octet-stream", body = Vec<u8>)))]
pub(super) async fn download(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path((id, file_id)): Path<(Uuid, Uuid)>,
) -> ApiResult<Response> {
    let (file, bytes) = silo.get_file(caller.scope(), id, file_id).await?;
    Ok(attachment(&file.name, file.mime, bytes))
}

/// Bytes as a download: their media type, and their name in `Content-Disposition` (quoted
/// safely, with the UTF-8 form beside the ASCII one).
pub(super) fn attachment(name: &str, mime: String, bytes: bytes::Bytes) -> Response {
    let name: String = name
        .chars()
        .map(|c| {
            if c == '"' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let ascii: String = name
        .chars()
        .map(|c| if c.is_ascii() { c } else { '_' })
        .collect();
    let disposition = format!(
        "attachment; filename=\"{ascii}\"; filename*=UTF-8''{}",
        percent(&name)
    );
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response()
}

fn percent(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
