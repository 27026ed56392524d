//! Jobs: the list, a job's page with the timeline of its steps (followed live while it runs by
//! the console's one script), and "run again".

use std::collections::HashMap;

use axum::Form;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use chrono::{DateTime, Utc};
use folio_api::page::Position;
use folio_store::Scope;
use folio_transform::model::{Intent, Job, NewJob, status};
use maud::{Markup, html};
use serde::Deserialize;
use uuid::Uuid;

use super::sign_in::CsrfForm;
use crate::Console;
use crate::error::Failure;
use crate::i18n::Lang;
use crate::layout::{Page, Section, csrf_field, html_response, time};
use crate::session::Session;

const PAGE_SIZE: i64 = 25;

/// The list's query string.
#[derive(Deserialize, Default)]
pub struct ListParams {
    #[serde(default)]
    cursor: String,
}

/// `GET /console/jobs`.
pub async fn list(
    State(console): State<Console>,
    session: Session,
    lang: Lang,
    Query(params): Query<ListParams>,
) -> Result<Response, Failure> {
    let t = |k| lang.t(k);
    let ws = session.scope();
    let cursor = Position::param(Some(params.cursor.as_str()))?;
    let page = console
        .transform
        .list_jobs(ws, None, cursor, PAGE_SIZE)
        .await?;
    let jobs = table(&console, ws, lang, &page.items).await;
    let content = html! {
        h1 { (t("jobs")) }
        (jobs)
        nav class="pager" aria-label="pages" {
            @if cursor.is_some() { a href="/console/jobs" { (t("first_page")) } }
            @if let Some(next) = page.next { a href={ "/console/jobs?cursor=" (next.cursor()) } rel="next" { (t("next_page")) } }
        }
    };
    Ok(Page {
        lang,
        session: Some(&session),
        section: Section::Jobs,
        title: t("jobs").to_owned(),
        script: None,
    }
    .render(content))
}

/// Names of the jobs' workflows (one read per distinct workflow; an unreadable one is left out).
/// The table of `jobs` (`id="jobs"`): status, workflow, envelope, age; "none found" when empty.
pub async fn table(console: &Console, ws: Scope, lang: Lang, jobs: &[Job]) -> Markup {
    let t = |k| lang.t(k);
    let names = workflow_names(console, ws, jobs).await;
    let now = Utc::now();
    html! {
        @if jobs.is_empty() { p { (t("none_found")) } }
        @else {
            div class="table-wrap" { table id="jobs" {
                thead { tr {
                    th scope="col" { (t("job")) } th scope="col" { (t("status")) } th scope="col" { (t("workflow")) }
                    th scope="col" { (t("envelope")) } th scope="col" { (t("age")) }
                } }
                tbody { @for job in jobs { tr {
                    td { a href={ "/console/jobs/" (job.id) } { code { (short(job.id)) } } }
                    td { (badge(&job.status)) }
                    td { a href={ "/console/workflows/" (job.workflow_id) } { (names.get(&job.workflow_id).map(String::as_str).unwrap_or("")) } }
                    td { @if let Some(e) = job.silo_entry_id { a href={ "/console/envelopes/" (e) } { code { (short(e)) } } } }
                    td { time datetime=(job.created_at.to_rfc3339()) title=(time(&job.created_at)) { (age(now, job.created_at)) } }
                } } }
            } }
        }
    }
}

/// The names of the jobs' workflows, each read once and all at the same time.
async fn workflow_names(console: &Console, ws: Scope, jobs: &[Job]) -> HashMap<Uuid, String> {
    let ids: std::collections::HashSet<Uuid> = jobs.iter().map(|j| j.workflow_id).collect();
    let mut reads = tokio::task::JoinSet::new();
    for id in ids {
        let transform = console.transform.clone();
        reads.spawn(async move { (id, transform.workflow(ws, id).await) });
    }
    let mut names = HashMap::new();
    while let Some(read) = reads.join_next().await {
        if let Ok((id, Ok(w))) = read {
            names.insert(id, w.definition.name);
        }
    }
    names
}

