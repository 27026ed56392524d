//! The silo service: GOBL envelopes stored per workspace, with versions, files and states.
//!
//! [`Silo`] is the version-independent domain API (used by `v1` and by other services, e.g.
//! transform); every method takes the workspace's `Scope` first and every statement (all in
//! `db/`) is bound to it, so another workspace's envelope is simply not found. `v1` is the
//! HTTP layer of version 1, generic over its wire shapes; `v2` is that layer over Invopop's.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};

use folio_api::limits::Limits;
use folio_store::{Blobs, Scope, Store};

pub mod browse;
mod db;
mod detached;
mod envelopes;
mod error;
mod files;
mod fingerprint;
pub mod identities;
mod import;
pub mod ingest;
pub mod keys;
mod meta;
mod model;
pub mod paging;
pub mod patch;
mod query;
pub mod related;
mod search;
pub mod spool;
mod states;
mod summary;
#[cfg(feature = "testing")]
pub mod testing;
pub mod v1;
pub mod v2;

pub use db::envelopes::exists_condition as envelope_exists_condition;
pub use detached::Correction;
pub use error::{SiloError, SiloResult};
pub use identities::NewIdentity;
pub use keys::{WorkspaceKeys, ensure_workspace_key};
pub use meta::{Meta, MetaRow};
pub use model::{
    Entry, EnvelopeUpdate, FileInfo, History, IdentityInfo, NewEnvelope, NewFile, NewState,
    SpoolFile, State, Version,
};
pub use paging::ListQuery;
pub use query::{BrowseQuery, Browsed, RelatedQuery};
pub use search::SearchQuery;
pub use states::STATES;

/// The silo's domain API; cheap to clone.
#[derive(Clone)]
pub struct Silo {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    blobs: Blobs,
    limits: Limits,
    keys: RwLock<HashMap<Scope, Arc<WorkspaceKeys>>>,
    /// A run of `index_search` is scheduled (see `search.rs`).
    indexing: AtomicBool,
}

impl std::fmt::Debug for Silo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Silo").finish_non_exhaustive()
    }
}

impl Silo {
    /// A silo over a store (envelope rows) and a blob store (file contents), with the server's
    /// limits (JSON depth, files per envelope, file size).
    pub fn new(store: Store, blobs: Blobs, limits: Limits) -> Silo {
        Silo {
            inner: Arc::new(Inner {
                store,
                blobs,
                limits,
                keys: RwLock::new(HashMap::new()),
                indexing: AtomicBool::new(false),
            }),
        }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// The blob store.
    pub fn blobs(&self) -> &Blobs {
        &self.inner.blobs
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// The workspace's keys (created on first use), cached: keys are only ever added.
    pub async fn keys(&self, ws: Scope) -> SiloResult<Arc<WorkspaceKeys>> {
        if let Some(keys) = self
            .inner
            .keys
            .read()
            .ok()
            .and_then(|m| m.get(&ws).cloned())
        {
            return Ok(keys);
        }
        let keys = Arc::new(keys::load(self.store(), ws).await?);
        if let Ok(mut map) = self.inner.keys.write() {
            map.insert(ws, keys.clone());
        }
        Ok(keys)
    }

    /// The opened PKCS#12 file and password the workspace signs with: the identity `id`, or,
    /// when `None`, the newest one whose certificate is valid now (see
    /// [`identities::signing_identity`]). For the actions that sign documents.
    pub async fn signing_identity(
        &self,
        ws: Scope,
        id: Option<uuid::Uuid>,
    ) -> SiloResult<Option<(Vec<u8>, String)>> {
        identities::signing_identity(self.store(), ws, id).await
    }

    /// The workspace's public keys as a JWK set (`{"keys": [...]}` members).
    pub async fn public_keys(&self, ws: Scope) -> SiloResult<Vec<gobl::sign::Jwk>> {
        let keys = self.keys(ws).await?;
        Ok(keys.public.iter().map(|k| k.to_jwk()).collect())
    }
}
