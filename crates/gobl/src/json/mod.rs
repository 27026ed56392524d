//! A JSON value that keeps what a digest depends on: number literals exactly as written and
//! object members in the order they were written.
//!
//! serde_json without `arbitrary_precision` turns numbers into `f64`/`i64`, which would change
//! `90.00` into `90.0` and break digests, so this module carries its own strict RFC 8259 parser.
//!
//! Parser choices:
//! - nesting deeper than the limit (default [`DEFAULT_MAX_DEPTH`]) is an error; the parser is
//!   iterative, so even a huge limit cannot overflow the stack;
//! - **duplicate object keys are rejected**: "last wins" would let two readers of the same bytes
//!   disagree about what was signed;
//! - lone UTF-16 surrogates in `\u` escapes are rejected (they cannot be held in UTF-8);
//! - no trailing commas, comments, leading zeros, raw control characters in strings, or
//!   anything after the top-level value except whitespace.

use std::collections::HashSet;
use std::fmt;

pub mod access;
mod de;
mod macros;
pub(crate) mod map;
mod members;

pub(crate) use map::same_text;
pub use map::{Entry, Iter, IterMut, Map, OccupiedEntry, VacantEntry};
pub use members::{Member, parse_members};

/// Nesting depth allowed by [`parse`].
pub const DEFAULT_MAX_DEPTH: usize = 64;

/// The text a [`Value`] holds: object keys, strings and number literals. Most of them in a GOBL
/// document are short (keys, codes, amounts, dates) and are kept inline, without an allocation
/// of their own: allocating and freeing them was the largest cost of reading a document.
pub type Text = compact_str::CompactString;

/// A JSON value with number literals kept verbatim and object member order preserved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its literal text (always valid JSON number grammar).
    Number(Text),
    /// A string.
    String(Text),
    /// An array.
    Array(Vec<Value>),
    /// An object, members in document order.
    Object(Map),
}

/// Why a text is not acceptable JSON, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at line {line}, column {column}")]
pub struct ParseError {
    /// 1-based line of the offending character.
    pub line: usize,
    /// 1-based column (in characters) of the offending character.
    pub column: usize,
    /// Byte offset of the offending character.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// A [`Value`] that cannot be converted to a `serde_json::Value` (a number out of `f64` range).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("number {0} cannot be represented without arbitrary precision")]
pub struct ConversionError(pub String);

/// Parses `text` as one JSON value with the default depth limit.
pub fn parse(text: &str) -> Result<Value, ParseError> {
    parse_with_limit(text, DEFAULT_MAX_DEPTH)
}

/// Parses `text` as one JSON value; arrays and objects may nest at most `max_depth` levels.
pub fn parse_with_limit(text: &str, max_depth: usize) -> Result<Value, ParseError> {
    parse_noting_numbers(text, max_depth).map(|(value, _)| value)
}

/// [`parse_with_limit`], telling also whether every number of the text is already written as
/// serde_json writes it (as most documents' are: they carry amounts as strings), in which case
/// [`Value::normalize_numbers`] would change nothing and its walk of the tree can be skipped.
pub fn parse_noting_numbers(text: &str, max_depth: usize) -> Result<(Value, bool), ParseError> {
    let mut parser = Parser::new(text, max_depth);
    let value = parser.parse_document()?;
    Ok((value, parser.numbers_normal))
}

/// Parses UTF-8 bytes as one JSON value with the default depth limit.
pub fn parse_bytes(bytes: &[u8]) -> Result<Value, ParseError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(e) => {
            let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            let mut err = error_at(valid, valid.len(), "invalid UTF-8".into());
            err.offset = e.valid_up_to();
            Err(err)
        }
    }
}

fn error_at(src: &str, offset: usize, message: String) -> ParseError {
    let offset = offset.min(src.len());
    let mut cut = offset;
    while !src.is_char_boundary(cut) {
        cut -= 1;
    }
    let before = &src[..cut];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    ParseError {
        line,
        column,
        offset,
        message,
    }
}

