//! `/silo/v1/entries`: the name Invopop's API now gives envelopes. Every route here is the
//! `envelopes` route of the same meaning over the same stored resources, so an entry written
//! through one path reads back through the other; the bodies are the same types.

use axum::response::Response;
use folio_api::json::{JsonBytes, JsonOrBytes};
use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Path, Query};
use utoipa_axum::router::OpenApiRouter;
use uuid::Uuid;

use super::answer::Answer;
use super::envelopes::{EnvelopeIn, EnvelopeList, EnvelopeOut, EnvelopePatch, ListParams};
use super::files::{FileIn, FileOut};
use super::operations::operations;
use super::states::{StateIn, StateList, StateOut};
use super::versions::VersionOut;
use super::wire::Wire;
use super::{envelopes, files, states, versions};
use crate::Silo;

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W;
        list<W>, create<W>, fetch<W>, put<W>, update<W>, fetch_by_key<W>, version, file,
        put_file<W>, add_file<W>, states_list, state_add, state_at)
}

/// List entries, newest first (as `GET /silo/v1/envelopes`).
#[utoipa::path(get, path = "/silo/v1/entries", operation_id = "silo.v1.entries.list", tag = "silo", params(ListParams),
    responses((status = 200, description = "A page of entries.", body = EnvelopeList)))]
async fn list<W: Wire>(
    caller: Caller,
    silo: Handle<Silo>,
    q: Query<ListParams>,
) -> ApiResult<Json<EnvelopeList<W::Entry>>> {
    envelopes::list::<W>(caller, silo, q).await
}

/// Store an entry under a server-chosen id (as `POST /silo/v1/envelopes`).
#[utoipa::path(post, path = "/silo/v1/entries", operation_id = "silo.v1.entries.create", tag = "silo",
    request_body = EnvelopeIn,
    responses((status = 200, description = "The stored entry.", body = EnvelopeOut)))]
async fn create<W: Wire>(
    caller: Caller,
    silo: Handle<Silo>,
    body: JsonBytes,
) -> ApiResult<Answer<W::Entry>> {
    envelopes::create::<W>(caller, silo, body).await
}

/// Fetch an entry with its data (as `GET /silo/v1/envelopes/{id}`).
#[utoipa::path(get, path = "/silo/v1/entries/{id}", operation_id = "silo.v1.entries.fetch", tag = "silo",
    params(("id" = Uuid, Path, description = "Entry id.")),
    responses((status = 200, description = "The entry.", body = EnvelopeOut)))]
async fn fetch<W: Wire>(
    caller: Caller,
    silo: Handle<Silo>,
    id: Path<Uuid>,
) -> ApiResult<Answer<W::Entry>> {
    envelopes::fetch::<W>(caller, silo, id).await
}

/// Store an entry under a client-chosen id (as `PUT /silo/v1/envelopes/{id}`).
#[utoipa::path(put, path = "/silo/v1/entries/{id}", operation_id = "silo.v1.entries.put", tag = "silo",
    params(("id" = Uuid, Path, description = "Entry id (the GOBL head.uuid).")),
    request_body = EnvelopeIn,
    responses((status = 200, description = "The stored entry.", body = EnvelopeOut)))]
async fn put<W: Wire>(
    caller: Caller,
    silo: Handle<Silo>,
    id: Path<Uuid>,
    body: JsonBytes,
) -> ApiResult<Answer<W::Entry>> {
    envelopes::put::<W>(caller, silo, id, body).await
}

/// Change an entry's data, folder, tags or meta (as `PATCH /silo/v1/envelopes/{id}`).
#[utoipa::path(patch, path = "/silo/v1/entries/{id}", operation_id = "silo.v1.entries.patch", tag = "silo",
    params(("id" = Uuid, Path, description = "Entry id.")),
    request_body = EnvelopePatch,
    responses((status = 200, description = "The updated entry.", body = EnvelopeOut)))]
async fn update<W: Wire>(
    caller: Caller,
    silo: Handle<Silo>,
    id: Path<Uuid>,
    body: JsonBytes,
) -> ApiResult<Answer<W::Entry>> {
    envelopes::update::<W>(caller, silo, id, body).await
}

/// Fetch an entry by its key (as `GET /silo/v1/envelopes/key/{key}`).
#[utoipa::path(get, path = "/silo/v1/entries/key/{key}", operation_id = "silo.v1.entries.fetch_by_key", tag = "silo",
    params(("key" = String, Path, description = "The key given when the entry was stored.")),
    responses((status = 200, description = "The entry.", body = EnvelopeOut)))]
async fn fetch_by_key<W: Wire>(
    caller: Caller,
    silo: Handle<Silo>,
    key: Path<String>,
) -> ApiResult<Answer<W::Entry>> {
    envelopes::fetch_by_key::<W>(caller, silo, key).await
}

/// Fetch a version of an entry (as `GET /silo/v1/envelopes/{id}/versions/{version}`).
#[utoipa::path(get, path = "/silo/v1/entries/{id}/versions/{version}", operation_id = "silo.v1.entries.versions.fetch", tag = "silo",
    params(("id" = Uuid, Path, description = "Entry id."),
           ("version" = String, Path, description = "The `version` of the entry at the time.")),
    responses((status = 200, description = "The version.", body = VersionOut)))]
