//! The rest of `serde_json::Value`'s surface that the calculation reads and writes documents
//! with, giving the same results, so that it works on this tree unchanged: type tests, number
//! reads, `take`, JSON pointers, indexing that answers `null` for what is not there, and
//! conversions from Rust values (numbers written as serde_json writes them).

use std::borrow::Cow;

use super::{Map, Text, Value};

static NULL: Value = Value::Null;

impl Value {
    /// `true` for an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// `true` for an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// `true` for a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// `true` for a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// `true` for `true` or `false`.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// The number as an `f64`, if this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number_literal()?.parse().ok()
    }

    /// The number as a `u64`, if it is a non-negative integer literal in range.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number_literal()?.parse().ok()
    }

    /// The value, leaving `null` in its place.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }

    /// The value at a JSON pointer (RFC 6901), e.g. `/supplier/tax_id/country`.
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        let mut at = self;
        for token in pointer_tokens(pointer)? {
            at = match at {
                Value::Object(m) => m.get(&token)?,
                Value::Array(a) => a.get(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(at)
    }

    /// The value at a JSON pointer, mutable.
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        let mut at = self;
        for token in pointer_tokens(pointer)? {
            at = match at {
                Value::Object(m) => m.get_mut(&token)?,
                Value::Array(a) => a.get_mut(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(at)
    }
}

/// A pointer's reference tokens, unescaped (`~1` is `/`, `~0` is `~`); `None` when it is
/// neither empty nor starts with `/`.
fn pointer_tokens(pointer: &str) -> Option<impl Iterator<Item = Cow<'_, str>>> {
    if !(pointer.is_empty() || pointer.starts_with('/')) {
        return None;
    }
    Some(pointer.split('/').skip(1).map(|t| {
        if t.contains('~') {
            Cow::Owned(t.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(t)
        }
    }))
}

/// An array index token: digits without a leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() > 1) {
        return None;
    }
    token.parse().ok()
}

/// `value["key"]`: the member, or `null` when there is none or this is not an object.
impl std::ops::Index<&str> for Value {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

/// `value[i]`: the item, or `null` when there is none or this is not an array.
impl std::ops::Index<usize> for Value {
    type Output = Value;
    fn index(&self, i: usize) -> &Value {
        self.as_array().and_then(|a| a.get(i)).unwrap_or(&NULL)
    }
}

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl From<Text> for Value {
    fn from(s: Text) -> Value {
        Value::String(s)
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Value {
        Value::String(Text::new(s))
    }
}

impl From<Cow<'_, str>> for Value {
    fn from(s: Cow<'_, str>) -> Value {
        Value::String(Text::new(s))
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Object(m)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(items: Vec<T>) -> Value {
        Value::Array(items.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(Text::from(itoa::Buffer::new().format(n)))
            }
        }
    )*};
}

from_integer!(u8, u16, u32, u64, usize, i8, i16, i32, isize);

/// A float as serde_json writes it; not finite is `null` (as `serde_json::Value::from`).
impl From<f64> for Value {
    fn from(f: f64) -> Value {
        match serde_json::Number::from_f64(f) {
            Some(n) => Value::Number(Text::from(n.to_string())),
            None => Value::Null,
        }
    }
}

impl From<serde_json::Number> for Value {
    fn from(n: serde_json::Number) -> Value {
        Value::Number(Text::from(n.to_string()))
    }
}

/// Builds a [`Value`] with `serde_json::json!`'s syntax (through serde_json: for literals
/// off the hot path).
#[macro_export]
macro_rules! json {
    ($($t:tt)+) => {
        $crate::json::Value::from(::serde_json::json!($($t)+))
    };
}

/// `value["key"] = v`: a `null` becomes an object first and a missing member is added (as
/// serde_json's); indexing any other kind of value this way is a programming error and panics.
impl std::ops::IndexMut<&str> for Value {
    fn index_mut(&mut self, key: &str) -> &mut Value {
        if self.is_null() {
            *self = Value::Object(Map::new());
        }
        match self {
            Value::Object(m) => m.entry(Text::new(key)).or_insert(Value::Null),
            other => panic!("cannot set member {key:?} of a JSON {}", other.type_name()),
        }
    }
}

/// What [`Value::get`] takes: a member name or an array position.
pub trait At {
    /// The value this names in `v`.
    fn at<'v>(&self, v: &'v Value) -> Option<&'v Value>;
    /// The value this names in `v`, mutable.
    fn at_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;
}

impl At for str {
    fn at<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_object()?.get(self)
    }
    fn at_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_object_mut()?.get_mut(self)
    }
}

impl At for String {
    fn at<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().at(v)
    }
    fn at_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().at_mut(v)
    }
}

impl At for Text {
    fn at<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().at(v)
    }
    fn at_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().at_mut(v)
    }
}

impl At for usize {
    fn at<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array()?.get(*self)
    }
    fn at_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_array_mut()?.get_mut(*self)
    }
}

impl<T: At + ?Sized> At for &T {
    fn at<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).at(v)
    }
    fn at_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).at_mut(v)
    }
}

/// `value[i] = v` for an item that is there; anything else is a programming error and panics
/// (as serde_json's).
impl std::ops::IndexMut<usize> for Value {
    fn index_mut(&mut self, i: usize) -> &mut Value {
        match self {
            Value::Array(a) => &mut a[i],
            other => panic!("cannot set item {i} of a JSON {}", other.type_name()),
        }
    }
}
