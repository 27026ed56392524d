//! The `utils` service: connection test, UUID generation and discovery of services.
//!
//! `uuids` is the version-independent domain code; `v1` is the HTTP layer of version 1.

pub mod uuids;
pub mod v1;
