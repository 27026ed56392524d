//! silo/v1: envelopes, their versions, files and states, and the workspace's public keys.

use folio_api::ServiceVersion;
use utoipa_axum::router::OpenApiRouter;

mod envelopes;
mod files;
mod keys;
mod states;
mod versions;

pub use envelopes::{DigestOut, EnvelopeIn, EnvelopeList, EnvelopeOut, EnvelopePatch};
pub use files::{FileIn, FileOut};
pub use keys::KeySet;
pub use states::{StateIn, StateList, StateOut};
pub use versions::{VersionList, VersionOut, VersionSummary};

/// The service name.
pub const SERVICE: &str = "silo";

/// silo/v1 for the registry. Handlers reach the domain through an `Extension<Silo>` that the
/// server installs.
pub fn version() -> ServiceVersion {
    ServiceVersion::new(SERVICE, 1, routes())
}

/// The routes of silo/v1 with their documented operations.
pub fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .merge(envelopes::routes())
        .merge(versions::routes())
        .merge(files::routes())
        .merge(states::routes())
        .merge(keys::routes())
}

/// Tags and meta of the wire are optional: absent means empty.
fn or_default<T: Default>(value: Option<T>) -> T {
    value.unwrap_or_default()
}
