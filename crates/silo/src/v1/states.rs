//! `/silo/v1/envelopes/{id}/states`: the state history of an envelope.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Path};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use uuid::Uuid;

use super::operations::operations;
use super::wire::Wire;
use crate::{NewState, Silo, State};

/// Body of a state change.
#[derive(Debug, Deserialize, ToSchema)]
pub struct StateIn {
    /// `draft`, `processing`, `registered`, `completed`, `sent`, `received`, `error`,
    /// `rejected`, `paid`, `void`, or another short word (required: 1 to 64 characters, no
    /// spaces).
    #[schema(required = true, value_type = String, pattern = r"^[^\t\n\u000b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]{1,64}$")]
    pub key: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// String metadata.
    pub meta: Option<BTreeMap<String, String>>,
}

/// A state of an envelope.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StateOut {
    /// State id.
    pub id: String,
    /// When it was set.
    pub created_at: String,
    /// State key.
    pub key: String,
    /// Notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// String metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<BTreeMap<String, String>>,
    /// What set it (e.g. `transform`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub src: Option<String>,
    /// Id in the source (e.g. a job id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub src_id: Option<String>,
}

impl From<State> for StateOut {
    fn from(s: State) -> Self {
        StateOut {
            id: s.id.to_string(),
            created_at: folio_api::time::format(&s.created_at),
            key: s.key,
            notes: s.notes,
            meta: s.meta,
            src: s.src,
            src_id: s.src_id,
        }
    }
}

/// The states of an envelope, oldest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StateList {
    /// The states.
    pub list: Vec<StateOut>,
}

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W; add, list)
}

/// Set the state of an envelope.
///
/// The new state becomes the envelope's `state`; earlier ones stay in the history.
#[utoipa::path(post, path = "/silo/v1/envelopes/{id}/states", operation_id = "silo.v1.states.create", tag = "silo",
    params(("id" = Uuid, Path, description = "Envelope id.")),
    request_body = StateIn,
    responses((status = 200, description = "The recorded state.", body = StateOut)))]
pub(super) async fn add(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(id): Path<Uuid>,
    Json(body): Json<StateIn>,
) -> ApiResult<Json<StateOut>> {
    let state = silo.set_state(caller.scope(), id, body.into_new()?).await?;
    Ok(Json(state.into()))
}

/// A state reached at `at` (`PUT /silo/v1/entries/{entry_id}/states/{at}`).
pub(super) async fn add_at(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    id: Uuid,
    at: DateTime<Utc>,
    Json(body): Json<StateIn>,
) -> ApiResult<Json<StateOut>> {
    let state = silo
        .set_state_at(caller.scope(), id, at, body.into_new()?)
        .await?;
    Ok(Json(state.into()))
}

impl StateIn {
    fn into_new(self) -> Result<NewState, ApiError> {
        let key = self
            .key
            .ok_or_else(|| ApiError::invalid_field("key", "required"))?;
        Ok(NewState {
            key,
            notes: self.notes,
            meta: self.meta,
            src: None,
            src_id: None,
        })
    }
}

/// List the states of an envelope, oldest first.
#[utoipa::path(get, path = "/silo/v1/envelopes/{id}/states", operation_id = "silo.v1.states.list", tag = "silo",
    params(("id" = Uuid, Path, description = "Envelope id.")),
    responses((status = 200, description = "The states.", body = StateList)))]
pub(super) async fn list(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<StateList>> {
    let states = silo.states(caller.scope(), id).await?;
    Ok(Json(StateList {
        list: states.into_iter().map(StateOut::from).collect(),
    }))
}
