//! Every SQL statement of the service. The only table it touches is `workspaces`, always the
//! row of the caller's [`Scope`](folio_store::Scope): its id is bound as `$1`.

pub(crate) mod workspace;
