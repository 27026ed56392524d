//! `/silo/v1/envelopes`: store (`PUT`, `POST`), fetch (by id, by key), list and update envelopes.

use std::collections::BTreeMap;

use folio_api::json::JsonBytes;
use folio_api::page::{self, Position};
use folio_api::{ApiError, ApiResult, Caller, Handle, Json, Path, Query};
use folio_store::Scope;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use uuid::Uuid;

use super::answer::Answer;
use super::files::FileOut;
use super::operations::operations;
use super::or_default;
use super::read::{self, Data};
use super::wire::Wire;
use crate::ingest::Parsed;
use crate::{Correction, Entry, EnvelopeUpdate, ListQuery, Meta, NewEnvelope, Silo, SiloError};

/// Body of `PUT`/`POST /silo/v1/envelopes`. Unknown fields (e.g. a whole envelope resource sent
/// back) are ignored.
// `M`: the version's `meta` (v1's, a map of strings, is the default).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(bound = "")]
pub struct EnvelopeIn<M = BTreeMap<String, String>> {
    /// A GOBL envelope (`$schema` `https://gobl.org/draft-0/envelope`) or a bare GOBL document,
    /// which is built as `folio gobl build` builds it (normalised, calculated, validated) and
    /// enveloped. A full envelope is stored as sent (its digest must match). Required unless
    /// `previous_id` is given.
    #[schema(value_type = Object)]
    pub data: Option<Box<RawValue>>,
    /// Without `data`: the entry to make this one from (Invopop's `previous_id`), a copy of its
    /// document under a new UUID, or its correction when `correct` is given.
    pub previous_id: Option<Uuid>,
    /// With `previous_id`: the correction options, as `POST /silo/v1/gobl/correct` takes them
    /// (`type`, `reason`, ...); the new entry is the credit note or corrective document.
    #[schema(value_type = Option<Object>)]
    pub correct: Option<serde_json::Value>,
    /// Optional key, unique in the workspace.
    pub key: Option<String>,
    /// Optional folder.
    pub folder: Option<String>,
    /// Tags.
    pub tags: Option<Vec<String>>,
    /// String metadata.
    #[schema(value_type = Option<BTreeMap<String, String>>)]
    pub meta: Option<M>,
    /// Sign the envelope with the workspace's key (see `GET /silo/v1/keys`).
    pub sign: Option<bool>,
    /// Store a bare document even when validation finds faults; they are recorded as the
    /// resource's `faults`. Without it such a document is refused (422 with `faults`) and
    /// nothing is stored. A document that cannot be calculated is always refused. Full
    /// envelopes are not rebuilt, so it does not matter for them.
    pub allow_invalid: Option<bool>,
}

/// Body of `PATCH /silo/v1/envelopes/{id}`: absent or `null` fields are left as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(bound = "")]
pub struct EnvelopePatch<M = BTreeMap<String, String>> {
    /// New data (envelope or bare document); a new version. Refused (409) when the envelope is
    /// signed and the document would change.
    #[schema(value_type = Option<Object>)]
    pub data: Option<Box<RawValue>>,
    /// New folder; `""` removes it.
    pub folder: Option<String>,
    /// New tags.
    pub tags: Option<Vec<String>>,
    /// New metadata.
    #[schema(value_type = Option<BTreeMap<String, String>>)]
    pub meta: Option<M>,
    /// Accept new `data` that is a bare document with validation faults (as on `PUT`).
    pub allow_invalid: Option<bool>,
    /// How `data` is read (Invopop's names): `application/json` (the default), a whole
    /// envelope or document; `application/merge-patch+json`, an RFC 7396 merge patch of the
    /// stored document (or of the envelope, when it has a `doc` member), which is then built as
    /// a bare document is. `application/json-patch+json` is not supported (422).
    pub content_type: Option<String>,
    /// Sign the envelope with the workspace's key after the change (see `POST .../sign`).
    pub sign: Option<bool>,
}

/// A digest.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DigestOut {
    /// Always `sha256`.
    pub alg: String,
    /// Lowercase hex.
    pub val: String,
}

