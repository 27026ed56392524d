//! Taxes: regime definitions, combos and totals.

pub mod defs;
pub mod global;

pub use defs::{CategoryDef, KeyDef, RateDef, RateValue, RegimeDef, Scenario};
