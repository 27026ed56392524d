//! The transform service: workflows (ordered steps with branching) and the durable jobs that
//! run them.
//!
//! - [`workflow`]: definitions, validation at save time, the definition hash;
//! - [`Transform`]: the domain API (workflows, jobs, waiting) and the service state the HTTP
//!   layer uses; [`Transform::start`] runs this node's workers;
//! - [`engine`]: the queue (rows with leases), the step runner and completion notices;
//! - `db`: every SQL statement of the service, as typed functions bound to a workspace;
//! - [`actions`]: the [`actions::Action`] trait, its registry and the built-in actions;
//! - [`outbound`]: the guard on where actions may connect;
//! - [`signing`]: webhook signatures and each workspace's secret;
//! - [`v1`]: the HTTP layer of transform/v1.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use folio_silo::Silo;
use folio_store::{Scope, Store};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

pub mod actions;
mod chains;
pub mod config;
mod db;
pub mod engine;
mod envelopes;
mod error;
mod jobs;
pub mod model;
pub mod outbound;
pub mod signing;
#[cfg(test)]
mod testing;
pub mod v1;
mod webhook_schedule;
pub mod workflow;
mod workflows;

pub use config::TransformConfig;
pub use error::{TransformError, TransformResult};

/// The transform service's state and domain API; cheap to clone.
#[derive(Clone)]
pub struct Transform {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    silo: Silo,
    sequence: folio_sequence::Sequence,
    registry: actions::Registry,
    config: TransformConfig,
    /// Made on first use: building it loads the system's CA certificates, which a node that
    /// never calls out would hold for nothing.
    http: std::sync::OnceLock<reqwest::Client>,
    /// Completion notices, for `?wait`.
    done: broadcast::Sender<Notice>,
    /// Wakes an idle worker.
    wake: engine::wake::Wake,
    /// Jobs made here for this node's idle workers, claimed already.
    handoff: engine::handoff::Handoff,
    /// Ready and done notices for the other nodes (PostgreSQL).
    notices: engine::notices::Notices,
    /// Cancelled when the node shuts down (ends `?wait`s early).
    stopping: CancellationToken,
    /// Published definitions by (workspace, workflow, version): immutable, so never stale.
    definitions: Mutex<HashMap<(Scope, Uuid, i64), Arc<workflow::Definition>>>,
    /// The version each workflow last had when a job was made on it here: a hint, which the
    /// insert of the next job checks (a later version or a disabled workflow fails it).
    seen_versions: Mutex<HashMap<(Scope, Uuid), i64>>,
}

/// What `?wait` requests hear about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Notice {
    /// This job finished.
    Done(Uuid),
    /// Notices may have been missed (the PostgreSQL listener was reconnected): every waiter
    /// reads its job again.
    Recheck,
}

impl std::fmt::Debug for Transform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transform").finish_non_exhaustive()
    }
}

impl Transform {
    /// The service with the built-in actions.
    pub fn new(store: Store, silo: Silo, config: TransformConfig) -> Self {
        let registry = actions::Registry::builtin_with(&config.outbound);
        Self::with_registry(store, silo, config, registry)
    }

    /// The service with a chosen set of actions.
    pub fn with_registry(
        store: Store,
        silo: Silo,
        config: TransformConfig,
        registry: actions::Registry,
    ) -> Self {
        let (done, _) = broadcast::channel(4096);
        Transform {
            inner: Arc::new(Inner {
                notices: engine::notices::Notices::new(store.clone()),
                sequence: folio_sequence::Sequence::new(store.clone()),
                store,
                silo,
                registry,
                config,
                http: std::sync::OnceLock::new(),
                done,
                wake: Default::default(),
                handoff: Default::default(),
                stopping: CancellationToken::new(),
                definitions: Mutex::new(HashMap::new()),
                seen_versions: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// The silo (envelopes).
    pub fn silo(&self) -> &Silo {
        &self.inner.silo
    }

    /// The sequence service (invoice numbers).
    pub fn sequence(&self) -> &folio_sequence::Sequence {
        &self.inner.sequence
    }

    /// The actions.
    pub fn registry(&self) -> &actions::Registry {
        &self.inner.registry
    }

    /// The engine settings.
    pub fn config(&self) -> &TransformConfig {
        &self.inner.config
    }

    /// The HTTP client of actions, guarded by the outbound policy.
    pub fn http(&self) -> &reqwest::Client {
        self.inner
            .http
            .get_or_init(|| outbound::client(&self.inner.config.outbound))
    }

    /// The workspace's webhook signing secret (created on first use).
    pub async fn webhook_secret(&self, scope: Scope) -> TransformResult<signing::WebhookSecret> {
        signing::fetch(self.store(), scope).await
    }

    /// Rotates the workspace's webhook secret; the old one signs on for the configured overlap.
    pub async fn rotate_webhook_secret(
        &self,
        scope: Scope,
    ) -> TransformResult<signing::WebhookSecret> {
        let overlap = self.config().webhook_secret_overlap_s;
        signing::rotate(self.store(), scope, overlap).await
    }
}
