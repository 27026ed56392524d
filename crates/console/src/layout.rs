//! The page shell every console page shares: header with navigation, language switch and
//! sign-out, a skip link, and the page's own content in `<main>`.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use maud::{DOCTYPE, Markup, html};

use crate::i18n::Lang;
use crate::session::Session;

/// Which navigation entry a page belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// Envelopes (list and pages).
    Envelopes,
    /// Upload.
    Upload,
    /// Jobs.
    Jobs,
    /// Workflows.
    Workflows,
    /// Series.
    Series,
    /// None (sign-in).
    None,
}

const NAV: &[(Section, &str, &str)] = &[
    (Section::Envelopes, "/console/envelopes", "envelopes"),
    (Section::Upload, "/console/upload", "upload"),
    (Section::Jobs, "/console/jobs", "jobs"),
    (Section::Workflows, "/console/workflows", "workflows"),
    (Section::Series, "/console/series", "series"),
];

/// A whole page.
pub struct Page<'a> {
    /// The language.
    pub lang: Lang,
    /// The signed-in session (none on the sign-in pages).
    pub session: Option<&'a Session>,
    /// Where the page sits in the navigation.
    pub section: Section,
    /// The `<title>` (folio is appended).
    pub title: String,
    /// Scripts the page needs (the console's own, by URL).
    pub script: Option<String>,
}

impl Page<'_> {
    /// The page with `content` in its `<main>`, as an HTML answer.
    pub fn render(self, content: Markup) -> Response {
        let t = |k| self.lang.t(k);
        let markup = html! {
            (DOCTYPE)
            html lang=(self.lang.code()) {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { (self.title) " · folio" }
                    link rel="stylesheet" href=(crate::assets::css_href());
                    link rel="icon" href=(crate::assets::icon_href()) type="image/svg+xml";
                    @if let Some(src) = &self.script { script src=(src) defer {} }
                }
                body {
                    a class="skip" href="#main" { (t("skip")) }
                    header class="top" {
                        a class="brand" href="/console/envelopes" { "folio" }
                        @if self.session.is_some() {
                            nav aria-label="console" {
                                ul {
                                    @for (section, href, key) in NAV {
                                        li {
                                            a href=(href) aria-current=[(self.section == *section).then_some("page")] { (t(key)) }
                                        }
                                    }
                                }
                            }
                        }
                        div class="end" {
                            a href={ "/console/lang?to=" (self.lang.other().code()) } lang=(self.lang.other().code()) { (t("language")) }
                            @if let Some(session) = self.session {
                                form method="post" action="/console/sign-out" {
                                    input type="hidden" name="csrf" value=(session.csrf);
                                    button type="submit" id="sign-out" { (t("sign_out")) }
                                }
                            }
                        }
                    }
                    main id="main" tabindex="-1" class=[(self.section == Section::None).then_some("narrow")] {
                        (content)
                    }
                }
            }
        };
        html_response(markup)
    }
}

/// An HTML fragment or page as an answer.
pub fn html_response(markup: Markup) -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        markup.into_string(),
    )
        .into_response()
}

/// A time as the console shows it: UTC, to the second.
pub fn time(at: &chrono::DateTime<chrono::Utc>) -> String {
    at.format("%Y-%m-%d %H:%M:%S").to_string()
}

/// The hidden CSRF field of a session's form.
pub fn csrf_field(session: &Session) -> Markup {
    html! { input type="hidden" name="csrf" value=(session.csrf); }
}
