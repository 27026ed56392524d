//! Canonical JSON, the exact bytes a GOBL digest hashes.
//!
//! Rules: no insignificant whitespace; object keys sorted by their UTF-8 bytes; object members
//! whose value is `null` removed (nulls inside arrays stay); a number literal that parses as an
//! `i64` is written as that integer (`-0` → `0`); any other number is written as the shortest
//! round-trip `f64` in `d.dddEx` form (capital `E`, no `+`, no exponent leading zeros, at least
//! one fractional digit: `0.0E0`, `1.234E2`, `5.0E-2`); strings are raw UTF-8 with only `"`, `\`
//! and control characters escaped (short escapes where JSON has them, else `\u00XX`).
//!
//! Known difference from the Go reference: its float writer garbles negative non-integer floats
//! (e.g. `-1.5e-7`); this module writes them correctly (`-1.5E-7`). GOBL documents carry amounts
//! as strings, so such numbers do not occur in practice.

use std::cmp::Ordering;

use crate::json::{Value, write_json_string};

/// Why a value has no canonical form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CanonicalError {
    /// A number that does not fit a 64-bit float (e.g. `1e400`).
    #[error("number {0} is out of range for a 64-bit float")]
    NumberOutOfRange(String),
    /// A number literal that is not valid JSON (only possible for hand-built values).
    #[error("{0:?} is not a valid JSON number")]
    InvalidNumber(String),
}

/// The canonical JSON text of `value`.
pub fn canonical(value: &Value) -> Result<String, CanonicalError> {
    let mut out = Out::whole();
    write_tree(&mut out, value, &mut Vec::new())?;
    Ok(out.text)
}

/// The canonical JSON of `value` as bytes (what the digest hashes).
pub fn canonical_bytes(value: &Value) -> Result<Vec<u8>, CanonicalError> {
    canonical(value).map(String::into_bytes)
}

/// Canonical form of one number literal: `"56"` → `56`, `"123.4"` → `1.234E2`.
pub fn canonical_number(literal: &str) -> Result<String, CanonicalError> {
    let mut out = String::new();
    write_number(&mut out, literal)?;
    Ok(out)
}

/// One node of a [`Value`], as the canonical writer reads it.
enum Node<'a> {
    Null,
    Bool(bool),
    /// A number literal that is its own canonical form (an integer of a few digits).
    Canonical(&'a str),
    Number(&'a str),
    String(&'a str),
    Array(&'a [Value]),
    /// An object; its members that are not `null` are on top of the list of members.
    Object,
}

/// The members of the objects being written, a list shared by the whole tree: each object
/// pushes its own on top and takes them off when written, rather than allocating a list of
/// its own to sort.
type Members<'a> = Vec<(&'a str, &'a Value)>;

/// `value` as a [`Node`]; an object's members that are not `null` (in any order) are pushed
/// onto `members`.
fn node<'a>(value: &'a Value, members: &mut Members<'a>) -> Node<'a> {
    match value {
        Value::Null => Node::Null,
        Value::Bool(b) => Node::Bool(*b),
        // an integer of a few digits (an index, a count) is its own canonical form
        Value::Number(n) if n.len() < 16 && n.bytes().all(|b| b.is_ascii_digit()) => {
            Node::Canonical(n)
        }
        Value::Number(n) => Node::Number(n),
        Value::String(s) => Node::String(s),
        Value::Array(items) => Node::Array(items),
        Value::Object(m) => {
            members.extend(
                m.iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.as_str(), v)),
            );
            Node::Object
        }
    }
}

/// [`canonical`] handed to `each` in pieces of a few kilobytes, in order: a digest hashes them
/// as they come instead of holding (and growing) the whole text.
pub fn canonical_pieces(value: &Value, each: &mut dyn FnMut(&str)) -> Result<(), CanonicalError> {
    let mut out = Out {
        text: String::with_capacity(2 * PIECE),
        each: Some(each),
    };
    write_tree(&mut out, value, &mut Vec::new())?;
    out.hand_over();
    Ok(())
}

/// The size from which the text written so far is handed over as a piece.
const PIECE: usize = 4096;

/// Where canonical text goes: a string kept whole, or one handed over piece by piece.
struct Out<'f> {
    text: String,
    each: Option<&'f mut dyn FnMut(&str)>,
}

impl Out<'_> {
    fn whole() -> Self {
        Out {
            text: String::with_capacity(256),
            each: None,
        }
    }

    /// Hand over the text written so far, if there is a taker.
    fn hand_over(&mut self) {
        if let Some(each) = self.each.as_mut() {
            each(&self.text);
            self.text.clear();
        }
    }

    /// [`Self::hand_over`] once a piece's worth is written (called between values).
    fn piece_done(&mut self) {
        if self.text.len() >= PIECE {
            self.hand_over();
        }
    }
}

