//! apps/pdf/v1: `POST /apps/pdf/v1/preview`, with the body of Invopop's `pdf_v1` (`data`,
//! `locale`, `layout`, `date_format`, `logo_url`, `logo_height`, `hide_promo`) and the PDF as
//! the answer.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use folio_api::{ApiError, ApiResult, Caller, Handle, Json, ServiceVersion};
use folio_silo::Silo;
use folio_transform::Transform;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::logo;

/// The app's service name: served under `/apps/pdf/v<N>/`.
pub const SERVICE: &str = "apps/pdf";

/// apps/pdf/v1 for the registry. Handlers reach silo (to build documents) and transform (its
/// guarded HTTP client and outbound policy) through their handles.
pub fn version() -> ServiceVersion {
    ServiceVersion::new(SERVICE, 1, routes())
}

/// The routes of apps/pdf/v1 with their documented operations.
pub fn routes() -> OpenApiRouter {
    OpenApiRouter::new().routes(routes!(preview))
}

/// Page layouts (Invopop's names).
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
pub enum PreviewLayout {
    /// ISO A4.
    A4,
    /// US Letter.
    Letter,
    /// A German business letter on A4 (DIN 5008 form B: address window, fold marks).
    #[serde(rename = "DIN5008")]
    Din5008,
}

impl From<PreviewLayout> for folio_pdf::Layout {
    fn from(layout: PreviewLayout) -> Self {
        match layout {
            PreviewLayout::A4 => folio_pdf::Layout::A4,
            PreviewLayout::Letter => folio_pdf::Layout::Letter,
            PreviewLayout::Din5008 => folio_pdf::Layout::Din5008,
        }
    }
}

/// The body of a preview (the field names of Invopop's `pdf_v1`).
#[derive(Debug, Deserialize, ToSchema)]
pub struct PreviewIn {
    /// The GOBL envelope to convert, or a bare document (built first).
    #[schema(required = true, value_type = Object)]
    pub data: Option<Value>,
    /// URL of the logo to include in the PDF (http; fetched through the outbound guard, at most
    /// 1 MiB within 5 s; PNG, JPEG or SVG).
    pub logo_url: Option<String>,
    /// Height of the logo in pixels (CSS pixels: 0.75 pt each).
    #[serde(default, deserialize_with = "folio_api::json::integral")]
    #[schema(minimum = 1, maximum = 1000)]
    pub logo_height: Option<i64>,
    /// Language of the labels and style of numbers and dates (e.g. `es`).
    pub locale: Option<String>,
    /// Date format, `strftime` style (e.g. `%Y-%m-%d`).
    pub date_format: Option<String>,
    /// Whether to hide the promotional footer (folio prints none: accepted and ignored).
    pub hide_promo: Option<bool>,
    /// Page layout (default A4).
    pub layout: Option<PreviewLayout>,
}

/// Generate a PDF preview of the provided GOBL document.
///
/// Nothing is stored. A `logo_url` on an address the outbound guard refuses (loopback, private
/// networks, ... unless the operator allows them) is 422 and is not fetched.
#[utoipa::path(post, path = "/apps/pdf/v1/preview", operation_id = "apps.pdf.v1.preview", tag = "pdf",
    request_body = PreviewIn,
    responses((status = 200, description = "The PDF.", content_type = "application/pdf", body = Vec<u8>),
        (status = 422, description = "The document, the options or the logo are not usable.", body = folio_api::ErrorBody)))]
async fn preview(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Handle(transform): Handle<Transform>,
    Json(body): Json<PreviewIn>,
) -> ApiResult<Response> {
    let data = body.data.filter(Value::is_object).ok_or_else(|| {
        ApiError::invalid_field("data", "a GOBL envelope or document is required")
    })?;
    let logo_height = match body.logo_height {
        Some(px) if !(1..=1000).contains(&px) => {
            return Err(ApiError::invalid_field("logo_height", "1 to 1000 pixels"));
        }
        other => other.map(|px| px as f64 * 0.75),
    };
    let mut options = folio_pdf::Options {
        locale: body.locale.filter(|l| !l.is_empty()),
        layout: body.layout.map(Into::into).unwrap_or_default(),
        date_format: body.date_format.filter(|f| !f.is_empty()),
        logo_height,
        ..folio_pdf::Options::default()
    };
    if let Some(url) = body.logo_url.filter(|u| !u.is_empty()) {
        let policy = &transform.config().outbound;
        options.logo = Some(logo::fetch(transform.http(), policy, &url).await?);
    }
    let pdf = super::render(&silo, caller.scope(), data, options).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf"),
            (
                header::CONTENT_DISPOSITION,
                "inline; filename=\"preview.pdf\"",
            ),
        ],
        pdf,
    )
        .into_response())
}
