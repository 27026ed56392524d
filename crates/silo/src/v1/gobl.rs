//! `/silo/v1/gobl/build`, `/sign` and `/correct`: GOBL calculated, validated, signed and
//! corrected without storing it, with the shapes of Invopop's `SiloBuildGOBL`, `SiloSignGOBL`,
//! `SiloCorrectGOBL` and `SiloGOBL`.

use folio_api::{ApiError, ApiResult, Caller, Handle, Json};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::operations::operations;
use super::wire::Wire;
use crate::{Correction, Silo};

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

/// The body of `POST /silo/v1/gobl/correct`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CorrectIn {
    /// The GOBL envelope of the invoice to correct (required; a bare document is refused).
    #[schema(value_type = Option<Object>)]
    pub data: Option<Value>,
    /// How to correct it: `type` (`credit-note`, `corrective`, `debit-note`, as the regime
    /// allows), `issue_date`, `series`, `reason`, `ext`, `copy_tax`. Without options the
    /// answer is the options' JSON Schema.
    #[schema(value_type = Option<Object>)]
    pub options: Option<Value>,
    /// Answer the options' JSON Schema even when `options` are given.
    #[serde(default)]
    pub show_options: bool,
}

/// Built GOBL.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct GoblOut {
    /// The envelope, or the document alone.
    #[schema(value_type = Object)]
    pub data: Value,
}

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W; build, sign, correct)
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
    Handle(silo): Handle<Silo>,
    Json(body): Json<BuildIn>,
) -> ApiResult<Json<GoblOut>> {
    let data = required(body.data)?;
    let was_envelope = gobl::builder::is_envelope(&data);
    let envelope = silo
        .build_gobl(caller.scope(), &data.to_string(), false)
        .await?;
    let data = if body.envelop || was_envelope {
        envelope
    } else {
        envelope["doc"].clone()
    };
    Ok(Json(GoblOut { data }))
}

/// Build and sign GOBL without storing it.
///
/// The envelope is signed with the workspace's key (`GET /silo/v1/keys` lists it).
#[utoipa::path(post, path = "/silo/v1/gobl/sign", operation_id = "silo.v1.gobl.sign", tag = "silo",
    request_body = SignIn,
    responses((status = 200, description = "The signed envelope.", body = GoblOut)))]
async fn sign(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Json(body): Json<SignIn>,
) -> ApiResult<Json<GoblOut>> {
    let data = required(body.data)?;
    let envelope = silo
        .build_gobl(caller.scope(), &data.to_string(), true)
        .await?;
    Ok(Json(GoblOut { data: envelope }))
}

/// Correct an invoice, or tell how it may be corrected.
///
/// The invoice becomes the `preceding` document of a new credit note, corrective invoice or
/// debit note (of the types its regime allows); the new envelope is built, not signed and not
/// stored. Without `options` (or with `show_options`) the answer is the JSON Schema of the
/// options this invoice accepts.
#[utoipa::path(post, path = "/silo/v1/gobl/correct", operation_id = "silo.v1.gobl.correct", tag = "silo",
    request_body = CorrectIn,
    responses((status = 200, description = "The corrective envelope, or the options' schema.", body = GoblOut)))]
async fn correct(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Json(body): Json<CorrectIn>,
) -> ApiResult<Json<GoblOut>> {
    let data = required(body.data)?;
    let options = body.options.filter(|o| !o.is_null() && !body.show_options);
    let data = match silo
        .correct_gobl(caller.scope(), &data, options.as_ref())
        .await?
    {
        Correction::Options(schema) => schema,
        Correction::Envelope(envelope) => envelope,
    };
    Ok(Json(GoblOut { data }))
}

fn required(data: Option<Value>) -> Result<Value, ApiError> {
    data.filter(|d| !d.is_null())
        .ok_or_else(|| ApiError::invalid_field("data", "required"))
}
