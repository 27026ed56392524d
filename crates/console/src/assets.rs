//! The console's embedded files: the stylesheet, the live job page's script and the icon. They are
//! compiled into the binary; their URLs carry a hash of their content, so browsers may keep
//! them for a year and still get a new one with a new folio.

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::error::Failure;

const CSS: &str = include_str!("../assets/console.css");
const JS: &str = include_str!("../assets/job.js");
const ICON: &str = include_str!("../assets/icon.svg");

/// One embedded file: its text, media type and content hash.
struct Asset {
    text: &'static str,
    mime: &'static str,
    hash: String,
}

fn asset(name: &str) -> Option<&'static Asset> {
    static CSS_ASSET: OnceLock<Asset> = OnceLock::new();
    static JS_ASSET: OnceLock<Asset> = OnceLock::new();
    static ICON_ASSET: OnceLock<Asset> = OnceLock::new();
    let (cell, text, mime) = match name {
        "console.css" => (&CSS_ASSET, CSS, "text/css; charset=utf-8"),
        "job.js" => (&JS_ASSET, JS, "text/javascript; charset=utf-8"),
        "icon.svg" => (&ICON_ASSET, ICON, "image/svg+xml"),
        _ => return None,
    };
    Some(cell.get_or_init(|| Asset {
        text,
        mime,
        hash: hex::encode(&Sha256::digest(text.as_bytes())[..8]),
    }))
}

/// The stylesheet's URL.
pub fn css_href() -> String {
    href("console.css")
}

/// The icon's URL.
pub fn icon_href() -> String {
    href("icon.svg")
}

/// The job script's URL.
pub fn js_href() -> String {
    href("job.js")
}

fn href(name: &str) -> String {
    let hash = asset(name).map(|a| a.hash.as_str()).unwrap_or_default();
    format!("/console/assets/{name}?v={hash}")
}

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