/// A container under construction: where its items (or members) begin in the parser's shared
/// lists. Each container's list is allocated once, at its exact size, when it closes, rather
/// than grown (and moved) item by item as it is read.
enum Frame {
    Array {
        start: usize,
    },
    /// An object whose members are `open.members[start..]`, the last of them the one whose
    /// value is being read (its key in place, its value `null` until read). A member goes
    /// into the list when its key is read rather than whole once its value is: built on the
    /// stack from the two, it was read back in wider loads than it had been written with, and
    /// each read waited for its stores (docs/benchmarks.md, "The member built in its place").
    Object {
        start: usize,
        seen: Option<HashSet<Text>>,
    },
}

/// The items and members of the containers still open, innermost last.
#[derive(Default)]
struct Open {
    items: Vec<Value>,
    members: Vec<(Text, Value)>,
}

/// Objects with more members than this track keys in a hash set for the duplicate check.
const LINEAR_KEY_CHECK: usize = 16;

struct Parser<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    max_depth: usize,
    /// Whether every number so far is written as serde_json writes it.
    numbers_normal: bool,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `text`.
    fn new(text: &'a str, max_depth: usize) -> Parser<'a> {
        Parser {
            src: text,
            bytes: text.as_bytes(),
            pos: 0,
            max_depth,
            numbers_normal: true,
        }
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(error_at(self.src, self.pos, message.into()))
    }

    fn skip_ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                _ => break,
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn unexpected<T>(&self, wanted: &str) -> Result<T, ParseError> {
        match self.src[self.pos..].chars().next() {
            None => self.err(format!("unexpected end of input, expected {wanted}")),
            Some(c) => self.err(format!("unexpected character {c:?}, expected {wanted}")),
        }
    }

    fn parse_document(&mut self) -> Result<Value, ParseError> {
        let value = self.parse_value()?;
        self.end()?;
        Ok(value)
    }

    /// Nothing but whitespace is left.
    fn end(&mut self) -> Result<(), ParseError> {
        self.skip_ws();
        if self.pos < self.bytes.len() {
            return self.unexpected("end of input");
        }
        Ok(())
    }

    /// Iterative value parser: containers live on an explicit stack.
    fn parse_value(&mut self) -> Result<Value, ParseError> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut open = Open::default();
        loop {
            // Parse one value start; containers push a frame and continue to their first item.
            self.skip_ws();
            let mut value = match self.peek() {
                Some(b'{') | Some(b'[') => {
                    if stack.len() >= self.max_depth {
                        return self.err(format!("nesting deeper than {} levels", self.max_depth));
                    }
                    let open_byte = self.bytes[self.pos];
                    self.pos += 1;
                    self.skip_ws();
                    if open_byte == b'[' {
                        if self.peek() == Some(b']') {
                            self.pos += 1;
                            Value::Array(Vec::new())
                        } else {
                            let start = open.items.len();
                            stack.push(Frame::Array { start });
                            continue;
                        }
                    } else if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Value::Object(Map::new())
                    } else {
                        let key = self.parse_key()?;
                        let start = open.members.len();
                        open.members.push((key, Value::Null));
                        stack.push(Frame::Object { start, seen: None });
                        continue;
                    }
                }
                Some(b'"') => Value::String(self.parse_string()?),
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => Value::Number(self.parse_number()?),
                _ => return self.unexpected("a JSON value"),
            };
            // Attach the finished value to its parent; close parents that end here.
            loop {
                let Some(frame) = stack.last_mut() else {
                    return Ok(value);
                };
                self.skip_ws();
                let more = match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        true
                    }
                    Some(b']') if matches!(frame, Frame::Array { .. }) => {
                        self.pos += 1;
                        false
                    }
                    Some(b'}') if matches!(frame, Frame::Object { .. }) => {
                        self.pos += 1;
                        false
                    }
                    _ => {
                        return match frame {
                            Frame::Array { .. } => self.unexpected("',' or ']'"),
                            Frame::Object { .. } => self.unexpected("',' or '}'"),
                        };
                    }
                };
                match frame {
                    Frame::Array { .. } => open.items.push(value),
                    Frame::Object { .. } => {
                        // the frame's pending member is the list's last (the members of any
                        // object inside its value were split off when that object closed)
                        if let Some(member) = open.members.last_mut() {
                            member.1 = value;
                        }
                    }
                }
                if more {
                    if let Frame::Object { start, seen } = frame {
                        self.skip_ws();
                        let key_pos = self.pos;
                        let key = self.parse_key()?;
                        let members = &open.members[*start..];
                        if is_duplicate(members, |(k, _)| k, &key, seen) {
                            self.pos = key_pos;
                            return self.err(format!("duplicate object key {key:?}"));
                        }
                        open.members.push((key, Value::Null));
                    }
                    break;
                }
                value = match stack.pop() {
                    Some(Frame::Array { start }) => Value::Array(open.items.split_off(start)),
                    Some(Frame::Object { start, .. }) => {
                        Value::Object(Map::from_unique(open.members.split_off(start)))
                    }
                    None => unreachable!("stack checked non-empty above"),
                };
            }
        }
    }

    /// Parses `"key"` and the following `:`.
    fn parse_key(&mut self) -> Result<Text, ParseError> {
        if self.peek() != Some(b'"') {
            return self.unexpected("a string object key");
        }
        let key = self.parse_string()?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return self.unexpected("':'");
        }
        self.pos += 1;
        Ok(key)
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, ParseError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            self.unexpected("a JSON value")
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn parse_number(&mut self) -> Result<Text, ParseError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if matches!(self.peek(), Some(b'0'..=b'9')) {
                    return self.err("leading zeros are not allowed in numbers");
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.unexpected("a digit"),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return self.unexpected("a digit after '.'");
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return self.unexpected("a digit in the exponent");
            }
        }
        let literal = &self.src[start..self.pos];
        self.numbers_normal &= access::written_as_serde(literal);
        Ok(Text::new(literal))
    }

    fn parse_string(&mut self) -> Result<Text, ParseError> {
        self.pos += 1; // opening quote
        // Most strings hold no escape: taken whole, in one scan for the closing quote.
        let run = self.run_to_escape();
        if self.peek() == Some(b'"') {
            self.pos += 1;
            return Ok(Text::new(run));
        }
        let mut out = Text::new(run);
        loop {
            match self.peek() {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    out.push(self.parse_escape()?);
                    out.push_str(self.run_to_escape());
                }
                Some(b) => {
                    return self.err(format!(
                        "control character U+{b:04X} must be escaped in strings"
                    ));
                }
            }
        }
    }

    /// The character an escape stands for, read from just after its backslash.
    fn parse_escape(&mut self) -> Result<char, ParseError> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                return self.parse_unicode_escape();
            }
            _ => return self.unexpected("a valid escape character"),
        };
        self.pos += 1;
        Ok(c)
    }

    /// The text from here to the next byte a string cannot hold raw (its closing quote, an
    /// escape, a control character, or the end), which the position is moved to. It stops
    /// only on ASCII bytes, so both ends are char boundaries.
    fn run_to_escape(&mut self) -> &'a str {
        let start = self.pos;
        let rest = &self.bytes[start..];
        self.pos = start + find_escape(rest).unwrap_or(rest.len());
        &self.src[start..self.pos]
    }

    fn hex4(&mut self) -> Result<u16, ParseError> {
        let Some(digits) = self.src.get(self.pos..self.pos + 4) else {
            return self.err("expected four hex digits after \\u");
        };
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return self.err("expected four hex digits after \\u");
        }
        self.pos += 4;
        Ok(u16::from_str_radix(digits, 16).unwrap_or_default())
    }

    /// After `\u`: one code unit, or a surrogate pair written as two escapes.
    fn parse_unicode_escape(&mut self) -> Result<char, ParseError> {
        let start = self.pos - 2;
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if !self.bytes[self.pos..].starts_with(b"\\u") {
                    self.pos = start;
                    return self.err("lone high surrogate in \\u escape");
                }
                self.pos += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    self.pos = start;
                    return self.err("high surrogate not followed by a low surrogate");
                }
                0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00)
            }
            0xDC00..=0xDFFF => {
                self.pos = start;
                return self.err("lone low surrogate in \\u escape");
            }
            other => u32::from(other),
        };
        char::from_u32(code).map_or_else(|| self.err("invalid code point"), Ok)
    }
}

