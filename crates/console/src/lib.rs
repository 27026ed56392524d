//! folio's web console, served at `/console/` on the API listener by the folio binary.
//!
//! Pages are rendered on the server (maud templates compiled into the binary): no build step,
//! no Node.js, one embedded stylesheet and one small script (the live job page). All data comes
//! from the services' domain APIs ([`Silo`], [`Transform`], [`Sequence`]) in the signed-in
//! workspace's scope: the console has no SQL and no second path to the data, and another
//! workspace's envelope is the same "not found" as in the API.
//!
//! Sign-in is an API token pasted into a form, or a one-time link (`folio console-link`); either
//! opens a server-side session (`folio_store`'s `console_sessions`) carried by an `HttpOnly`,
//! `SameSite=Strict` cookie. Every state-changing form carries a CSRF token derived from the
//! session, and every POST must come from this origin (see [`guard`]).

use axum::Router;
use axum::routing::{get, post};
use folio_api::Ctx;
use folio_sequence::Sequence;
use folio_silo::Silo;
use folio_transform::Transform;

mod asset_route;
mod assets;
mod error;
pub mod guard;
mod i18n;
mod layout;
pub mod links;
mod pages;
mod recent;
mod session;
mod summary;

pub use links::issue_link;

/// Where the console is mounted.
pub const PREFIX: &str = "/console";

/// What the console's handlers reach: the shared context (store, tokens, limits) and the
/// services' domain handles.
#[derive(Clone)]
pub struct Console {
    ctx: Ctx,
    silo: Silo,
    transform: Transform,
    sequence: Sequence,
    /// Sessions found active lately (see [`recent`]).
    recent: std::sync::Arc<recent::Recent>,
}

impl Console {
    /// The console over these services.
    pub fn new(ctx: Ctx, silo: Silo, transform: Transform, sequence: Sequence) -> Console {
        Console {
            ctx,
            silo,
            transform,
            sequence,
            recent: Default::default(),
        }
    }
}

/// The console's routes, under [`PREFIX`], with its security headers and origin check; merge
/// it into the public router.
pub fn router(console: Console) -> Router {
    use pages::{envelope, envelopes, jobs, series, sign_in, upload, workflows};
    Router::new()
        .route("/console", get(pages::home))
        .route("/console/", get(pages::home))
        .route("/console/lang", get(pages::lang))
        .route("/console/assets/{name}", get(asset_route::serve))
        .route("/console/sign-in", get(sign_in::form).post(sign_in::submit))
        .route("/console/link/{secret}", get(sign_in::link_form))
        .route("/console/link", post(sign_in::link_submit))
        .route("/console/sign-out", post(sign_in::sign_out))
        .route("/console/envelopes", get(envelopes::list))
        .route("/console/envelopes/{id}", get(envelope::show))
        .route("/console/envelopes/{id}/pdf", get(envelope::pdf))
        .route("/console/envelopes/{id}/files/{file}", get(envelope::file))
        .route("/console/upload", get(upload::form).post(upload::submit))
        .route("/console/jobs", get(jobs::list))
        .route("/console/jobs/{id}", get(jobs::show))
        .route("/console/jobs/{id}/timeline", get(jobs::timeline))
        .route("/console/jobs/{id}/again", post(jobs::again))
        .route("/console/workflows", get(workflows::list))
        .route("/console/workflows/{id}", get(workflows::show))
        .route("/console/workflows/{id}/run", post(workflows::run))
        .route("/console/series", get(series::list))
        .route("/console/{*rest}", axum::routing::any(pages::not_found))
        .layer(axum::middleware::from_fn(guard::headers))
        .layer(axum::middleware::from_fn(guard::same_origin))
        .with_state(console)
}
