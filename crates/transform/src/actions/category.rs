//! The file category e-invoices are attached under, by the generate actions, the imports
//! (`received.rs`), the national formats and the hybrid PDF. A file of its own so those actions
//! share it without importing `einvoice.rs`, which itself calls `received.rs`.

/// Files written by the generate actions share this category; with the syntax as `key`, a
/// later run replaces the earlier file (which stays downloadable by its id).
pub(super) const CATEGORY: &str = "einvoice";