/// An envelope resource.
// `M` and `F`: the version's `meta` and files (v1's are the defaults).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[schema(bound = "")]
pub struct EnvelopeOut<M = BTreeMap<String, String>, F = FileOut> {
    /// Equals the envelope's `head.uuid`.
    pub id: String,
    /// When it was stored.
    pub created_at: String,
    /// When it last changed.
    pub updated_at: String,
    /// Optional key, unique in the workspace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Optional folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    /// `$schema` of the envelope.
    pub env_schema: String,
    /// `$schema` of the document.
    pub doc_schema: String,
    /// Short document type, e.g. `bill/invoice`.
    pub typ: String,
    /// The envelope's `head.dig`.
    pub digest: DigestOut,
    /// Whether the envelope carries signatures.
    pub signed: bool,
    /// Latest state key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Short content id of the current data.
    pub version: String,
    /// Tags.
    pub tags: Vec<String>,
    /// String metadata.
    #[schema(value_type = BTreeMap<String, String>)]
    pub meta: M,
    /// Files attached to the envelope.
    #[schema(value_type = Vec<FileOut>)]
    pub attachments: Vec<F>,
    /// The full GOBL envelope, exactly as stored; only when fetched by id or key.
    // Always `None` here: a single entry's answer writes the stored text in itself
    // (`answer.rs`), and lists carry none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub data: Option<Box<RawValue>>,
    /// What validation found wrong with the document, when it was stored despite faults
    /// (`allow_invalid`); absent when there are none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faults: Option<Vec<folio_api::Fault>>,
    /// In a related list: where this entry's document mentions the UUID asked about
    /// (`preceding`, `line.item`; several comma-separated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

impl<M, F> EnvelopeOut<M, F> {
    /// The wire form of an entry, with the version's files and its `meta` of the entry's,
    /// without its `data` (see `answer.rs`).
    pub fn of<W: Wire<File = F>, G>(entry: Entry, meta: G) -> ApiResult<Self>
    where
        G: FnOnce(Uuid, Meta) -> M,
    {
        let typ = entry.typ().to_owned();
        let faults = (!entry.faults.is_empty()).then_some(entry.faults);
        Ok(EnvelopeOut {
            attachments: entry
                .attachments
                .into_iter()
                .map(|f| W::file(entry.id, f))
                .collect(),
            meta: meta(entry.id, entry.meta),
            id: entry.id.to_string(),
            created_at: folio_api::time::format(&entry.created_at),
            updated_at: folio_api::time::format(&entry.updated_at),
            key: entry.key,
            folder: entry.folder,
            env_schema: entry.env_schema,
            doc_schema: entry.doc_schema,
            typ,
            digest: DigestOut {
                alg: "sha256".into(),
                val: entry.digest,
            },
            signed: entry.signed,
            state: entry.state,
            version: entry.version,
            tags: entry.tags,
            data: None,
            faults,
            context: entry.context,
        })
    }
}

/// A page of envelopes.
// `E`: the version's envelope resource (v1's is the default).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[schema(bound = "")]
pub struct EnvelopeList<E = EnvelopeOut> {
    /// The envelopes, without `data`.
    #[schema(value_type = Vec<EnvelopeOut>)]
    pub list: Vec<E>,
    /// Page size used.
    pub limit: i64,
    /// The `created_at` this page started from (the request's, else the time of the request).
    pub created_at: String,
    /// Send back as `created_at` for the next page (absent on the last page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_created_at: Option<String>,
    /// The cursor this page started from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// Send back as `cursor` for the next page (absent on the last page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = page::cursor_schema)]
    pub next_cursor: Option<String>,
    /// The folder filter, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
}

/// Query of `GET /silo/v1/envelopes`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Page size: default 20, at most 100.
    #[param(minimum = 1)]
    limit: Option<i64>,
    /// Start at this time, inclusive (older clients send `next_created_at` back here).
    #[param(schema_with = folio_api::time::query_schema)]
    created_at: Option<String>,
    /// Continue after this cursor (send `next_cursor` back here); wins over `created_at`.
    #[param(schema_with = page::cursor_schema)]
    cursor: Option<String>,
    /// Only envelopes in this folder.
    folder: Option<String>,
    /// Oldest first (default: newest first).
    ascending: Option<bool>,
}

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W; list<W>, create<W>, put<W>, fetch<W>, update<W>, fetch_by_key<W>)
}

/// The envelope a `PUT` or `POST` asks for (read by [`read::with_data`]), and the parse of
/// its `data` when the reading has it.
async fn new_envelope<W: Wire>(
    silo: &Silo,
    ws: Scope,
    id: Option<Uuid>,
    (body, data): (EnvelopeIn<W::MetaIn>, Option<Data>),
) -> ApiResult<(NewEnvelope, Option<Parsed>)> {
    let (data, parsed) = match (data, body.previous_id) {
        (Some(data), _) => (data.text, data.parsed),
        (None, Some(previous)) => (from_previous(silo, ws, previous, body.correct).await?, None),
        (None, None) => return Err(ApiError::invalid_field("data", "required")),
    };
    let new = NewEnvelope {
        id,
        data,
        key: body.key.filter(|k| !k.is_empty()),
        folder: body.folder.filter(|f| !f.is_empty()),
        tags: or_default(body.tags),
        meta: W::meta(or_default(body.meta))?,
        sign: body.sign.unwrap_or(false),
        allow_invalid: body.allow_invalid.unwrap_or(false),
    };
    Ok((new, parsed))
}

