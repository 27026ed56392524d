//! Upload: a GOBL JSON document or envelope is built and stored by the silo; a UBL or CII invoice
//! (or a PDF carrying one) is imported to GOBL first. On success the envelope's page opens; on
//! failure nothing is stored and the page lists what was wrong, with rule ids and paths.

use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use folio_api::ApiError;
use folio_silo::NewEnvelope;
use maud::{Markup, html};

use crate::Console;
use crate::error::Failure;
use crate::i18n::Lang;
use crate::layout::{Page, Section, csrf_field};
use crate::session::Session;

/// One thing wrong with an upload: rule id, path, message.
type Problem = (String, String, String);

/// `GET /console/upload`.
pub async fn form(session: Session, lang: Lang) -> Response {
    page(&session, lang, None, &[])
}

fn page(session: &Session, lang: Lang, failure: Option<&str>, problems: &[Problem]) -> Response {
    let t = |k| lang.t(k);
    let content = html! {
        h1 { (t("upload")) }
        @if let Some(message) = failure { (report(lang, message, problems)) }
        form class="stack" method="post" action="/console/upload" enctype="multipart/form-data" {
            (csrf_field(session))
            div {
                label for="file" { (t("file")) }
                input type="file" id="file" name="file" required accept=".json,.xml,.pdf,application/json,application/xml,text/xml,application/pdf" aria-describedby="file-help";
                p class="hint" id="file-help" { (t("upload_help")) }
            }
            button type="submit" id="upload" { (t("send")) }
        }
    };
    Page {
        lang,
        session: Some(session),
        section: Section::Upload,
        title: t("upload").to_owned(),
        script: None,
    }
    .render(content)
}

fn report(lang: Lang, message: &str, problems: &[Problem]) -> Markup {
    let t = |k| lang.t(k);
    html! {
        section id="upload-errors" role="alert" aria-labelledby="upload-errors-h" {
            h2 id="upload-errors-h" class="error" { (t("upload_failed")) }
            p { (message) }
            @if !problems.is_empty() {
                div class="table-wrap" { table {
                    thead { tr { th scope="col" { (t("rule")) } th scope="col" { (t("path")) } th scope="col" { (t("message")) } } }
                    tbody { @for (rule, path, message) in problems { tr { td { code { (rule) } } td { code { (path) } } td { (message) } } } }
                } }
            }
        }
    }
}

/// `POST /console/upload`.
pub async fn submit(
    State(console): State<Console>,
    session: Session,
    lang: Lang,
    mut form: Multipart,
) -> Result<Response, Failure> {
    let (mut csrf, mut file) = (String::new(), None);
    while let Some(field) = form
        .next_field()
        .await
        .map_err(|e| Failure::bad_request(e.body_text()))?
    {
        match field.name() {
            Some("csrf") => {
                csrf = field
                    .text()
                    .await
                    .map_err(|e| Failure::bad_request(e.body_text()))?
            }
            Some("file") => {
                let name = field.file_name().unwrap_or("upload").to_owned();
                file = Some((
                    name,
                    field
                        .bytes()
                        .await
                        .map_err(|e| Failure::bad_request(e.body_text()))?,
                ));
            }
            _ => {}
        }
    }
    session.check_csrf(&csrf)?;
    let Some((name, bytes)) = file.filter(|(_, b)| !b.is_empty()) else {
        let page = page(&session, lang, Some("no file was sent"), &[]);
        return Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
    };
    match store(&console, &session, &bytes).await {
        Ok(id) => Ok(Redirect::to(&format!("/console/envelopes/{id}")).into_response()),
        Err((status, message, problems)) => {
            let page = page(
                &session,
                lang,
                Some(&format!("{name}: {message}")),
                &problems,
            );
            Ok((status, page).into_response())
        }
    }
}

type Refused = (StatusCode, String, Vec<Problem>);

/// Builds or imports the upload and stores it; its id, or why not.
async fn store(console: &Console, session: &Session, bytes: &[u8]) -> Result<uuid::Uuid, Refused> {
    let data = if is_json(bytes) {
        String::from_utf8(bytes.to_vec()).map_err(|_| {
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                "not UTF-8 text".to_owned(),
                vec![],
            )
        })?
    } else {
        let xml = bytes.to_vec();
        let imported = tokio::task::spawn_blocking(move || folio_einvoice::import(&xml))
            .await
            .map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, e.to_string(), vec![]))?
            .map_err(import_refused)?;
        imported.envelope.to_string()
    };
    let new = NewEnvelope {
        data,
        ..NewEnvelope::default()
    };
    match console.silo.create(session.scope(), new).await {
        Ok(entry) => Ok(entry.id),
        Err(err) => Err(api_refused(err.into())),
    }
}

fn is_json(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{')
}

fn import_refused(err: folio_einvoice::Error) -> Refused {
    use folio_einvoice::Error as E;
    let findings = match &err {
        E::Gobl(f) | E::Unreadable(f) | E::Rules(f) => f.clone(),
        E::Unwritable { findings, .. } => findings.clone(),
        _ => Vec::new(),
    };
    let problems = findings
        .into_iter()
        .map(|f| (f.rule, f.path, f.message))
        .collect();
    (StatusCode::UNPROCESSABLE_ENTITY, err.to_string(), problems)
}

fn api_refused(err: ApiError) -> Refused {
    let mut problems: Vec<Problem> = err
        .body
        .faults
        .iter()
        .flatten()
        .map(|f| (f.code.clone(), f.paths.join(", "), f.message.clone()))
        .collect();
    if let Some(fields) = &err.body.fields {
        flatten_fields(
            "",
            &serde_json::Value::Object(fields.clone()),
            &mut problems,
        );
    }
    (err.status, err.body.message.clone(), problems)
}

/// The API error's nested `fields` as one problem per leaf.
fn flatten_fields(prefix: &str, value: &serde_json::Value, out: &mut Vec<Problem>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten_fields(&path, v, out);
            }
        }
        other => out.push((
            "invalid".into(),
            prefix.to_owned(),
            other
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| other.to_string()),
        )),
    }
}