async fn version(
    caller: Caller,
    silo: Handle<Silo>,
    p: Path<(Uuid, String)>,
) -> ApiResult<Json<VersionOut>> {
    versions::fetch(caller, silo, p).await
}

/// Download a file of an entry (as `GET /silo/v1/envelopes/{id}/files/{file_id}`).
#[utoipa::path(get, path = "/silo/v1/entries/{entry_id}/files/{id}", operation_id = "silo.v1.entries.files.fetch", tag = "silo",
    params(("entry_id" = Uuid, Path, description = "Entry id."),
           ("id" = Uuid, Path, description = "File id.")),
    responses((status = 200, description = "The file's bytes.", content_type = "application/octet-stream", body = Vec<u8>)))]
async fn file(caller: Caller, silo: Handle<Silo>, p: Path<(Uuid, Uuid)>) -> ApiResult<Response> {
    files::download(caller, silo, p).await
}

/// Attach a file to an entry (as `PUT /silo/v1/envelopes/{id}/files/{file_id}`).
#[utoipa::path(put, path = "/silo/v1/entries/{entry_id}/files/{id}", operation_id = "silo.v1.entries.files.put", tag = "silo",
    params(("entry_id" = Uuid, Path, description = "Entry id."),
           ("id" = Uuid, Path, description = "File id.")),
    request_body(content((FileIn = "application/json"), (Vec<u8> = "application/octet-stream"))),
    responses((status = 200, description = "The attached file.", body = FileOut)))]
async fn put_file<W: Wire>(
    caller: Caller,
    silo: Handle<Silo>,
    p: Path<(Uuid, Uuid)>,
    body: JsonOrBytes<FileIn>,
) -> ApiResult<Json<W::File>> {
    files::put::<W>(caller, silo, p, body).await
}

/// Attach a file to an entry under a server-chosen id.
///
/// As `PUT /silo/v1/entries/{entry_id}/files/{id}` with a new id; the content is required
/// (`data`, base64).
#[utoipa::path(post, path = "/silo/v1/entries/{entry_id}/files", operation_id = "silo.v1.entries.files.create", tag = "silo",
    params(("entry_id" = Uuid, Path, description = "Entry id.")),
    request_body = FileIn,
    responses((status = 200, description = "The attached file.", body = FileOut)))]
async fn add_file<W: Wire>(
    caller: Caller,
    silo: Handle<Silo>,
    Path(entry_id): Path<Uuid>,
    body: Json<FileIn>,
) -> ApiResult<Json<W::File>> {
    let body = JsonOrBytes::Json(body.0);
    files::put::<W>(caller, silo, Path((entry_id, Uuid::now_v7())), body).await
}

/// List the states of an entry, oldest first (as `GET /silo/v1/envelopes/{id}/states`).
#[utoipa::path(get, path = "/silo/v1/entries/{entry_id}/states", operation_id = "silo.v1.entries.states.list", tag = "silo",
    params(("entry_id" = Uuid, Path, description = "Entry id.")),
    responses((status = 200, description = "The states.", body = StateList)))]
async fn states_list(
    caller: Caller,
    silo: Handle<Silo>,
    id: Path<Uuid>,
) -> ApiResult<Json<StateList>> {
    states::list(caller, silo, id).await
}

/// Set the state of an entry (as `POST /silo/v1/envelopes/{id}/states`).
#[utoipa::path(post, path = "/silo/v1/entries/{entry_id}/states", operation_id = "silo.v1.entries.states.create", tag = "silo",
    params(("entry_id" = Uuid, Path, description = "Entry id.")),
    request_body = StateIn,
    responses((status = 200, description = "The recorded state.", body = StateOut)))]
async fn state_add(
    caller: Caller,
    silo: Handle<Silo>,
    id: Path<Uuid>,
    body: Json<StateIn>,
) -> ApiResult<Json<StateOut>> {
    states::add(caller, silo, id, body).await
}

/// Record a state of an entry at a given time.
///
/// `at` is when it happened (RFC 3339, e.g. `2026-08-02T00:00:00.000Z`; kept to the
/// millisecond). A state in the past joins the history without replacing a later current
/// state; the same `at` and `key` again answers the recorded state.
#[utoipa::path(put, path = "/silo/v1/entries/{entry_id}/states/{at}", operation_id = "silo.v1.entries.states.put", tag = "silo",
    params(("entry_id" = Uuid, Path, description = "Entry id."),
           ("at" = chrono::DateTime<chrono::Utc>, Path, description = "When the state was reached (RFC 3339 timestamp).")),
    request_body = StateIn,
    responses((status = 200, description = "The recorded state.", body = StateOut)))]
async fn state_at(
    caller: Caller,
    silo: Handle<Silo>,
    Path((id, at)): Path<(Uuid, String)>,
    body: Json<StateIn>,
) -> ApiResult<Json<StateOut>> {
    let at = folio_api::time::parse(&at)
        .ok_or_else(|| ApiError::invalid_field("at", "an RFC 3339 timestamp is required"))?;
    states::add_at(caller, silo, id, at, body).await
}
