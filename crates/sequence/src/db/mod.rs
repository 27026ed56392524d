//! Every SQL statement of the service. Functions take the workspace first; no statement runs
//! without it.

pub(crate) mod entries;
pub(crate) mod series;
