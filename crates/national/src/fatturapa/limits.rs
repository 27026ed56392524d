//! The received side's limits, in a file of their own: the element tree enforces them and
//! `ImportError` names them, and neither should import the other for that.

/// The largest file read (SDI itself takes files of at most 5 MB).
pub const MAX_BYTES: usize = 16 * 1024 * 1024;
/// The deepest nesting accepted; FatturaPA needs 7 levels, signatures a few more.
pub const MAX_DEPTH: usize = 48;
/// The most elements read.
pub const MAX_ELEMENTS: usize = 400_000;
