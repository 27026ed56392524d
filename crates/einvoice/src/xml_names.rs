//! Comparing a tag's namespace prefixes, as the two fast readers do for every element they
//! open: the prefixes are a few bytes (`ram`, `udt`, `cac`, `cbc`: most the same length, so
//! the lengths rarely settle it), and `==` on `str` calls `memcmp`, whose call costs more than
//! comparing them in line.

/// `a == b`, compared in line.
pub(crate) fn same_prefix(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}
