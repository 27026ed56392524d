//! Fetching a preview's `logo_url`: through the outbound guard (the address is checked before
//! any connection and again for every address a name resolves to), no redirects, within a time
//! and a size limit; the bytes must be a PNG, JPEG or SVG image (checked by the renderer).

use std::time::Duration;

use folio_api::ApiError;
use folio_transform::outbound::{self, Policy};

/// Largest logo read.
pub const MAX_BYTES: usize = 1024 * 1024;
/// Longest a logo fetch may take, connection and body included.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// The logo's bytes; a refused address, a failed fetch, a non-2xx answer, or more than
/// [`MAX_BYTES`] is a 422 naming `logo_url`.
pub async fn fetch(
    client: &reqwest::Client,
    policy: &Policy,
    url: &str,
) -> Result<Vec<u8>, ApiError> {
    let refused = |message: String| ApiError::invalid_field("logo_url", message);
    // A literal private or loopback address (or `localhost`) is refused before any connection.
    policy.check_url(url).map_err(|r| refused(r.to_string()))?;
    match tokio::time::timeout(TIMEOUT, read(client, url)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(Failure::Refused(r))) => Err(refused(r.to_string())),
        Ok(Err(Failure::Other(message))) => Err(refused(message)),
        Err(_) => Err(refused(format!(
            "the logo did not arrive within {} s",
            TIMEOUT.as_secs()
        ))),
    }
}

enum Failure {
    Refused(outbound::Refused),
    Other(String),
}

async fn read(client: &reqwest::Client, url: &str) -> Result<Vec<u8>, Failure> {
    let failed = |e: reqwest::Error| match outbound::refusal(&e) {
        Some(r) => Failure::Refused(r),
        None => Failure::Other(format!("the logo could not be fetched: {e}")),
    };
    let mut response = client.get(url).send().await.map_err(failed)?;
    let status = response.status();
    if !status.is_success() {
        return Err(Failure::Other(format!(
            "the logo's server answered {status} (redirects are not followed)"
        )));
    }
    let too_large = || Failure::Other(format!("the logo is larger than {MAX_BYTES} bytes"));
    if response
        .content_length()
        .is_some_and(|n| n > MAX_BYTES as u64)
    {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(failed)? {
        if bytes.len() + chunk.len() > MAX_BYTES {
            return Err(too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}
