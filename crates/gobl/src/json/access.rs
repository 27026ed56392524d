//! The rest of `serde_json::Value`'s surface that the calculation reads and writes documents
//! with, giving the same results, so that it works on this tree unchanged: type tests, number
//! reads, `take`, JSON pointers, indexing that answers `null` for what is not there, and
//! conversions from Rust values (numbers written as serde_json writes them).

use std::borrow::Cow;

use super::{ConversionError, Map, Text, Value};

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

    /// Rewrites every number as serde_json writes it once read (`1.50` → `1.5`, `1e2` →
    /// `100.0`), so that a tree read by [`super::parse`] holds what the same text read into a
    /// `serde_json::Value` would: the builder's output is defined by that. Fails on a number
    /// serde_json refuses (beyond `f64`).
    pub fn normalize_numbers(&mut self) -> Result<(), ConversionError> {
        match self {
            Value::Number(n) => {
                if !written_as_serde(n) {
                    let parsed: serde_json::Number =
                        n.parse().map_err(|_| ConversionError(n.to_string()))?;
                    *n = Text::from(parsed.to_string());
                }
            }
            Value::Array(items) => {
                for item in items {
                    item.normalize_numbers()?;
                }
            }
            Value::Object(members) => {
                for v in members.values_mut() {
                    v.normalize_numbers()?;
                }
            }
            Value::Null | Value::Bool(_) | Value::String(_) => {}
        }
        Ok(())
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

/// What [`crate::json!`] takes as a value: borrowed, as `serde_json::json!` borrows it.
pub trait ToValue {
    /// The value as JSON.
    fn to_value(&self) -> Value;
}

/// `json!`'s conversion of an expression.
#[doc(hidden)]
pub fn to_value<T: ToValue + ?Sized>(v: &T) -> Value {
    v.to_value()
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl ToValue for Map {
    fn to_value(&self) -> Value {
        Value::Object(self.clone())
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::String(Text::new(self))
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::String(Text::new(self))
    }
}

impl ToValue for Text {
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }
}

impl ToValue for Cow<'_, str> {
    fn to_value(&self) -> Value {
        Value::String(Text::new(self))
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::from(*self)
    }
}

impl<T: ToValue> ToValue for [T] {
    fn to_value(&self) -> Value {
        Value::Array(self.iter().map(ToValue::to_value).collect())
    }
}

impl<T: ToValue> ToValue for Vec<T> {
    fn to_value(&self) -> Value {
        self.as_slice().to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

macro_rules! integer_to_value {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::from(*self)
            }
        }
    )*};
}

integer_to_value!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

/// Whether serde_json writes the number `literal` back as it is once read: digits alone (a
/// non-negative integer within `u64`) are; others may not be (`1.50`, `1e2`, `-0`) and are
/// rewritten by [`Value::normalize_numbers`].
pub(super) fn written_as_serde(literal: &str) -> bool {
    literal.len() <= 19 && literal.bytes().all(|b| b.is_ascii_digit())
}