/// The document of an entry made from the entry `previous`: its correction when `correct`
/// gives the options, else a copy; under a new UUID either way.
async fn from_previous(
    silo: &Silo,
    ws: Scope,
    previous: Uuid,
    correct: Option<serde_json::Value>,
) -> ApiResult<String> {
    let entry = silo.get(ws, previous).await.map_err(|e| match e {
        SiloError::NotFound(_) => ApiError::invalid_field("previous_id", "no such entry"),
        e => e.into(),
    })?;
    let envelope: serde_json::Value =
        serde_json::from_str(entry.data.as_deref().unwrap_or_default())
            .map_err(ApiError::internal)?;
    let mut doc = match correct {
        None => envelope["doc"].clone(),
        Some(options) => match silo.correct_gobl(ws, &envelope, Some(&options)).await? {
            Correction::Envelope(corrected) => corrected["doc"].clone(),
            Correction::Options(_) => return Err(ApiError::internal("correction without options")),
        },
    };
    if let Some(doc) = doc.as_object_mut() {
        doc.shift_remove("uuid");
    }
    Ok(doc.to_string())
}

/// Store an envelope under a client-chosen id.
///
/// `data` is a GOBL envelope (its digest must match its document and `head.uuid` must equal
/// `{id}`) or a bare GOBL document, which is built (normalised, calculated, validated) and
/// enveloped under `{id}`. A bare document with validation faults is 422 with `faults`, unless
/// `allow_invalid` is true: then it is stored and the faults are recorded on the resource.
/// Repeating the same request returns the stored envelope; the same id with other content, or a
/// used `key`, is 409.
#[utoipa::path(put, path = "/silo/v1/envelopes/{id}", operation_id = "silo.v1.envelopes.put", tag = "silo",
    params(("id" = Uuid, Path, description = "Envelope id (the GOBL head.uuid).")),
    request_body = EnvelopeIn,
    responses((status = 200, description = "The stored envelope.", body = EnvelopeOut)))]
pub(super) async fn put<W: Wire>(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(id): Path<Uuid>,
    JsonBytes(body): JsonBytes,
) -> ApiResult<Answer<W::Entry>> {
    store::<W>(&silo, caller.scope(), Some(id), &body).await
}

/// Store an envelope under a server-chosen id.
///
/// A bare document gets a new time-based UUID (v7); a full envelope keeps its `head.uuid`.
#[utoipa::path(post, path = "/silo/v1/envelopes", operation_id = "silo.v1.envelopes.create", tag = "silo",
    request_body = EnvelopeIn,
    responses((status = 200, description = "The stored envelope.", body = EnvelopeOut)))]
pub(super) async fn create<W: Wire>(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    JsonBytes(body): JsonBytes,
) -> ApiResult<Answer<W::Entry>> {
    store::<W>(&silo, caller.scope(), None, &body).await
}

/// A `PUT` (`id` given) or `POST` of an envelope: its body read, the envelope stored, the
/// entry answered.
async fn store<W: Wire>(
    silo: &Silo,
    ws: Scope,
    id: Option<Uuid>,
    body: &[u8],
) -> ApiResult<Answer<W::Entry>> {
    let body = read::with_data(body, silo.limits().json_depth)?;
    let sent = body.1.as_ref().map(|data| data.text.clone());
    let (new, parsed) = new_envelope::<W>(silo, ws, id, body).await?;
    let entry = silo.create_parsed(ws, new, parsed).await?;
    Answer::of::<W>(entry, sent.as_deref())
}

/// Fetch an envelope with its data.
#[utoipa::path(get, path = "/silo/v1/envelopes/{id}", operation_id = "silo.v1.envelopes.fetch", tag = "silo",
    params(("id" = Uuid, Path, description = "Envelope id.")),
    responses((status = 200, description = "The envelope.", body = EnvelopeOut)))]
pub(super) async fn fetch<W: Wire>(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(id): Path<Uuid>,
) -> ApiResult<Answer<W::Entry>> {
    Answer::of::<W>(silo.get(caller.scope(), id).await?, None)
}

/// Fetch an envelope by its key, with its data.
#[utoipa::path(get, path = "/silo/v1/envelopes/key/{key}", operation_id = "silo.v1.envelopes.fetch_by_key", tag = "silo",
    params(("key" = String, Path, description = "The key given when the envelope was stored.")),
    responses((status = 200, description = "The envelope.", body = EnvelopeOut)))]
pub(super) async fn fetch_by_key<W: Wire>(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(key): Path<String>,
) -> ApiResult<Answer<W::Entry>> {
    Answer::of::<W>(silo.get_by_key(caller.scope(), &key).await?, None)
}

