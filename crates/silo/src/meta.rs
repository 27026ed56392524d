//! An entry's metadata: rows named by source and key, each with a JSON value and Invopop's
//! flags (silo/v2 reads and writes them whole), which silo/v1 reads and writes as a map of
//! strings.
//!
//! Stored in the envelope's `meta` column (JSON text) in one of two forms: a map of strings when
//! every row is *plain* (no source, a string value, no flags: all that silo/v1 can write, and
//! the only form before silo/v2), else a list of rows. So what v1 wrote is stored, and
//! fingerprinted, exactly as before, and no migration is needed.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The metadata of an entry, in the order it was written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Meta {
    /// The rows; a source and key name at most one row.
    pub rows: Vec<MetaRow>,
}

/// One metadata row (Invopop's `SiloMeta` without its ids).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MetaRow {
    /// The service or source that wrote it; empty for a row written as a string map.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub src: String,
    /// Its key within the source.
    pub key: String,
    /// Its value: a string for a row written as a string map, a JSON object otherwise.
    pub value: Value,
    /// A value the row may be looked up by.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Marked for search (stored and answered; folio's search does not read meta).
    #[serde(default, skip_serializing_if = "is_false")]
    pub indexed: bool,
    /// Left out of lists: only an entry fetched by itself shows it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub secure: bool,
    /// May be shared with other applications (stored and answered).
    #[serde(default, skip_serializing_if = "is_false")]
    pub shared: bool,
    /// Indexed by owner (stored and answered).
    #[serde(default, skip_serializing_if = "is_false")]
    pub owned: bool,
    /// A URL to act on or see more of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_url: Option<String>,
    /// Where the link may be shown (e.g. `public`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_scope: Option<String>,
    /// When the row was first written (rows written as a string map have no times).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<DateTime<Utc>>,
    /// When the row last changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<DateTime<Utc>>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl MetaRow {
    /// A row as a string map writes it.
    pub fn plain(key: String, value: String) -> MetaRow {
        MetaRow {
            key,
            value: Value::String(value),
            ..MetaRow::default()
        }
    }

    /// Whether a string map can hold the row as it is.
    pub fn is_plain(&self) -> bool {
        let flags = self.indexed || self.secure || self.shared || self.owned;
        self.value.is_string()
            && self.src.is_empty()
            && !flags
            && self.reference.is_none()
            && self.link_url.is_none()
            && self.link_scope.is_none()
            && self.created_at.is_none()
            && self.updated_at.is_none()
    }

    /// The row as a map of strings shows it: under its key (`src:key` when it has a source),
    /// its value itself when a string, else the value's JSON text.
    pub fn string_form(&self) -> (String, String) {
        let key = match self.src.is_empty() {
            true => self.key.clone(),
            false => format!("{}:{}", self.src, self.key),
        };
        let value = match &self.value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        (key, value)
    }

    /// The row without its times, to tell whether it changed.
    fn content(&self) -> MetaRow {
        MetaRow {
            created_at: None,
            updated_at: None,
            ..self.clone()
        }
    }
}

impl Meta {
    /// The metadata a map of strings writes.
    pub fn from_strings(map: BTreeMap<String, String>) -> Meta {
        Meta {
            rows: map.into_iter().map(|(k, v)| MetaRow::plain(k, v)).collect(),
        }
    }

    /// The metadata as a map of strings (see [`MetaRow::string_form`]); when two rows read the
    /// same key, the one without a source wins.
    pub fn strings(&self) -> BTreeMap<String, String> {
        let mut map = BTreeMap::new();
        let (sourced, plain): (Vec<&MetaRow>, Vec<&MetaRow>) =
            self.rows.iter().partition(|r| !r.src.is_empty());
        for row in sourced.into_iter().chain(plain) {
            let (k, v) = row.string_form();
            map.insert(k, v);
        }
        map
    }

    /// The rows a list shows: all but the secure ones.
    pub fn listed(self) -> Meta {
        Meta {
            rows: self.rows.into_iter().filter(|r| !r.secure).collect(),
        }
    }

