//! Wire timestamps: UTC, ISO-8601 with milliseconds (`2026-11-21T10:04:05.123Z`).

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Deserializer, Serializer};

/// Formats a timestamp the way the wire wants it.
pub fn format(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The schema of a `created_at`-style query parameter: an RFC 3339 timestamp, or empty (read as
/// absent), as the list handlers accept it.
pub fn query_schema() -> utoipa::openapi::Schema {
    use utoipa::openapi::schema::{AnyOfBuilder, KnownFormat, ObjectBuilder, SchemaFormat, Type};
    AnyOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime))),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .max_length(Some(0)),
        )
        .build()
        .into()
}

/// Parses a wire timestamp (any RFC 3339 offset is accepted and converted to UTC).
pub fn parse(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// `#[serde(with = "folio_api::time::wire")]` for `DateTime<Utc>` fields.
pub mod wire {
    use super::*;

    /// Serialises in wire form.
    pub fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format(t))
    }

    /// Deserialises any RFC 3339 timestamp.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let s = String::deserialize(d)?;
        parse(&s).ok_or_else(|| serde::de::Error::custom("expected an RFC 3339 timestamp"))
    }
}

/// `#[serde(with = "folio_api::time::wire_opt", default, skip_serializing_if = "Option::is_none")]`.
pub mod wire_opt {
    use super::*;

    /// Serialises in wire form.
    pub fn serialize<S: Serializer>(t: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => s.serialize_str(&format(t)),
            None => s.serialize_none(),
        }
    }

    /// Deserialises any RFC 3339 timestamp or null.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DateTime<Utc>>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(s) => parse(&s)
                .map(Some)
                .ok_or_else(|| serde::de::Error::custom("expected an RFC 3339 timestamp")),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn wire_form_has_milliseconds_and_z() {
        let t = super::parse("2026-11-21T11:04:05.123456+01:00").unwrap();
        assert_eq!(super::format(&t), "2026-11-21T10:04:05.123Z");
    }
}