/// Whether `key` is the key (`key_of`) of one of an object's `members` so far: compared one by
/// one while they are few, then through `seen`, a set of them made once (so that a hostile
/// object of many keys is not checked in quadratic time).
fn is_duplicate<M>(
    members: &[M],
    key_of: impl Fn(&M) -> &Text,
    key: &str,
    seen: &mut Option<HashSet<Text>>,
) -> bool {
    if members.len() < LINEAR_KEY_CHECK {
        let key = key.as_bytes();
        return members
            .iter()
            .any(|m| map::same_bytes(key_of(m).as_bytes(), key));
    }
    let set = seen.get_or_insert_with(|| members.iter().map(|m| key_of(m).clone()).collect());
    // Members are pushed after their key is checked, so add this key now.
    !set.insert(Text::new(key))
}

impl Value {
    /// The member `key` of an object, or the item at a position of an array (as
    /// `serde_json::Value::get`).
    pub fn get(&self, at: impl access::At) -> Option<&Value> {
        at.at(self)
    }

    /// [`Value::get`], mutable.
    pub fn get_mut(&mut self, at: impl access::At) -> Option<&mut Value> {
        at.at_mut(self)
    }

    /// Sets member `key` of an object (replacing it in place, or appending it).
    /// Returns `false` when `self` is not an object.
    pub fn set(&mut self, key: &str, value: Value) -> bool {
        let Value::Object(members) = self else {
            return false;
        };
        members.insert(key.into(), value);
        true
    }

