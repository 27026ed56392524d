//! Rendering a preview: the document built when it is not an envelope yet, then the PDF,
//! off the async threads (a render takes tens of milliseconds of CPU).

use folio_api::ApiError;
use folio_silo::Silo;
use folio_store::Scope;
use serde_json::Value;

/// The PDF of `data` (an envelope, or a document to build first, whose faults are a 422).
pub async fn render(
    silo: &Silo,
    ws: Scope,
    data: Value,
    options: folio_pdf::Options,
) -> Result<Vec<u8>, ApiError> {
    let envelope = if gobl::builder::is_envelope(&data) {
        data
    } else {
        silo.build_gobl(ws, &data.to_string(), false).await?
    };
    let rendered = tokio::task::spawn_blocking(move || folio_pdf::render(&envelope, &options))
        .await
        .map_err(ApiError::internal)?;
    rendered.map_err(|e| match e {
        folio_pdf::Error::NotInvoice(_) => ApiError::invalid_field("data", e.to_string()),
        folio_pdf::Error::Logo => ApiError::invalid_field("logo_url", e.to_string()),
        other => ApiError::internal(other),
    })
}