/// List envelopes, newest first.
///
/// Two paging styles, both exact while new envelopes arrive: send `next_cursor` back as
/// `cursor`, or (older clients) `next_created_at` back as `created_at`. In the `created_at`
/// style a page never splits envelopes stored in the same millisecond, so it can end early, or
/// hold more than `limit` when more than `limit` envelopes share one millisecond.
#[utoipa::path(get, path = "/silo/v1/envelopes", operation_id = "silo.v1.envelopes.list", tag = "silo", params(ListParams),
    responses((status = 200, description = "A page of envelopes.", body = EnvelopeList)))]
pub(super) async fn list<W: Wire>(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Query(params): Query<ListParams>,
) -> ApiResult<Json<EnvelopeList<W::Entry>>> {
    let limit = page::limit(params.limit)?;
    let created_at = page::created_at(params.created_at.as_deref())?;
    let cursor = params.cursor.filter(|c| !c.is_empty());
    let folder = params.folder.filter(|f| !f.is_empty());
    let query = ListQuery {
        limit,
        created_at,
        cursor: Position::param(cursor.as_deref())?,
        folder: folder.clone(),
        ascending: params.ascending.unwrap_or(false),
    };
    let page = silo.list(caller.scope(), &query).await?;
    EnvelopeList::of::<W>(page, limit, created_at, cursor, folder).map(Json)
}

/// The entries of a list in the version's shape: their secure meta rows left out.
pub(super) fn listed<W: Wire>(entries: Vec<Entry>) -> ApiResult<Vec<W::Entry>> {
    entries
        .into_iter()
        .map(|mut e| {
            e.meta = std::mem::take(&mut e.meta).listed();
            W::entry(e)
        })
        .collect()
}

impl<E> EnvelopeList<E> {
    /// The answer of a list of entries: the page, and the paging parameters it answers.
    pub(super) fn of<W: Wire<Entry = E>>(
        page: page::Page<Entry>,
        limit: i64,
        created_at: Option<chrono::DateTime<chrono::Utc>>,
        cursor: Option<String>,
        folder: Option<String>,
    ) -> ApiResult<EnvelopeList<E>> {
        Ok(EnvelopeList {
            list: listed::<W>(page.items)?,
            limit,
            created_at: folio_api::time::format(&created_at.unwrap_or_else(folio_store::now)),
            next_created_at: page.next_created_at.as_ref().map(folio_api::time::format),
            cursor,
            next_cursor: page.next.map(Position::cursor),
            folder,
        })
    }
}

/// Update an envelope's data, folder, tags or meta.
///
/// New `data` makes a new version (see `GET .../versions/{version}`); a signed envelope's
/// document cannot change (409).
#[utoipa::path(patch, path = "/silo/v1/envelopes/{id}", operation_id = "silo.v1.envelopes.patch", tag = "silo",
    params(("id" = Uuid, Path, description = "Envelope id.")),
    request_body = EnvelopePatch,
    responses((status = 200, description = "The updated envelope.", body = EnvelopeOut)))]
pub(super) async fn update<W: Wire>(
    caller: Caller,
    Handle(silo): Handle<Silo>,
    Path(id): Path<Uuid>,
    JsonBytes(body): JsonBytes,
) -> ApiResult<Answer<W::Entry>> {
    let depth = silo.limits().json_depth;
    let (body, data) = read::with_data::<EnvelopePatch<W::MetaIn>>(&body, depth)?;
    let merge_patch = merge_patch(body.content_type.as_deref())?;
    // A merge patch is merged into the stored document as text, and is not what is stored.
    let (data, parsed) = match data {
        Some(data) if merge_patch => (Some(data.text), None),
        Some(data) => (Some(data.text), data.parsed),
        None => (None, None),
    };
    let sent = if merge_patch { None } else { data.clone() };
    let update = EnvelopeUpdate {
        data,
        parsed,
        merge_patch,
        folder: body.folder,
        tags: body.tags,
        meta: body.meta.map(W::meta).transpose()?,
        allow_invalid: body.allow_invalid.unwrap_or(false),
    };
    let mut entry = silo.update(caller.scope(), id, update).await?;
    if body.sign == Some(true) {
        entry = silo.sign(caller.scope(), id).await?;
    }
    Answer::of::<W>(entry, sent.as_deref())
}

/// Whether a `PATCH`'s `data` is a merge patch, as its `content_type` says.
fn merge_patch(content_type: Option<&str>) -> ApiResult<bool> {
    match content_type.unwrap_or_default() {
        "application/json" | "" => Ok(false),
        "application/merge-patch+json" => Ok(true),
        "application/json-patch+json" => Err(ApiError::invalid_field(
            "content_type",
            "JSON Patch (RFC 6902) is not supported; send application/merge-patch+json",
        )),
        other => Err(ApiError::invalid_field(
            "content_type",
            format!("{other:?} is not application/json or application/merge-patch+json"),
        )),
    }
}