/// `GET /console/jobs/{id}`.
pub async fn show(
    State(console): State<Console>,
    session: Session,
    lang: Lang,
    Path(id): Path<Uuid>,
) -> Result<Response, Failure> {
    let t = |k| lang.t(k);
    let ws = session.scope();
    let job = console.transform.job(ws, id).await?;
    let workflow = console.transform.workflow(ws, job.workflow_id).await.ok();
    let done = job.completed_at.is_some();
    let content = html! {
        h1 { (t("job")) " " code { (short(job.id)) } " " (badge(&job.status)) }
        dl class="summary" {
            dt { (t("workflow")) }
            dd { a href={ "/console/workflows/" (job.workflow_id) } { (workflow.as_ref().map(|w| w.definition.name.as_str()).unwrap_or("")) } " v" (job.workflow_version) }
            @if let Some(e) = job.silo_entry_id { dt { (t("envelope")) } dd { a href={ "/console/envelopes/" (e) } { code { (e) } } } }
            dt { (t("created")) } dd { (time(&job.created_at)) }
            @if let Some(at) = job.completed_at { dt { "✓" } dd { (time(&at)) " (" (duration(job.created_at, at)) ")" } }
        }
        @if !done { p id="live" class="muted" aria-live="polite" { (t("live")) } }
        (failure(lang, &job))
        h2 { (t("steps")) }
        (timeline_view(lang, &job))
        @if done {
            form method="post" action={ "/console/jobs/" (job.id) "/again" } {
                (csrf_field(&session))
                button type="submit" id="run-again" { (t("run_again")) }
            }
        }
    };
    let script = (!done).then(crate::assets::js_href);
    Ok(Page {
        lang,
        session: Some(&session),
        section: Section::Jobs,
        title: format!("{} {}", t("job"), short(job.id)),
        script,
    }
    .render(content))
}

/// `GET /console/jobs/{id}/timeline`: the timeline alone, for the live page's script.
pub async fn timeline(
    State(console): State<Console>,
    session: Session,
    lang: Lang,
    Path(id): Path<Uuid>,
) -> Result<Response, Failure> {
    let job = console.transform.job(session.scope(), id).await?;
    Ok(html_response(timeline_view(lang, &job)))
}

/// The failed step and its error, first, where a person looks.
fn failure(lang: Lang, job: &Job) -> Markup {
    let failed = job.intents.iter().find_map(|i| {
        i.events
            .iter()
            .rev()
            .find(|e| e.status == status::KO)
            .map(|e| (i, e))
    });
    html! {
        @if let Some((intent, event)) = failed {
            section id="failure" class="panel" role="alert" aria-labelledby="failure-h" {
                h2 id="failure-h" class="error" { (lang.t("failed_step")) ": " (intent.name) }
                p { @if let Some(code) = &event.code { code { (code) } " " } (event.message.as_deref().unwrap_or("")) }
            }
        }
        @if !job.faults.is_empty() {
            ul class="error" { @for f in &job.faults { li { code { (f.code) } " " (f.message) } } }
        }
    }
}

fn timeline_view(lang: Lang, job: &Job) -> Markup {
    let done = job.completed_at.is_some();
    html! {
        div id="timeline" data-done=(done) data-src={ "/console/jobs/" (job.id) "/timeline" } {
            ol class="timeline" {
                @for intent in &job.intents { (step(lang, intent)) }
            }
        }
    }
}

fn step(lang: Lang, intent: &Intent) -> Markup {
    let last = intent.events.last();
    let state = last.map(|e| e.status.as_str()).unwrap_or(status::QUEUED);
    let took = match (intent.events.first(), last) {
        (Some(a), Some(b)) => duration(a.at, b.at),
        _ => String::new(),
    };
    html! {
        li class=(state) data-step=(intent.step_id) {
            strong { (intent.name) } " " (badge(state)) " "
            span class="muted" { code { (intent.provider) } " · " (lang.t("duration")) " " (took) }
            ul class="events" {
                @for e in &intent.events {
                    li {
                        (e.status) " " (time(&e.at))
                        @if let Some(code) = &e.code { " " code { (code) } }
                        @if let Some(m) = &e.message { " — " (m) }
                    }
                }
            }
        }
    }
}

/// `POST /console/jobs/{id}/again`: a new job on the same workflow, envelope and arguments.
pub async fn again(
    State(console): State<Console>,
    session: Session,
    Path(id): Path<Uuid>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, Failure> {
    session.check_csrf(&form.csrf)?;
    let ws = session.scope();
    let job = console.transform.job(ws, id).await?;
    let data = match job.silo_entry_id {
        Some(_) => None,
        None => console
            .transform
            .job_input(ws, id)
            .await?
            .map(|text| serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))),
    };
    let new = NewJob {
        id: Uuid::now_v7(),
        workflow_id: job.workflow_id,
        silo_entry_id: job.silo_entry_id,
        data,
        args: job.args,
        key: None,
        tags: job.tags,
    };
    let (made, _) = console.transform.create_job(ws, new).await?;
    Ok(Redirect::to(&format!("/console/jobs/{}", made.id)).into_response())
}

/// A status as a coloured word (the word is the information; colour only helps).
pub fn badge(status: &str) -> Markup {
    html! { span class={ "badge " (status) } { (status) } }
}

/// The first 8 characters of an id.
pub fn short(id: Uuid) -> String {
    id.simple().to_string()[..8].to_owned()
}

fn duration(from: DateTime<Utc>, to: DateTime<Utc>) -> String {
    let ms = (to - from).num_milliseconds().max(0);
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

fn age(now: DateTime<Utc>, at: DateTime<Utc>) -> String {
    let s = (now - at).num_seconds().max(0);
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        3600..86400 => format!("{} h", s / 3600),
        _ => format!("{} d", s / 86400),
    }
}