    /// The string, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The members, mutable, if this is an object.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The items, mutable, if this is an array.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The number literal, if this is a number.
    pub fn as_number_literal(&self) -> Option<&str> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as an `i64`, if it is an integer literal in range.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number_literal()?.parse().ok()
    }

    /// The boolean, if this is a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// `true` for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The JSON type name, for messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// A number value from an integer.
    pub fn from_i64(n: i64) -> Value {
        Value::Number(Text::from(itoa::Buffer::new().format(n)))
    }

    /// Compact JSON: members in their order, numbers exactly as written, minimal escaping.
    pub fn to_json_string(&self) -> String {
        let mut out = String::with_capacity(128);
        self.write_compact(&mut out);
        out
    }

    fn write_compact(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(true) => out.push_str("true"),
            Value::Bool(false) => out.push_str("false"),
            Value::Number(n) => out.push_str(n),
            Value::String(s) => write_json_string(out, s),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_compact(out);
                }
                out.push(']');
            }
            Value::Object(members) => {
                write_object(out, members.iter().map(|(k, v)| (k.as_str(), v)));
            }
        }
    }

    /// Converts to a `serde_json::Value`. Integer literals that fit `i64`/`u64` stay exact;
    /// other numbers become `f64` (so `90.00` becomes `90.0`); numbers beyond `f64` fail.
    pub fn to_serde(&self) -> Result<serde_json::Value, ConversionError> {
        Ok(match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::Value::Number(
                serde_json::from_str::<serde_json::Number>(n)
                    .map_err(|_| ConversionError(n.to_string()))?,
            ),
            Value::String(s) => serde_json::Value::String(s.to_string()),
            Value::Array(items) => serde_json::Value::Array(
                items
                    .iter()
                    .map(Value::to_serde)
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(members) => {
                let mut map = serde_json::Map::with_capacity(members.len());
                for (k, v) in members {
                    map.insert(k.to_string(), v.to_serde()?);
                }
                serde_json::Value::Object(map)
            }
        })
    }
}

