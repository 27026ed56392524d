//! transform/v1: workflows, jobs and the webhook signing secret.

use folio_api::ServiceVersion;
use utoipa_axum::router::OpenApiRouter;

mod jobs;
mod webhooks;
mod workflows;

pub use jobs::{EventV1, IntentV1, JobIn, JobList, JobOut};
pub use webhooks::WebhookSecretOut;
pub use workflows::{NextV1, StepV1, VersionV1, WorkflowIn, WorkflowList, WorkflowOut};

/// The service name.
pub const SERVICE: &str = "transform";

/// transform/v1 for the registry.
pub fn version() -> ServiceVersion {
    ServiceVersion::new(SERVICE, 1, routes())
}

/// The routes of transform/v1 with their documented operations.
pub fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .merge(workflows::routes())
        .merge(jobs::routes())
        .merge(webhooks::routes())
}
