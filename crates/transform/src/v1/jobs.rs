//! `/transform/v1/jobs`: create (`PUT` with an id, `POST` without), fetch by id or key, list,
//! and `?wait=N` to block until the job completes.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::http::StatusCode;
use folio_api::page::Position;
use folio_api::{ApiError, ApiResult, Caller, Ctx, Fault, Handle, Json, Path, Query, page, time};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use folio_silo::FileInfo;

use crate::Transform;
use crate::model::{Event, Intent, Job, NewJob};

/// `data`'s schema: a GOBL document or envelope (an object), or XML text.
fn job_data() -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([
            Type::Object,
            Type::String,
            Type::Null,
        ]))
        .description(Some(
            "A GOBL document or envelope to store in the silo first, instead of an envelope id; \
             or a UBL or CII e-invoice as XML text, for a `ubl.import` or `cii.import` step.",
        ))
        .build()
}

/// The body of a job request.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct JobIn {
    /// The workflow to run (its current published version; required).
    #[serde(default)]
    #[schema(required = true, value_type = Uuid, pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")]
    pub workflow_id: Option<Uuid>,
    /// The envelope to work on.
    #[serde(default)]
    #[schema(
        pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    pub silo_entry_id: Option<Uuid>,
    /// Older name of `silo_entry_id`.
    #[serde(default)]
    #[schema(
        pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    )]
    pub envelope_id: Option<Uuid>,
    /// A GOBL document or envelope, or an e-invoice as XML text (see [`job_data`]).
    #[serde(default)]
    #[schema(schema_with = job_data)]
    pub data: Option<Value>,
    /// Arguments for the steps (string values).
    #[serde(default)]
    pub args: Option<BTreeMap<String, String>>,
    /// Unique in the workspace.
    #[serde(default)]
    pub key: Option<String>,
    /// Tags.
    #[serde(default)]
    pub tags: Option<Vec<String>>,
}

/// Something that happened to an intent.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventV1 {
    /// Position, from 0.
    pub index: i64,
    /// `RUN`, `OK`, `SKIP`, `ERR` (retried), `KO`.
    pub status: String,
    /// When.
    pub at: String,
    /// Code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Extra values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<BTreeMap<String, String>>,
    /// The envelope the step changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub silo_entry_id: Option<Uuid>,
}

/// One run of one step.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct IntentV1 {
    /// Id.
    pub id: Uuid,
    /// First attempt.
    pub created_at: String,
    /// Last event.
    pub updated_at: String,
    /// The step.
    pub step_id: String,
    /// The step's name.
    pub name: String,
    /// The action.
    pub provider: String,
    /// Finished (`OK`, `SKIP` or `KO`).
    pub completed: bool,
    /// Events, in order.
    pub events: Vec<EventV1>,
}

/// A file attached to the job's envelope (the silo's file shape).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct FileV1 {
    /// File id.
    pub id: String,
    /// File name.
    pub name: String,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desc: Option<String>,
    /// Key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// SHA-256 of the content, lowercase hex.
    pub hash: String,
    /// Media type.
    pub mime: String,
    /// Size in bytes.
    pub size: i64,
    /// Where to download it (path on this server, under `/silo/v1`).
    pub url: String,
    /// String metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<BTreeMap<String, String>>,
    /// When it was attached.
    pub created_at: String,
    /// False for a placeholder whose content is still to be uploaded (as the silo says).
    pub stored: bool,
}

impl FileV1 {
    fn of(envelope_id: Uuid, f: FileInfo) -> FileV1 {
        FileV1 {
            url: format!("/silo/v1/envelopes/{envelope_id}/files/{}", f.id),
            id: f.id.to_string(),
            name: f.name,
            desc: f.desc,
            key: f.key,
            category: f.category,
            hash: f.hash,
            mime: f.mime,
            size: f.size,
            meta: f.meta,
            created_at: time::format(&f.created_at),
            stored: f.stored,
        }
    }
}

/// A job.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct JobOut {
    /// Id.
    pub id: Uuid,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
    /// Set once the job has finished; absent while it runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed_at: Option<String>,
    /// The workflow.
    pub workflow_id: Uuid,
    /// The envelope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub silo_entry_id: Option<Uuid>,
    /// Same as `silo_entry_id` (older name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub envelope_id: Option<Uuid>,
    /// Key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<BTreeMap<String, String>>,
    /// Tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// `QUEUED`, `RUN`, `OK` or `KO`.
    pub status: String,
    /// One per step run. A completed job's last event of its last intent is its verdict.
    pub intents: Vec<IntentV1>,
    /// Faults of failed steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faults: Option<Vec<Fault>>,
    /// The envelope as it is now (on fetch of one job).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub envelope: Option<Value>,
    /// The files attached to the envelope as it is now, oldest first (on fetch of one job
    /// that has an envelope; not in lists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attachments: Option<Vec<FileV1>>,
}

