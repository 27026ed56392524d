//! Signing in (an API token, or a one-time link) and out.

use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;

use super::local_path;
use crate::Console;
use crate::error::Failure;
use crate::i18n::Lang;
use crate::layout::{Page, Section};
use crate::session::{self, Session};

/// Query of the sign-in page.
#[derive(Deserialize, Default)]
pub struct SignInQuery {
    #[serde(default)]
    next: String,
}

/// The sign-in form.
#[derive(Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    token: String,
    #[serde(default)]
    next: String,
}

fn sign_in_page(lang: Lang, next: &str, error: Option<&str>) -> Response {
    let t = |k| lang.t(k);
    let content = html! {
        h1 { (t("sign_in")) }
        @if let Some(error) = error { p class="error" role="alert" { (error) } }
        form class="stack" method="post" action="/console/sign-in" {
            input type="hidden" name="next" value=(next);
            div {
                label for="token" { (t("token")) }
                input type="password" id="token" name="token" autocomplete="off" required
                    aria-describedby="token-help";
                p class="hint" id="token-help" { (t("token_help")) }
            }
            button type="submit" id="sign-in" { (t("sign_in")) }
        }
    };
    plain_page(lang, t("sign_in"), content)
}

fn plain_page(lang: Lang, title: &str, content: Markup) -> Response {
    Page {
        lang,
        session: None,
        section: Section::None,
        title: title.to_owned(),
        script: None,
    }
    .render(content)
}

/// `GET /console/sign-in`.
pub async fn form(lang: Lang, Query(q): Query<SignInQuery>) -> Response {
    sign_in_page(lang, &q.next, None)
}

/// `POST /console/sign-in`: the token's workspace gets a session.
pub async fn submit(
    State(console): State<Console>,
    lang: Lang,
    headers: HeaderMap,
    Form(form): Form<SignInForm>,
) -> Result<Response, Failure> {
    let caller = match console.ctx.auth().verify(form.token.trim()).await {
        Ok(caller) => caller,
        Err(err) if err.status == StatusCode::UNAUTHORIZED => {
            let page = sign_in_page(lang, &form.next, Some(lang.t("bad_token")));
            return Ok((StatusCode::UNAUTHORIZED, page).into_response());
        }
        Err(err) => return Err(err.into()),
    };
    let cookie = session::open(
        &console,
        caller.workspace_id,
        Some(caller.token_id),
        session::over_tls(&headers),
    )
    .await?;
    let target = local_path(&form.next);
    Ok(([(header::SET_COOKIE, cookie)], Redirect::to(&target)).into_response())
}

/// `GET /console/link/{secret}`: a button that uses the link (a link preview fetching the URL
/// does not use it up).
pub async fn link_form(lang: Lang, Path(secret): Path<String>) -> Response {
    let content = html! {
        h1 { (lang.t("sign_in")) }
        p { (lang.t("link_help")) }
        form method="post" action="/console/link" {
            input type="hidden" name="secret" value=(secret);
            button type="submit" id="use-link" { (lang.t("continue")) }
        }
    };
    let mut page = plain_page(lang, lang.t("sign_in"), content);
    // the secret is in this page's URL: no referrer leaves it
    page.headers_mut().insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("no-referrer"),
    );
    page
}

/// The link form.
#[derive(Deserialize)]
pub struct LinkForm {
    #[serde(default)]
    secret: String,
}

/// `POST /console/link`: uses up the link and opens a session in its workspace.
pub async fn link_submit(
    State(console): State<Console>,
    lang: Lang,
    headers: HeaderMap,
    Form(form): Form<LinkForm>,
) -> Result<Response, Failure> {
    let used = console
        .ctx
        .store()
        .use_console_link(&session::digest(&form.secret))
        .await?;
    let Some(workspace_id) = used else {
        let content = html! { h1 { (lang.t("sign_in")) } p class="error" role="alert" { (lang.t("bad_link")) } };
        let page = plain_page(lang, lang.t("sign_in"), content);
        return Ok((StatusCode::UNAUTHORIZED, page).into_response());
    };
    let cookie = session::open(&console, workspace_id, None, session::over_tls(&headers)).await?;
    Ok((
        [(header::SET_COOKIE, cookie)],
        Redirect::to("/console/envelopes"),
    )
        .into_response())
}

/// A form that only carries the CSRF token.
#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    pub csrf: String,
}

/// `POST /console/sign-out`: ends the session on the server and forgets the cookie.
pub async fn sign_out(
    State(console): State<Console>,
    session: Session,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Result<Response, Failure> {
    session.check_csrf(&form.csrf)?;
    session.revoke(&console).await?;
    let cookie = session::clear(session::over_tls(&headers))?;
    Ok((
        [(header::SET_COOKIE, cookie)],
        Redirect::to("/console/sign-in"),
    )
        .into_response())
}
