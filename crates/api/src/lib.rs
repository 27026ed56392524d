//! folio's versioned-service framework.

pub mod compat;