/// A page of jobs, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct JobList {
    /// The jobs.
    pub list: Vec<JobOut>,
    /// Page size.
    pub limit: i64,
    /// Jobs created at or before this time were listed.
    pub created_at: String,
    /// The cursor this page continued from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// Send back as `cursor` for the next page (absent on the last page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = page::cursor_schema)]
    pub next_cursor: Option<String>,
}

/// `?wait=N`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WaitQuery {
    /// Seconds to wait for the job to complete (at most 60, the default `max_wait_seconds`).
    #[param(maximum = 60)]
    wait: Option<u64>,
}

/// Query of the job list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Page size (default 20, at most 100).
    #[param(minimum = 1)]
    limit: Option<i64>,
    /// List jobs created at or before this time.
    #[param(schema_with = folio_api::time::query_schema)]
    created_at: Option<String>,
    /// `next_cursor` of the previous page.
    #[param(schema_with = page::cursor_schema)]
    cursor: Option<String>,
}

pub(super) fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .routes(routes!(put_job, fetch))
        .routes(routes!(post_job, list))
        .routes(routes!(fetch_by_key))
}

/// Create a job with a chosen id.
///
/// Runs the workflow's current published version on the envelope (`silo_entry_id`), or on
/// `data` stored in the silo first. The same request repeated returns the job; a different one
/// with this id, or a `key` already used, is 409. An unknown, draft or disabled workflow is
/// 422. With `wait`, answers when the job completes or after `wait` seconds.
#[utoipa::path(put, path = "/transform/v1/jobs/{id}", operation_id = "transform.v1.jobs.put", tag = "jobs",
    params(("id" = Uuid, Path, description = "Job id"), WaitQuery),
    request_body = JobIn,
    responses((status = 202, description = "The job.", body = JobOut),
        (status = 409, description = "Id or key already used.", body = folio_api::ErrorBody),
        (status = 422, description = "Invalid request.", body = folio_api::ErrorBody)))]
async fn put_job(
    caller: Caller,
    Handle(ctx): Handle<Ctx>,
    Handle(t): Handle<Transform>,
    Path(id): Path<Uuid>,
    Query(q): Query<WaitQuery>,
    Json(body): Json<JobIn>,
) -> ApiResult<(StatusCode, Json<JobOut>)> {
    create(caller, &ctx, &t, id, q, body).await
}

/// Create a job.
///
/// As `PUT /transform/v1/jobs/{id}` with a server-chosen id (a UUID v7).
#[utoipa::path(post, path = "/transform/v1/jobs", operation_id = "transform.v1.jobs.create", tag = "jobs", params(WaitQuery),
    request_body = JobIn,
    responses((status = 202, description = "The job.", body = JobOut),
        (status = 409, description = "Key already used.", body = folio_api::ErrorBody),
        (status = 422, description = "Invalid request.", body = folio_api::ErrorBody)))]
async fn post_job(
    caller: Caller,
    Handle(ctx): Handle<Ctx>,
    Handle(t): Handle<Transform>,
    Query(q): Query<WaitQuery>,
    Json(body): Json<JobIn>,
) -> ApiResult<(StatusCode, Json<JobOut>)> {
    create(caller, &ctx, &t, Uuid::now_v7(), q, body).await
}

/// Fetch a job.
///
/// With `wait`, answers when the job completes or after `wait` seconds.
#[utoipa::path(get, path = "/transform/v1/jobs/{id}", operation_id = "transform.v1.jobs.fetch", tag = "jobs",
    params(("id" = Uuid, Path, description = "Job id"), WaitQuery),
    responses((status = 200, description = "The job.", body = JobOut),
        (status = 404, description = "No such job.", body = folio_api::ErrorBody)))]
async fn fetch(
    caller: Caller,
    Handle(ctx): Handle<Ctx>,
    Handle(t): Handle<Transform>,
    Path(id): Path<Uuid>,
    Query(q): Query<WaitQuery>,
) -> ApiResult<Json<JobOut>> {
    let wait = wait_of(&ctx, &q)?;
    let job = t.wait_job(caller.scope(), id, wait).await?;
    Ok(Json(with_envelope(&t, caller.scope(), job).await))
}

/// Fetch a job by its key.
#[utoipa::path(get, path = "/transform/v1/jobs/key/{key}", operation_id = "transform.v1.jobs.fetch_by_key", tag = "jobs",
    params(("key" = String, Path, description = "Job key")),
    responses((status = 200, description = "The job.", body = JobOut),
        (status = 404, description = "No such job.", body = folio_api::ErrorBody)))]
async fn fetch_by_key(
    caller: Caller,
    Handle(t): Handle<Transform>,
    Path(key): Path<String>,
) -> ApiResult<Json<JobOut>> {
    let job = t.job_by_key(caller.scope(), &key).await?;
    Ok(Json(with_envelope(&t, caller.scope(), job).await))
}