    /// The metadata to store when these rows are written over `current` at `at`. A plain row
    /// whose string form is the string form of a current row keeps that row as it is (a string
    /// map read and sent back loses nothing, and a map having no order, its rows keep the places
    /// of the rows they keep); another row keeps the creation time of the current row of its
    /// source and key, and its update time when it did not change.
    pub fn settle(self, current: Option<&Meta>, at: DateTime<Utc>) -> Meta {
        let current: &[MetaRow] = current.map(|c| c.rows.as_slice()).unwrap_or_default();
        let a_map = self.rows.iter().all(MetaRow::is_plain);
        let mut rows: Vec<MetaRow> = self
            .rows
            .into_iter()
            .map(|row| {
                if row.is_plain() {
                    let form = row.string_form();
                    return current
                        .iter()
                        .find(|c| c.string_form() == form)
                        .cloned()
                        .unwrap_or(row);
                }
                let before = current
                    .iter()
                    .find(|c| c.src == row.src && c.key == row.key);
                let unchanged = before.is_some_and(|b| b.content() == row.content());
                MetaRow {
                    created_at: Some(before.and_then(|b| b.created_at).unwrap_or(at)),
                    updated_at: Some(match unchanged {
                        true => before.and_then(|b| b.updated_at).unwrap_or(at),
                        false => at,
                    }),
                    ..row
                }
            })
            .collect();
        if a_map {
            rows.sort_by_key(|r| current.iter().position(|c| c == r).unwrap_or(usize::MAX));
        }
        Meta { rows }
    }
}

/// The stored (and fingerprinted) form: a map of strings when every row is plain.
impl Serialize for Meta {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.rows.iter().all(MetaRow::is_plain) {
            self.strings().serialize(s)
        } else {
            self.rows.serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for Meta {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Meta, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Strings(BTreeMap<String, String>),
            Rows(Vec<MetaRow>),
        }
        Ok(match Stored::deserialize(d)? {
            Stored::Strings(map) => Meta::from_strings(map),
            Stored::Rows(rows) => Meta { rows },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rich(src: &str, key: &str, value: Value) -> MetaRow {
        MetaRow {
            src: src.into(),
            key: key.into(),
            value,
            shared: true,
            ..MetaRow::default()
        }
    }

    #[test]
    fn a_string_map_is_stored_as_before() {
        let map = BTreeMap::from([("b".to_string(), "2".to_string()), ("a".into(), "1".into())]);
        let meta = Meta::from_strings(map.clone());
        let text = serde_json::to_string(&meta).unwrap();
        assert_eq!(text, serde_json::to_string(&map).unwrap());
        let back: Meta = serde_json::from_str(&text).unwrap();
        assert_eq!(back, meta);
        assert_eq!(back.strings(), map);
    }

    #[test]
    fn rich_rows_round_trip_and_read_as_strings() {
        let meta = Meta {
            rows: vec![
                rich("app", "id", json!({"n": 1})),
                MetaRow::plain("note".into(), "hi".into()),
            ],
        };
        let text = serde_json::to_string(&meta).unwrap();
        assert!(text.starts_with('['), "{text}");
        assert_eq!(serde_json::from_str::<Meta>(&text).unwrap(), meta);
        let strings = meta.strings();
        assert_eq!(strings["app:id"], r#"{"n":1}"#);
        assert_eq!(strings["note"], "hi");
    }

    #[test]
    fn a_string_map_sent_back_keeps_the_rows_it_shows() {
        let at = Utc::now();
        let current = Meta {
            rows: vec![rich("app", "id", json!({"n": 1}))],
        }
        .settle(None, at);
        let sent_back = Meta::from_strings(current.strings());
        assert_eq!(sent_back.settle(Some(&current), Utc::now()), current);
        let changed = Meta::from_strings(BTreeMap::from([("app:id".into(), "x".into())]));
        let settled = changed.settle(Some(&current), at);
        assert_eq!(settled.rows[0], MetaRow::plain("app:id".into(), "x".into()));
    }

    #[test]
    fn times_follow_changes() {
        let t0 = Utc::now();
        let t1 = t0 + chrono::Duration::seconds(5);
        let first = Meta {
            rows: vec![rich("a", "k", json!({}))],
        }
        .settle(None, t0);
        let same = Meta {
            rows: vec![rich("a", "k", json!({}))],
        }
        .settle(Some(&first), t1);
        assert_eq!(same.rows[0].updated_at, Some(t0));
        let other = Meta {
            rows: vec![rich("a", "k", json!({"x": 1}))],
        }
        .settle(Some(&first), t1);
        assert_eq!(other.rows[0].created_at, Some(t0));
        assert_eq!(other.rows[0].updated_at, Some(t1));
    }
}
