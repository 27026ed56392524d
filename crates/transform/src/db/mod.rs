//! Every SQL statement of the service, one file per table. Functions take the workspace's
//! [`Scope`](folio_store::Scope) first and bind it as `$1`.

pub(crate) mod webhook_secrets;
