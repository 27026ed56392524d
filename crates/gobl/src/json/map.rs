//! [`Map`]: a JSON object's members in order, with the operations of `serde_json::Map` (built
//! with `preserve_order`) and the same results, so that code written against one reads the
//! same against the other.
//!
//! A GOBL document's objects have a few short keys, which are found faster by comparing them
//! than by hashing (serde_json hashes every key with SipHash, and building those tables was
//! most of the cost of reading a document). An object that grows past [`INDEXED_FROM`] members
//! gets a hash index beside its list, so that an open map (`meta`, `ext`) of a hostile size
//! cannot make lookups quadratic.

use std::collections::HashMap;

use super::{Text, Value};

/// Objects with at least this many members keep a hash index of their keys.
const INDEXED_FROM: usize = 32;

/// A JSON object: members in order, keys unique.
#[derive(Debug, Clone, Default)]
pub struct Map {
    members: Vec<(Text, Value)>,
    /// Position of each key, kept while the map has [`INDEXED_FROM`] members or more. Boxed
    /// so that the many small maps without one stay one word larger than their list.
    #[allow(clippy::box_collection)]
    index: Option<Box<HashMap<Text, usize>>>,
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` members.
    pub fn with_capacity(n: usize) -> Map {
        Map {
            members: Vec::with_capacity(n),
            index: None,
        }
    }

    /// A map of `members`, whose keys the caller has checked are unique (the parser does).
    pub(crate) fn from_unique(members: Vec<(Text, Value)>) -> Map {
        let mut map = Map {
            members,
            index: None,
        };
        map.reindex();
        map
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the map has no member.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Removes every member.
    pub fn clear(&mut self) {
        self.members.clear();
        self.index = None;
    }

    /// The members in order, as a slice.
    pub fn as_slice(&self) -> &[(Text, Value)] {
        &self.members
    }

    /// Position of `key`.
    #[inline]
    pub fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => {
                let key = key.as_bytes();
                self.members.iter().position(|(k, _)| same(k, key))
            }
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.position(key).map(|i| &self.members[i].1)
    }

    /// The value of `key`, mutable.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.position(key).map(|i| &mut self.members[i].1)
    }

    /// The stored key and value of `key`.
    pub fn get_key_value(&self, key: &str) -> Option<(&Text, &Value)> {
        self.position(key).map(|i| {
            let (k, v) = &self.members[i];
            (k, v)
        })
    }

    /// Whether `key` is a member.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Sets `key` to `value`: a member already there keeps its place and its old value is
    /// returned; a new one is appended.
    pub fn insert(&mut self, key: Text, value: Value) -> Option<Value> {
        match self.position(&key) {
            Some(i) => Some(std::mem::replace(&mut self.members[i].1, value)),
            None => {
                self.push(key, value);
                None
            }
        }
    }

    /// Inserts at `at` a member whose key the caller knows is not in the map (found absent in
    /// its own pass over the members), without looking for it again.
    pub(crate) fn insert_absent(&mut self, at: usize, key: Text, value: Value) {
        debug_assert!(self.position(&key).is_none(), "{key} is in the map");
        if at >= self.members.len() {
            self.push(key, value);
        } else {
            self.members.insert(at, (key, value));
            self.reindex();
        }
    }

    /// The value at position `i`.
    pub(crate) fn value_at(&self, i: usize) -> Option<&Value> {
        self.members.get(i).map(|(_, v)| v)
    }

    /// The value at position `i`, mutable.
    pub(crate) fn value_at_mut(&mut self, i: usize) -> Option<&mut Value> {
        self.members.get_mut(i).map(|(_, v)| v)
    }

    /// Appends a member whose key is not in the map.
    fn push(&mut self, key: Text, value: Value) {
        if let Some(index) = &mut self.index {
            index.insert(key.clone(), self.members.len());
        }
        self.members.push((key, value));
        if self.index.is_none() && self.members.len() >= INDEXED_FROM {
            self.reindex();
        }
    }

    /// Removes `key`, the last member taking its place (as `serde_json::Map::remove` does with
    /// `preserve_order`).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.swap_remove(key)
    }

    /// Removes `key` and returns its stored key and value (the last member takes its place).
    pub fn remove_entry(&mut self, key: &str) -> Option<(Text, Value)> {
        let i = self.position(key)?;
        Some(self.swap_remove_index(i))
    }

    /// Removes `key`, the last member taking its place.
    pub fn swap_remove(&mut self, key: &str) -> Option<Value> {
        self.remove_entry(key).map(|(_, v)| v)
    }

    fn swap_remove_index(&mut self, i: usize) -> (Text, Value) {
        let removed = self.members.swap_remove(i);
        if let Some(index) = &mut self.index {
            index.remove(&removed.0);
            if let Some((moved, _)) = self.members.get(i) {
                index.insert(moved.clone(), i);
            }
        }
        removed
    }

    /// Removes `key`, the members after it moving up.
    pub fn shift_remove(&mut self, key: &str) -> Option<Value> {
        let i = self.position(key)?;
        let (_, v) = self.members.remove(i);
        self.reindex();
        Some(v)
    }

    /// Sets `key` to `value` at position `at` (at most the length): a member already there
    /// moves to `at` and its old value is returned (`IndexMap::shift_insert`).
    pub fn shift_insert(&mut self, at: usize, key: Text, value: Value) -> Option<Value> {
        let old = match self.position(&key) {
            Some(i) => {
                let (k, old) = self.members.remove(i);
                self.members.insert(at.min(self.members.len()), (k, value));
                Some(old)
            }
            None => {
                self.members.insert(at, (key, value));
                None
            }
        };
        self.reindex();
        old
    }

    /// Keeps the members `keep` returns `true` for, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Text, &mut Value) -> bool) {
        let before = self.members.len();
        self.members.retain_mut(|(k, v)| keep(k, v));
        if self.members.len() != before {
            self.reindex();
        }
    }

    /// Moves every member of `other` into this map, as [`Map::insert`] would, leaving it empty.
    pub fn append(&mut self, other: &mut Map) {
        other.index = None;
        for (k, v) in other.members.drain(..) {
            self.insert(k, v);
        }
    }

    /// Sorts the members by key.
    pub fn sort_keys(&mut self) {
        self.members.sort_by(|(a, _), (b, _)| a.cmp(b));
        self.reindex();
    }

    /// The entry of `key`, to read or fill in place.
    pub fn entry(&mut self, key: Text) -> Entry<'_> {
        match self.position(&key) {
            Some(at) => Entry::Occupied(OccupiedEntry { map: self, at }),
            None => Entry::Vacant(VacantEntry { map: self, key }),
        }
    }

    /// The keys in order.
    pub fn keys(&self) -> Keys<'_> {
        self.members.iter().map(|(k, _)| k)
    }

    /// The values in order.
    pub fn values(&self) -> Values<'_> {
        self.members.iter().map(|(_, v)| v)
    }

    /// The values in order, mutable.
    pub fn values_mut(&mut self) -> ValuesMut<'_> {
        self.members.iter_mut().map(|(_, v)| v)
    }

    /// The members in order.
    pub fn iter(&self) -> Iter<'_> {
        self.members.iter().map(|(k, v)| (k, v))
    }

    /// The members in order, values mutable.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        self.members.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// Rebuilds the index from the list (or drops it when the map is small: inline, as every
    /// object the parser reads comes through here and most are small).
    #[inline]
    fn reindex(&mut self) {
        if self.members.len() < INDEXED_FROM {
            self.index = None;
        } else {
            self.build_index();
        }
    }

    /// The index of a map of [`INDEXED_FROM`] members or more, built anew.
    fn build_index(&mut self) {
        let index = self
            .members
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (k.clone(), i))
            .collect();
        self.index = Some(Box::new(index));
    }
}

/// The members of a [`Map`], in order.
pub type Iter<'a> = std::iter::Map<
    std::slice::Iter<'a, (Text, Value)>,
    fn(&'a (Text, Value)) -> (&'a Text, &'a Value),
>;

/// Whether `k` is `key` (see [`same_bytes`]).
#[inline(always)]
fn same(k: &Text, key: &[u8]) -> bool {
    same_bytes(k.as_bytes(), key)
}

/// Whether `a` and `b` are the same bytes. Keys and codes are short: up to 32 bytes they are
/// compared as two or four overlapping words (or, below four, byte by byte), not by a call to
/// `memcmp`, whose call costs more than such a comparison (an add-on's extension keys, such as
/// `es-verifactu-op-class`, are longer than 16).
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    use super::{half_at as half, word_at as word};
    match n {
        0 => true,
        // the first, middle and last bytes are all of them
        1..4 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..8 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        17..=32 => {
            let diff = |at: usize| word(a, at) ^ word(b, at);
            diff(0) | diff(8) | diff(n - 16) | diff(n - 8) == 0
        }
        _ => a == b,
    }
}

/// Whether two texts are the same, compared as [`same_bytes`] compares them (codes looked up
/// in a table: each comparison a few instructions, not a call to `memcmp`).
#[inline(always)]
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// Whether two objects have the same members in the same order (a cheaper test than the
/// map's own equality, which looks every key up); keys and texts are compared as
/// [`same_bytes`] compares them, and nested objects (a combo's `ext`) the same way. Stricter
/// than equality, it serves callers looking for a twin of a member already dealt with, for
/// whom a twin missed is only work done again.
pub(crate) fn same_members(a: &Map, b: &Map) -> bool {
    a.len() == b.len()
        && a.members
            .iter()
            .zip(&b.members)
            .all(|((ka, va), (kb, vb))| {
                same_text(ka, kb)
                    && match (va, vb) {
                        (Value::String(x), Value::String(y)) => same_text(x, y),
                        (Value::Object(x), Value::Object(y)) => same_members(x, y),
                        _ => va == vb,
                    }
            })
}

/// The keys of a [`Map`], in order.
pub type Keys<'a> =
    std::iter::Map<std::slice::Iter<'a, (Text, Value)>, fn(&'a (Text, Value)) -> &'a Text>;

/// The values of a [`Map`], in order.
pub type Values<'a> =
    std::iter::Map<std::slice::Iter<'a, (Text, Value)>, fn(&'a (Text, Value)) -> &'a Value>;

/// The values of a [`Map`], in order, mutable.
pub type ValuesMut<'a> = std::iter::Map<
    std::slice::IterMut<'a, (Text, Value)>,
    fn(&'a mut (Text, Value)) -> &'a mut Value,
>;

/// The members of a [`Map`], in order, values mutable.
pub type IterMut<'a> = std::iter::Map<
    std::slice::IterMut<'a, (Text, Value)>,
    fn(&'a mut (Text, Value)) -> (&'a Text, &'a mut Value),
>;

/// Equal when both have the same keys with equal values, in any order (as
/// `serde_json::Map`'s equality).
impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len()
            && self
                .members
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|o| o == v))
    }
}

impl Eq for Map {}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Text, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a Text, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl IntoIterator for Map {
    type Item = (Text, Value);
    type IntoIter = std::vec::IntoIter<(Text, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.into_iter()
    }
}

impl<K: Into<Text>> Extend<(K, Value)> for Map {
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, items: I) {
        for (k, v) in items {
            self.insert(k.into(), v);
        }
    }
}

impl<K: Into<Text>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(items: I) -> Map {
        let mut map = Map::new();
        map.extend(items);
        map
    }
}

impl std::ops::Index<&str> for Map {
    type Output = Value;
    /// The value of `key`; panics when there is none (as `serde_json::Map`'s index does).
    fn index(&self, key: &str) -> &Value {
        self.get(key).expect("no member of that name in the map")
    }
}

/// A member of a [`Map`], there or not.
pub enum Entry<'a> {
    /// The key is a member.
    Occupied(OccupiedEntry<'a>),
    /// The key is not a member.
    Vacant(VacantEntry<'a>),
}

/// A member that is there.
pub struct OccupiedEntry<'a> {
    map: &'a mut Map,
    at: usize,
}

/// A member that is not there yet.
pub struct VacantEntry<'a> {
    map: &'a mut Map,
    key: Text,
}

impl<'a> Entry<'a> {
    /// The value, inserting `default` first when the key is not a member.
    pub fn or_insert(self, default: Value) -> &'a mut Value {
        self.or_insert_with(|| default)
    }

    /// The value, inserting `default()` first when the key is not a member.
    pub fn or_insert_with(self, default: impl FnOnce() -> Value) -> &'a mut Value {
        match self {
            Entry::Occupied(o) => o.into_mut(),
            Entry::Vacant(v) => v.insert(default()),
        }
    }

    /// Changes the value in place when the key is a member.
    pub fn and_modify(self, f: impl FnOnce(&mut Value)) -> Entry<'a> {
        match self {
            Entry::Occupied(o) => {
                f(&mut o.map.members[o.at].1);
                Entry::Occupied(o)
            }
            vacant => vacant,
        }
    }
}

impl<'a> OccupiedEntry<'a> {
    /// The value.
    pub fn get(&self) -> &Value {
        &self.map.members[self.at].1
    }

    /// The value, mutable.
    pub fn get_mut(&mut self) -> &mut Value {
        &mut self.map.members[self.at].1
    }

    /// The value, mutable for as long as the map is borrowed.
    pub fn into_mut(self) -> &'a mut Value {
        &mut self.map.members[self.at].1
    }

    /// Replaces the value, returning the old one.
    pub fn insert(&mut self, value: Value) -> Value {
        std::mem::replace(self.get_mut(), value)
    }

    /// Removes the member, the last one taking its place (as [`Map::remove`]).
    pub fn remove(self) -> Value {
        self.map.swap_remove_index(self.at).1
    }
}

impl<'a> VacantEntry<'a> {
    /// Appends the member and returns its value.
    pub fn insert(self, value: Value) -> &'a mut Value {
        let at = self.map.len();
        self.map.push(self.key, value);
        &mut self.map.members[at].1
    }
}

/// A map of `members` in order; a repeated key keeps its first place and its last value (as
/// inserting them one by one).
impl From<Vec<(Text, Value)>> for Map {
    fn from(members: Vec<(Text, Value)>) -> Map {
        members.into_iter().collect()
    }
}

impl serde::Serialize for Map {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter().map(|(k, v)| (k.as_str(), v)))
    }
}

/// Read as a [`Value`] (number literals kept), which must be an object.
impl<'de> serde::Deserialize<'de> for Map {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Map, D::Error> {
        match <Value as serde::Deserialize>::deserialize(deserializer)? {
            Value::Object(m) => Ok(m),
            other => Err(serde::de::Error::custom(format!(
                "expected an object, found {}",
                other.type_name()
            ))),
        }
    }
}

impl std::ops::IndexMut<&str> for Map {
    /// The value of `key`, mutable; panics when there is none (as `serde_json::Map`'s does).
    fn index_mut(&mut self, key: &str) -> &mut Value {
        self.get_mut(key)
            .expect("no member of that name in the map")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn same_bytes_is_equality() {
        for len in 0..40 {
            let a: Vec<u8> = (0..len).map(|i| b'A' + i as u8).collect();
            assert!(super::same_bytes(&a, &a.clone()), "{len}");
            for at in 0..len {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!super::same_bytes(&a, &b), "{len} {at}");
            }
            assert!(!super::same_bytes(&a, &a[..len.saturating_sub(1)]) || len == 0);
        }
    }
}