/// List jobs.
///
/// Newest first; page with `next_cursor` sent back as `cursor`.
#[utoipa::path(get, path = "/transform/v1/jobs", operation_id = "transform.v1.jobs.list", tag = "jobs", params(ListQuery),
    responses((status = 200, description = "A page of jobs.", body = JobList),
        (status = 422, description = "Bad query.", body = folio_api::ErrorBody)))]
async fn list(
    caller: Caller,
    Handle(t): Handle<Transform>,
    Query(q): Query<ListQuery>,
) -> ApiResult<Json<JobList>> {
    let limit = page::limit(q.limit)?;
    let created_at = page::created_at(q.created_at.as_deref())?;
    let cursor = q.cursor.filter(|c| !c.is_empty());
    let after = Position::param(cursor.as_deref())?;
    let page = t
        .list_jobs(caller.scope(), created_at, after, limit)
        .await?;
    Ok(Json(JobList {
        list: page.items.into_iter().map(|j| out(j, None)).collect(),
        limit,
        created_at: time::format(&created_at.unwrap_or_else(folio_store::now)),
        cursor,
        next_cursor: page.next.map(Position::cursor),
    }))
}

async fn create(
    caller: Caller,
    ctx: &Ctx,
    t: &Transform,
    id: Uuid,
    q: WaitQuery,
    body: JobIn,
) -> ApiResult<(StatusCode, Json<JobOut>)> {
    let wait = wait_of(ctx, &q)?;
    let workflow_id = body
        .workflow_id
        .ok_or_else(|| ApiError::invalid_field("workflow_id", "required"))?;
    let silo_entry_id = match (body.silo_entry_id, body.envelope_id) {
        (Some(a), Some(b)) if a != b => {
            return Err(ApiError::invalid_field(
                "envelope_id",
                "differs from silo_entry_id (they are the same field)",
            ));
        }
        (a, b) => a.or(b),
    };
    if let Some(data) = &body.data
        && !data.is_object()
        && !data.is_string()
    {
        return Err(ApiError::invalid_field(
            "data",
            "must be a GOBL document or envelope, or an e-invoice as XML text",
        ));
    }
    let new = NewJob {
        id,
        workflow_id,
        silo_entry_id,
        data: body.data,
        args: body.args.unwrap_or_default(),
        key: body.key,
        tags: body.tags.unwrap_or_default(),
    };
    let (job, _) = t.create_job(caller.scope(), new).await?;
    let job = if wait.is_zero() {
        job
    } else {
        t.wait_job(caller.scope(), job.id, wait).await?
    };
    Ok((
        StatusCode::ACCEPTED,
        Json(with_envelope(t, caller.scope(), job).await),
    ))
}

fn wait_of(ctx: &Ctx, q: &WaitQuery) -> ApiResult<Duration> {
    let max = ctx.limits().max_wait_seconds;
    match q.wait {
        Some(n) if n > max => Err(ApiError::invalid_field(
            "wait",
            format!("at most {max} seconds"),
        )),
        Some(n) => Ok(Duration::from_secs(n)),
        None => Ok(Duration::ZERO),
    }
}

/// The wire form of one job, with its envelope and the envelope's files as they are now.
async fn with_envelope(t: &Transform, scope: folio_store::Scope, job: Job) -> JobOut {
    let entry = match job.silo_entry_id {
        Some(id) => t.silo().get(scope, id).await.ok(),
        None => None,
    };
    let Some(entry) = entry else {
        return out(job, None);
    };
    let envelope = entry
        .data
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok());
    let envelope_id = entry.id;
    let files = entry
        .attachments
        .into_iter()
        .map(|f| FileV1::of(envelope_id, f))
        .collect();
    let mut job = out(job, envelope);
    job.attachments = Some(files);
    job
}

fn out(job: Job, envelope: Option<Value>) -> JobOut {
    JobOut {
        id: job.id,
        created_at: time::format(&job.created_at),
        updated_at: time::format(&job.updated_at),
        completed_at: job.completed_at.as_ref().map(time::format),
        workflow_id: job.workflow_id,
        silo_entry_id: job.silo_entry_id,
        envelope_id: job.silo_entry_id,
        key: job.key,
        args: (!job.args.is_empty()).then_some(job.args),
        tags: (!job.tags.is_empty()).then_some(job.tags),
        status: job.status,
        intents: job.intents.into_iter().map(intent_out).collect(),
        faults: (!job.faults.is_empty()).then_some(job.faults),
        envelope,
        attachments: None,
    }
}

fn intent_out(i: Intent) -> IntentV1 {
    IntentV1 {
        id: i.id,
        created_at: time::format(&i.created_at),
        updated_at: time::format(&i.updated_at),
        step_id: i.step_id,
        name: i.name,
        provider: i.provider,
        completed: i.completed,
        events: i.events.into_iter().map(event_out).collect(),
    }
}

fn event_out(e: Event) -> EventV1 {
    EventV1 {
        index: e.index,
        status: e.status,
        at: time::format(&e.at),
        code: e.code,
        message: e.message,
        args: (!e.args.is_empty()).then_some(e.args),
        silo_entry_id: e.silo_entry_id,
    }
}
