//! OpenAPI compatibility checker (to be written).