/// Writes an object of `members` as compact JSON (see [`Value::to_json_string`]).
pub(crate) fn write_object<'a>(
    out: &mut String,
    members: impl IntoIterator<Item = (&'a str, &'a Value)>,
) {
    out.push('{');
    for (i, (k, v)) in members.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(out, k);
        out.push(':');
        v.write_compact(out);
    }
    out.push('}');
}

/// Writes `s` as a JSON string with the minimal escaping used by canonical JSON:
/// `\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r`, other controls as `\u00XX`; everything else raw.
#[inline]
pub(crate) fn write_json_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    // Most strings (keys, codes, amounts) need no escape: they are copied whole.
    if needs_no_escape(s.as_bytes()) {
        out.push_str(s);
    } else {
        write_escaped(out, s);
    }
    out.push('"');
}

/// The bytes a JSON string cannot hold raw: `"`, `\` and the control characters.
static NEEDS_ESCAPE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Whether no byte of `bytes` needs escaping. Texts of 4 to 16 bytes (most keys, codes and
/// amounts) are read as two overlapping words, shorter ones byte by byte without a loop;
/// longer ones eight bytes at a time.
fn needs_no_escape(bytes: &[u8]) -> bool {
    let n = bytes.len();
    let half = |at: usize| u64::from(half_at(bytes, at));
    match n {
        0 => true,
        // the first, middle and last bytes are all of them, looked up without a loop
        1..4 => {
            let escaped = |at: usize| NEEDS_ESCAPE[usize::from(bytes[at])];
            !(escaped(0) | escaped(n / 2) | escaped(n - 1))
        }
        4..8 => !word_needs_escape(half(0) | half(n - 4) << 32),
        8..=16 => {
            !(word_needs_escape(word_at(bytes, 0)) || word_needs_escape(word_at(bytes, n - 8)))
        }
        // eight at a time, the last eight overlapping the one before (no loop over the rest):
        // an add-on's extension keys, names, dates and uuids are this long
        _ => {
            let last = escape_bytes(word_at(bytes, n - 8));
            let words = bytes.chunks_exact(8).map(|c| escape_bytes(word_at(c, 0)));
            words.fold(last, |m, w| m | w) == 0
        }
    }
}

/// The eight bytes of `s` from `at`, as a little-endian word (`s` holds them).
#[inline(always)]
fn word_at(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or_default())
}

/// The four bytes of `s` from `at`, as a little-endian half word (`s` holds them).
#[inline(always)]
fn half_at(s: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or_default())
}

/// Whether a byte of the eight in `x` needs escaping.
fn word_needs_escape(x: u64) -> bool {
    escape_bytes(x) != 0
}

/// The high bit of each byte of the eight in `x` (little-endian) that needs escaping, exact
/// up to the first such byte: a borrow of the subtractions below only runs upwards from a
/// byte that matched, so bytes above the first match may be marked too, bytes below never.
fn escape_bytes(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Nonzero iff a byte of `x` is below `n` (`n` ≤ 0x80): the classic "has less" test.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    // A byte equal to `c` is a zero byte of `x ^ c…c`, i.e. below 1.
    below(x, 0x20)
        | below(x ^ (ONES * u64::from(b'"')), 1)
        | below(x ^ (ONES * u64::from(b'\\')), 1)
}

/// `s` with its escapes, between the quotes: the runs between escaped bytes copied whole.
/// Out of line: few texts need it, and [`write_json_string`]'s common path stays small.
#[cold]
#[inline(never)]
fn write_escaped(out: &mut String, s: &str) {
    let mut start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        if NEEDS_ESCAPE[usize::from(b)] {
            out.push_str(&s[start..i]);
            write_escape(out, b);
            start = i + 1;
        }
    }
    out.push_str(&s[start..]);
}

