//! The transform service.
