//! utils/v1: `ping`, `uuid`, `services`.

use folio_api::ServiceVersion;
use utoipa_axum::router::OpenApiRouter;

mod ping;
mod services;
mod uuid;

/// The service name.
pub const SERVICE: &str = "utils";

/// utils/v1 for the registry.
pub fn version() -> ServiceVersion {
    ServiceVersion::new(SERVICE, 1, routes())
}

/// The routes of utils/v1 with their documented operations.
pub fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .merge(ping::routes())
        .merge(uuid::routes())
        .merge(services::routes())
}
