//! folio-store
