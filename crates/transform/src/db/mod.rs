//! Every SQL statement of the service, one file per table (the worker's statements on jobs
//! apart, in `queue`; the nodes' notices in `notices`). Functions take the workspace's [`Scope`](folio_store::Scope) first and
//! bind it as `$1`; only the queue's claim, which serves every workspace, runs without one.

pub(crate) mod chains;
pub(crate) mod intents;
pub(crate) mod jobs;
pub(crate) mod nodes;
pub(crate) mod notices;
#[cfg(test)]
mod plans;
pub(crate) mod queue;
pub(crate) mod webhook_secrets;
pub(crate) mod workflow_versions;
pub(crate) mod workflows;