/// The first byte of `bytes` that needs escaping: eight bytes are checked at once (most text
/// has none), and the first marked byte of a matching eight is the one; the last few bytes
/// one by one.
fn find_escape(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let marked = escape_bytes(word_at(chunk, 0));
        if marked != 0 {
            return Some(at + (marked.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|&b| NEEDS_ESCAPE[usize::from(b)])
        .map(|n| at + n)
}

/// The escape of one byte that JSON strings cannot hold raw: `"`, `\` or a control character.
fn write_escape(out: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let short = match b {
        b'"' => "\\\"",
        b'\\' => "\\\\",
        b'\n' => "\\n",
        b'\r' => "\\r",
        b'\t' => "\\t",
        0x0c => "\\f",
        0x08 => "\\b",
        _ => "",
    };
    if short.is_empty() {
        out.push_str("\\u00");
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 0xf) as usize] as char);
    } else {
        out.push_str(short);
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json_string())
    }
}

impl std::str::FromStr for Value {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s)
    }
}

impl From<&serde_json::Value> for Value {
    fn from(v: &serde_json::Value) -> Self {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.to_string().into()),
            serde_json::Value::String(s) => Value::String(Text::new(s)),
            serde_json::Value::Array(a) => Value::Array(a.iter().map(Value::from).collect()),
            serde_json::Value::Object(m) => Value::Object(Map::from_unique(
                m.iter()
                    .map(|(k, v)| (Text::new(k), Value::from(v)))
                    .collect(),
            )),
        }
    }
}

impl From<serde_json::Value> for Value {
    fn from(v: serde_json::Value) -> Self {
        Value::from(&v)
    }
}

impl TryFrom<&Value> for serde_json::Value {
    type Error = ConversionError;
    fn try_from(v: &Value) -> Result<Self, Self::Error> {
        v.to_serde()
    }
}

impl TryFrom<Value> for serde_json::Value {
    type Error = ConversionError;
    fn try_from(v: Value) -> Result<Self, Self::Error> {
        v.to_serde()
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(Text::new(s))
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(Text::from(s))
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::from_i64(n)
    }
}

/// Serialises numbers exactly as written when the serializer is serde_json (via `RawValue`);
/// other formats get integers as integers and other literals as strings.
impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => {
                if let Ok(i) = n.parse::<i64>()
                    && i.to_string() == *n
                {
                    return serializer.serialize_i64(i);
                }
                let raw = serde_json::value::RawValue::from_string(n.to_string())
                    .map_err(serde::ser::Error::custom)?;
                raw.serialize(serializer)
            }
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(k.as_str(), v)?;
                }
                map.end()
            }
        }
    }
}

