//! folio's versioned-service framework.
//!
//! Services describe each of their versions as a [`registry::ServiceVersion`] (routes with their
//! OpenAPI operations); the [`registry::Registry`] checks the versioning rules and
//! [`app::router`] assembles the public application. Handlers use [`auth::Caller`] (authenticated,
//! rate-limited, workspace-scoped), [`json::Json`], [`extract::Path`], [`extract::Query`],
//! [`handles::Handle`] (the domain handles) and return [`error::ApiError`] for every failure.

pub mod app;
pub mod auth;
pub mod ctx;
pub mod error;
pub mod extract;
pub mod handles;
pub mod json;
pub mod lifecycle;
pub mod limits;
mod observe;
pub mod openapi;
pub mod page;
pub mod registry;
pub mod request_id;
pub mod service_error;
pub mod time;

pub use auth::Caller;
pub use ctx::Ctx;
pub use error::{ApiError, ApiResult, ErrorBody, Fault, FieldError, field_error};
pub use extract::{Path, Query};
pub use handles::{Handle, Handles};
pub use json::Json;
pub use registry::{Lifecycle, Registry, ServiceVersion};
