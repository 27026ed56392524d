//! Collection paging, one way for every list: `limit` (default 20, capped at 100) and an
//! opaque `cursor` (the `next_cursor` of the previous page, absent on the last one), over lists
//! ordered by `(created_at, id)`; some lists also keep an older style of their own (a
//! `created_at` start, an index) beside it. See `docs/paging.md`.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use chrono::{DateTime, Utc};
use utoipa::openapi::schema::{Object, ObjectBuilder, Type};
use uuid::Uuid;

use crate::error::ApiError;

/// Page size when the client sends none.
pub const DEFAULT_LIMIT: i64 = 20;
/// Largest page size; larger requests are served this many.
pub const MAX_LIMIT: i64 = 100;

/// Every cursor this API issues, and so the pattern every `cursor` parameter and `next_cursor`
/// field declares: `<ms>_<id>` (the last item's creation time in milliseconds and its id in
/// hex). Clients treat it as opaque; the empty string means "from the start".
pub const CURSOR_PATTERN: &str = "^([0-9]{1,18}_[0-9a-fA-F]{32})?$";

/// The schema of a `cursor` parameter or a `next_cursor` field: a string of
/// [`CURSOR_PATTERN`] (for `#[param(schema_with = ...)]` and `#[schema(schema_with = ...)]`).
pub fn cursor_schema() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(CURSOR_PATTERN))
        .build()
}

/// The effective page size for a requested `limit`: missing → 20, above 100 → 100,
/// zero or negative → 422.
pub fn limit(requested: Option<i64>) -> Result<i64, ApiError> {
    match requested {
        None => Ok(DEFAULT_LIMIT),
        Some(n) if n < 1 => Err(ApiError::invalid_field("limit", "must be at least 1")),
        Some(n) => Ok(n.min(MAX_LIMIT)),
    }
}

/// The `created_at` query parameter: absent or empty → `None`, else an RFC 3339 timestamp
/// (to the millisecond, as stored) or 422.
pub fn created_at(param: Option<&str>) -> Result<Option<DateTime<Utc>>, ApiError> {
    match param.filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(text) => crate::time::parse(text)
            .map(|t| Some(millis_only(t)))
            .ok_or_else(|| ApiError::invalid_field("created_at", "expected an RFC 3339 timestamp")),
    }
}

fn millis_only(t: DateTime<Utc>) -> DateTime<Utc> {
    use chrono::SubsecRound;
    t.trunc_subsecs(3)
}

/// A place in a list ordered by `(created_at, id)`: the last item of a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The item's creation time (millisecond precision).
    pub created_at: DateTime<Utc>,
    /// The item's id, which orders items created in the same millisecond.
    pub id: Uuid,
}

/// A page of a list: its items and, when there are more, where the next page starts in each
/// style.
#[derive(Clone, Debug)]
pub struct Page<T> {
    /// The items.
    pub items: Vec<T>,
    /// Cursor style: the last item's place, when another page follows (`next_cursor`).
    pub next: Option<Position>,
    /// `created_at` style: the inclusive start of the next page (`next_created_at`), when the
    /// list offers that style and another page follows.
    pub next_created_at: Option<DateTime<Utc>>,
}

impl<T> Default for Page<T> {
    fn default() -> Self {
        Page {
            items: Vec::new(),
            next: None,
            next_created_at: None,
        }
    }
}

impl<T> Page<T> {
    /// The page of `items` fetched in list order with one more than `limit`: the extra item,
    /// when it came, only says that another page follows the last item kept (placed by `at`).
    pub fn cut(mut items: Vec<T>, limit: i64, at: impl Fn(&T) -> Position) -> Page<T> {
        let limit = limit.max(1) as usize;
        let mut next = None;
        if items.len() > limit {
            items.truncate(limit);
            next = items.last().map(at);
        }
        Page {
            items,
            next,
            next_created_at: None,
        }
    }
}

impl Position {
    /// The opaque `cursor` a client sends back for the page after this place (of
    /// [`CURSOR_PATTERN`]).
    pub fn cursor(self) -> String {
        let ms = self.created_at.timestamp_millis();
        format!("{ms}_{}", self.id.simple())
    }

    /// The place a `cursor` names; `None` when it is not one this API gave out. The base64
    /// cursors the silo and jobs lists gave out before (`<ms>.<id>` encoded) are still read.
    pub fn from_cursor(cursor: &str) -> Option<Position> {
        let cursor = cursor.trim();
        Position::parse(cursor, '_').or_else(|| {
            let text = String::from_utf8(B64.decode(cursor).ok()?).ok()?;
            Position::parse(&text, '.')
        })
    }

    /// `<ms><sep><id>`.
    fn parse(text: &str, sep: char) -> Option<Position> {
        let (ms, id) = text.split_once(sep)?;
        let ms: i64 = ms.parse().ok()?;
        // a time past chrono's last day (the pattern allows 18 digits) orders after every
        // stored item, as that last day does
        let created_at = match DateTime::from_timestamp_millis(ms) {
            Some(at) => at,
            None if ms > 0 => DateTime::<Utc>::MAX_UTC,
            None => return None,
        };
        Some(Position {
            created_at,
            id: Uuid::parse_str(id).ok()?,
        })
    }

    /// The `cursor` query parameter: absent or empty → `None`, else a cursor of this API or 422.
    pub fn param(cursor: Option<&str>) -> Result<Option<Position>, ApiError> {
        match cursor.filter(|c| !c.is_empty()) {
            None => Ok(None),
            Some(c) => Position::from_cursor(c)
                .map(Some)
                .ok_or_else(|| ApiError::invalid_field("cursor", "not a cursor given by this API")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_caps_and_rejects() {
        assert_eq!(limit(None).unwrap(), 20);
        assert_eq!(limit(Some(7)).unwrap(), 7);
        assert_eq!(limit(Some(1000)).unwrap(), 100);
        assert_eq!(limit(Some(0)).unwrap_err().status, 422);
    }

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let at = DateTime::from_timestamp_millis(1_780_000_000_123).unwrap();
        let p = Position {
            created_at: at,
            id: Uuid::now_v7(),
        };
        assert_eq!(Position::from_cursor(&p.cursor()), Some(p));
        assert_eq!(p.cursor(), format!("1780000000123_{}", p.id.simple()));
        let legacy = B64.encode(format!("1780000000123.{}", p.id.simple()));
        assert_eq!(Position::from_cursor(&legacy), Some(p));
        // every cursor the pattern admits is read, the farthest times as chrono's last day
        let far = format!("999999999999999999_{}", p.id.simple());
        let read = Position::from_cursor(&far).unwrap();
        assert_eq!(read.created_at, DateTime::<Utc>::MAX_UTC);
        for bad in ["nope", "", "1_2", "MTIz"] {
            assert_eq!(Position::from_cursor(bad), None, "{bad}");
        }
        assert_eq!(Position::param(Some("nope")).unwrap_err().status, 422);
        assert_eq!(Position::param(Some("")).unwrap(), None);
    }

    #[test]
    fn created_at_is_rfc3339_to_the_millisecond() {
        let t = created_at(Some("2026-11-21T10:04:05.123456Z"))
            .unwrap()
            .unwrap();
        assert_eq!(t.timestamp_subsec_micros(), 123_000);
        assert_eq!(created_at(Some("")).unwrap(), None);
        assert_eq!(created_at(Some("yesterday")).unwrap_err().status, 422);
    }
}