/// Deserialises through serde_json's `RawValue` and [`parse`], so numbers stay exact. Works with
/// serde_json deserializers only.
impl<'de> serde::Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <Box<serde_json::value::RawValue>>::deserialize(deserializer)?;
        parse(raw.get()).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_first_of_two_escapes_is_found() {
        // the word-wise search marks bytes above a match too: the first must still be the one
        let naive = |b: &[u8]| b.iter().position(|&c| c < 0x20 || c == b'"' || c == b'\\');
        let bytes = [
            0x00, 0x01, 0x1f, 0x20, 0x21, b'"', b'#', b'\\', b']', 0x7f, 0x80, 0xff, b'x',
        ];
        for len in [8, 9, 15, 16, 17] {
            for first in 0..len {
                for second in first + 1..len {
                    for a in bytes {
                        for b in bytes {
                            let mut text = vec![b'y'; len];
                            (text[first], text[second]) = (a, b);
                            assert_eq!(super::find_escape(&text), naive(&text), "{text:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn escapes_are_found_wherever_they_are() {
        let naive = |b: &[u8]| b.iter().position(|&c| c < 0x20 || c == b'"' || c == b'\\');
        // every path of `needs_no_escape`: bytes, two half words, two words, a loop of words
        for len in 0..48 {
            for at in 0..=len {
                for c in [
                    b'"', b'\\', 0x00, 0x1f, b'a', 0x7f, 0x80, 0xff, b'!', b'#', b'[', b']',
                ] {
                    let mut b = vec![b'x'; len];
                    if at < len {
                        b[at] = c;
                    }
                    assert_eq!(super::find_escape(&b), naive(&b), "{b:?}");
                    assert_eq!(super::needs_no_escape(&b), naive(&b).is_none(), "{b:?}");
                }
            }
        }
    }

    use super::*;

    #[test]
    fn keeps_literals_and_order() {
        let text = r#"{"z":90.00,"a":[1e2,-0,null],"m":"x"}"#;
        let v = parse(text).unwrap();
        assert_eq!(v.to_json_string(), text);
    }

    #[test]
    fn rejects_bad_input() {
        for bad in [
            "",
            "01",
            "1.",
            "-",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "\"\u{1}\"",
            "[1] x",
            "{\"a\":1,\"a\":2}",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\x\"",
            "tru",
            "NaN",
            "+1",
            ".5",
            "[",
            "{",
        ] {
            assert!(parse(bad).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn strings_read_as_written_around_escapes() {
        let texts = [
            "",
            "plain",
            "a run longer than eight bytes, then \"quoted\" and \\ a backslash",
            "\n\t\r\u{8}\u{c} at the start, é ü 漢字 🦀 in between",
            "ends with an escape\n",
            "\u{1}\u{1f} control characters, \u{7f} not one",
        ];
        for text in texts {
            // serde_json writes the escapes (`\n`, `\u0001`, ...); `\/` and a surrogate pair
            // are added by hand, after and before a run
            let written = serde_json::to_string(text).unwrap();
            let inner = &written[1..written.len() - 1];
            for json in [
                written.clone(),
                format!(r#""{inner}\/\ud83e\udd80x{inner}""#),
            ] {
                let want: String = serde_json::from_str(&json).unwrap();
                assert_eq!(parse(&json).unwrap(), Value::String(want.into()), "{json}");
            }
        }
    }

    #[test]
    fn error_position() {
        let err = parse("{\n  \"a\": tru\n}").unwrap_err();
        assert_eq!((err.line, err.column), (2, 8));
    }

    #[test]
    fn duplicate_keys_in_large_objects() {
        let mut text = String::from("{");
        for i in 0..40 {
            text.push_str(&format!("\"k{i}\":{i},"));
        }
        text.push_str("\"k3\":0}");
        assert!(parse(&text).unwrap_err().message.contains("duplicate"));
        text.truncate(text.len() - 8);
        text.push('}');
        assert!(parse(&text).is_ok());
    }

    #[test]
    fn numbers_normalised_as_serde_json_reads_and_writes_them() {
        for lit in [
            "0",
            "7",
            "-0",
            "-7",
            "1.50",
            "1e2",
            "1E-2",
            "-0.0",
            "0.1",
            "2.5e-7",
            "12345678901234567890",
            "99999999999999999999",
            "-9223372036854775808",
            "-9223372036854775809",
            "123456789012345678901234567890.5",
        ] {
            let text = format!("[{lit}]");
            let (mut ours, normal) = parse_noting_numbers(&text, DEFAULT_MAX_DEPTH).unwrap();
            ours.normalize_numbers().unwrap();
            let theirs: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(ours.to_json_string(), theirs.to_string(), "{lit}");
            // a text said to need no rewriting is written back as it was
            if normal {
                assert_eq!(ours.to_json_string(), text, "{lit}");
            }
            assert_eq!(normal, ["0", "7"].contains(&lit), "{lit}");
        }
        let mut beyond = parse("[1e400]").unwrap();
        assert!(beyond.normalize_numbers().is_err());
        assert!(serde_json::from_str::<serde_json::Value>("[1e400]").is_err());
    }

    #[test]
    fn serialize_keeps_numbers() {
        let v = parse(r#"{"b":1.50,"a":7,"c":-0,"d":1e400}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"b":1.50,"a":7,"c":-0,"d":1e400}"#
        );
        let back: Value = serde_json::from_str(r#"{"x": 2.10}"#).unwrap();
        assert_eq!(back.to_json_string(), r#"{"x":2.10}"#);
    }
}
