//! Every SQL statement of the service, one file per table. Functions take the workspace's
//! [`Scope`](folio_store::Scope) first and bind it as `$1`; no statement runs without it.

pub(crate) mod entries;
pub(crate) mod series;
