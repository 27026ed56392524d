//! `GET /console/assets/{name}`: answers an embedded file of [`crate::assets`]. Kept apart from
//! the catalogue so the error page (which links the stylesheet) and this handler (which answers
//! with a [`Failure`]) do not import each other.

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::assets::asset;
use crate::error::Failure;

/// `GET /console/assets/{name}`: the file, cacheable for a year, or 304 when the browser has it.
pub async fn serve(Path(name): Path<String>, headers: HeaderMap) -> Result<Response, Failure> {
    let asset = asset(&name).ok_or_else(|| Failure::not_found("asset"))?;
    let etag = format!("\"{}\"", asset.hash);
    let cache = [
        (
            header::CACHE_CONTROL,
            "public, max-age=31536000, immutable".to_string(),
        ),
        (header::ETAG, etag.clone()),
    ];
    let known = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    if known {
        return Ok((StatusCode::NOT_MODIFIED, cache).into_response());
    }
    let mut response = (cache, asset.text).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static(asset.mime),
    );
    Ok(response)
}
