//! silo/v1: envelopes, their versions, files and states, the workspace's public keys and signing
//! identities, GOBL built and signed without storing it, and the spool of temporary uploads.

use folio_api::ServiceVersion;
use utoipa_axum::router::OpenApiRouter;

mod entries;
mod envelopes;
mod files;
mod gobl;
mod identities;
mod keys;
mod related;
mod search;
mod spool;
mod states;
mod versions;

pub use envelopes::{DigestOut, EnvelopeIn, EnvelopeList, EnvelopeOut, EnvelopePatch};
pub use files::{FileIn, FileOut};
pub use gobl::{BuildIn, GoblOut, SignIn};
pub use identities::{IdentityIn, IdentityList, IdentityOut};
pub use keys::KeySet;
pub use spool::{SpoolIn, SpoolOut};
pub use states::{StateIn, StateList, StateOut};
pub use versions::{VersionList, VersionOut, VersionSummary};

/// The service name.
pub const SERVICE: &str = "silo";

/// silo/v1 for the registry. Handlers reach the domain through a `Handle<Silo>` that the
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
        .merge(identities::routes())
        .merge(gobl::routes())
        .merge(entries::routes())
        .merge(search::routes())
        .merge(related::routes())
        .merge(spool::routes())
}

/// Tags and meta of the wire are optional: absent means empty.
fn or_default<T: Default>(value: Option<T>) -> T {
    value.unwrap_or_default()
}
