//! The console's embedded files: the stylesheet, the live job page's script and the icon. They are
//! compiled into the binary; their URLs carry a hash of their content, so browsers may keep
//! them for a year and still get a new one with a new folio. Serving them is `asset_route.rs`'s
//! job: this file stays below the error page, which links the stylesheet and icon.

use std::sync::OnceLock;

use sha2::{Digest, Sha256};

const CSS: &str = include_str!("../assets/console.css");
const JS: &str = include_str!("../assets/job.js");
const ICON: &str = include_str!("../assets/icon.svg");

/// One embedded file: its text, media type and content hash.
pub(crate) struct Asset {
    pub(crate) text: &'static str,
    pub(crate) mime: &'static str,
    pub(crate) hash: String,
}

/// The embedded file of that name, if there is one.
pub(crate) fn asset(name: &str) -> Option<&'static Asset> {
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
