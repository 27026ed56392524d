//! The `access` service: what a token may know and change about its own workspace.
//!
//! [`Access`] is the version-independent domain API; its SQL lives in `db/`. Invopop's access
//! service also enrolls OAuth applications into workspaces and lists a user's organisations;
//! folio has no application platform and no users (a token belongs to one workspace), so only
//! the workspace operations exist here (see `docs/access.md`). `v1` is the HTTP layer of
//! version 1.

use folio_store::Store;

mod db;
mod error;
mod model;
pub mod v1;
mod workspace;

pub use error::{AccessError, AccessResult};
pub use model::{Profile, ProfileChange};

/// The access service's domain API; cheap to clone.
#[derive(Clone, Debug)]
pub struct Access {
    store: Store,
}

impl Access {
    /// An access service over a store.
    pub fn new(store: Store) -> Access {
        Access { store }
    }
}
