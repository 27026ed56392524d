//! silo/v1: envelopes, their versions, files and states, the workspace's public keys and signing
//! identities, GOBL built and signed without storing it, and the spool of temporary uploads.

use folio_api::ServiceVersion;
use utoipa_axum::router::OpenApiRouter;

mod answer;
mod entries;
mod envelopes;
mod files;
mod gobl;
mod identities;
mod keys;
pub(crate) mod operations;
mod read;
mod related;
mod search;
mod spool;
mod states;
mod versions;
mod wire;

pub use envelopes::{DigestOut, EnvelopeIn, EnvelopeList, EnvelopeOut, EnvelopePatch};
pub use files::{FileIn, FileOut};
pub use gobl::{BuildIn, GoblOut, SignIn};
pub use identities::{IdentityIn, IdentityList, IdentityOut};
pub use keys::KeySet;
pub use spool::{SpoolIn, SpoolOut};
pub use states::{StateIn, StateList, StateOut};
pub use versions::{VersionList, VersionOut, VersionSummary};
pub use wire::{Component, V1, Wire};

/// The service name.
pub const SERVICE: &str = "silo";

/// silo/v1 for the registry. Handlers reach the domain through a `Handle<Silo>` that the
/// server installs.
pub fn version() -> ServiceVersion {
    ServiceVersion::new(SERVICE, 1, routes::<V1>())
}

/// The routes of silo/v1 with their documented operations, served under `W`'s prefix with
/// `W`'s shapes (v1's own for [`V1`]).
pub fn routes<W: Wire>() -> OpenApiRouter {
    let routes = OpenApiRouter::new()
        .merge(envelopes::routes::<W>())
        .merge(versions::routes::<W>())
        .merge(files::routes::<W>())
        .merge(states::routes::<W>())
        .merge(keys::routes::<W>())
        .merge(identities::routes::<W>())
        .merge(gobl::routes::<W>())
        .merge(entries::routes::<W>())
        .merge(search::routes::<W>())
        .merge(related::routes::<W>())
        .merge(spool::routes::<W>());
    operations::finish::<W>(routes)
}

/// Tags and meta of the wire are optional: absent means empty.
fn or_default<T: Default>(value: Option<T>) -> T {
    value.unwrap_or_default()
}