fn write_tree<'a>(
    out: &mut Out<'_>,
    value: &'a Value,
    members: &mut Members<'a>,
) -> Result<(), CanonicalError> {
    let start = members.len();
    let text = &mut out.text;
    match node(value, members) {
        Node::Null => text.push_str("null"),
        Node::Bool(true) => text.push_str("true"),
        Node::Bool(false) => text.push_str("false"),
        Node::Canonical(n) => text.push_str(n),
        Node::Number(n) => write_number(text, n)?,
        Node::String(s) => write_json_string(text, s),
        Node::Array(items) => {
            text.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.text.push(',');
                }
                write_tree(out, item, members)?;
                out.piece_done();
            }
            out.text.push(']');
        }
        Node::Object => {
            let end = members.len();
            members[start..end].sort_by(|a, b| key_order(a.0, b.0));
            text.push('{');
            for i in start..end {
                if i > start {
                    out.text.push(',');
                }
                let (k, v) = members[i];
                write_json_string(&mut out.text, k);
                out.text.push(':');
                // The members of `v` go on top of this object's, and are taken off again.
                write_tree(out, v, members)?;
                out.piece_done();
            }
            out.text.push('}');
            members.truncate(start);
        }
    }
    Ok(())
}

/// The order of an object's keys: by their bytes (Rust's `str` ordering, i.e. UTF-8 and
/// code-point order). Most keys differ in their first byte, which then decides alone.
fn key_order(a: &str, b: &str) -> Ordering {
    match (a.as_bytes().first(), b.as_bytes().first()) {
        (Some(x), Some(y)) if x != y => x.cmp(y),
        _ => a.cmp(b),
    }
}

fn is_json_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

fn write_number(out: &mut String, literal: &str) -> Result<(), CanonicalError> {
    if !is_json_number(literal) {
        return Err(CanonicalError::InvalidNumber(literal.to_owned()));
    }
    if let Ok(int) = literal.parse::<i64>() {
        out.push_str(itoa::Buffer::new().format(int));
        return Ok(());
    }
    let float: f64 = literal
        .parse()
        .map_err(|_| CanonicalError::InvalidNumber(literal.to_owned()))?;
    if !float.is_finite() {
        return Err(CanonicalError::NumberOutOfRange(literal.to_owned()));
    }
    // `{:e}` gives the shortest round-trip digits: `1.234e2`, `5e-2`, `0e0`, `-1.5e-7`.
    let text = format!("{float:e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    out.push_str(mantissa);
    if !mantissa.contains('.') {
        out.push_str(".0");
    }
    out.push('E');
    out.push_str(exponent);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::canonical_number as n;

    #[test]
    fn pieces_make_the_whole_text() {
        let items: Vec<crate::json::Value> = (0..2000)
            .map(|i| crate::json!({"i": i, "n": -i, "x": 1.5, "name": format!("item \"{i}\"\n")}))
            .collect();
        let v = crate::json!({"b": items, "a": null});
        let whole = super::canonical(&v).unwrap();
        let mut pieces = Vec::new();
        super::canonical_pieces(&v, &mut |p| pieces.push(p.to_string())).unwrap();
        assert!(pieces.len() > 1);
        assert_eq!(pieces.concat(), whole);
    }

    #[test]
    fn numbers() {
        assert_eq!(n("0.0").unwrap(), "0.0E0");
        assert_eq!(n("56").unwrap(), "56");
        assert_eq!(n("0").unwrap(), "0");
        assert_eq!(n("123.4").unwrap(), "1.234E2");
        assert_eq!(n("0.05").unwrap(), "5.0E-2");
        assert_eq!(n("1e2").unwrap(), "1.0E2");
        assert_eq!(n("-0").unwrap(), "0");
        assert!(n("1e400").is_err());
        assert!(n("abc").is_err());
        for i in [
            "7",
            "-12",
            "9223372036854775807",
            "-9223372036854775808",
            "1000",
        ] {
            assert_eq!(n(i).unwrap(), i);
        }
    }

    #[test]
    fn keys_sort_by_their_bytes() {
        let mut keys = ["b", "", "ab", "a", "é", "Z", "aa", "$x", "a\u{0}"];
        let mut want = keys;
        want.sort();
        keys.sort_by(|a, b| super::key_order(a, b));
        assert_eq!(keys, want);
    }
}
