//! silo/v1.
