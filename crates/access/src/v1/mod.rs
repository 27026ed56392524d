//! access/v1: the token's workspace, with the wire shapes of Invopop's `access_v1`
//! (`AccessWorkspace`, `AccessUpdateWorkspace`).

use folio_api::ServiceVersion;
use utoipa_axum::router::OpenApiRouter;

mod workspace;

pub use workspace::{WorkspaceOut, WorkspacePatch};

/// The service name.
pub const SERVICE: &str = "access";

/// access/v1 for the registry. Handlers reach the domain through a `Handle<Access>` that the
/// server installs.
pub fn version() -> ServiceVersion {
    ServiceVersion::new(SERVICE, 1, routes())
}

/// The routes of access/v1 with their documented operations.
pub fn routes() -> OpenApiRouter {
    OpenApiRouter::new().merge(workspace::routes())
}
