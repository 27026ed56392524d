//! `/silo/v1/gobl/build` and `/silo/v1/gobl/sign`: GOBL calculated, validated and signed
//! without storing it, with the shapes of Invopop's `SiloBuildGOBL`, `SiloSignGOBL` and
//! `SiloGOBL`.

use axum::{Extension, Json as Out};
use folio_api::{ApiError, ApiResult, Caller, Json};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::Silo;

/// The body of `POST /silo/v1/gobl/build`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct BuildIn {
    /// A GOBL envelope or document to calculate and validate (required).
    #[schema(required = true, value_type = Object)]
    pub data: Option<Value>,
    /// Answer the whole envelope, not only the document (always so for an envelope).
    #[serde(default)]
    pub envelop: bool,
}

/// The body of `POST /silo/v1/gobl/sign`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SignIn {
    /// A GOBL envelope or document to calculate, validate and sign (required).
    #[schema(required = true, value_type = Object)]
    pub data: Option<Value>,
}

/// Built GOBL.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GoblOut {
    /// The envelope, or the document alone.
    #[schema(value_type = Object)]
    pub data: Value,
}

pub(super) fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .routes(routes!(build))
        .routes(routes!(sign))
}

/// Build GOBL without storing it.
///
/// Normalises, calculates and validates a bare document (a full envelope's digest is checked);
/// faults are 422 with `faults`, as on `PUT /silo/v1/envelopes/{id}`.
#[utoipa::path(post, path = "/silo/v1/gobl/build", operation_id = "silo.v1.gobl.build", tag = "silo",
    request_body = BuildIn,
    responses((status = 200, description = "The built document or envelope.", body = GoblOut)))]
async fn build(
    caller: Caller,
    Extension(silo): Extension<Silo>,
    Json(body): Json<BuildIn>,
) -> ApiResult<Out<GoblOut>> {
    let data = required(body.data)?;
    let was_envelope = gobl::builder::is_envelope(&data);
    let envelope = silo
        .build_gobl(caller.workspace_id, &data.to_string(), false)
        .await?;
    let data = if body.envelop || was_envelope {
        envelope
    } else {
        envelope["doc"].clone()
    };
    Ok(Out(GoblOut { data }))
}

/// Build and sign GOBL without storing it.
///
/// The envelope is signed with the workspace's key (`GET /silo/v1/keys` lists it).
#[utoipa::path(post, path = "/silo/v1/gobl/sign", operation_id = "silo.v1.gobl.sign", tag = "silo",
    request_body = SignIn,
    responses((status = 200, description = "The signed envelope.", body = GoblOut)))]
async fn sign(
    caller: Caller,
    Extension(silo): Extension<Silo>,
    Json(body): Json<SignIn>,
) -> ApiResult<Out<GoblOut>> {
    let data = required(body.data)?;
    let envelope = silo
        .build_gobl(caller.workspace_id, &data.to_string(), true)
        .await?;
    Ok(Out(GoblOut { data: envelope }))
}

fn required(data: Option<Value>) -> Result<Value, ApiError> {
    data.filter(|d| !d.is_null())
        .ok_or_else(|| ApiError::invalid_field("data", "required"))
}
