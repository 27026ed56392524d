//! The silo service.
