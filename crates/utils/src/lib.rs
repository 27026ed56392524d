//! The utils service.
