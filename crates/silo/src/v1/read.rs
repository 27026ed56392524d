//! The body of a `PUT`, `POST` or `PATCH` of an envelope, read once.
//!
//! Read into [`EnvelopeIn`] or [`EnvelopePatch`] by serde_json, the body's `data` (nearly all
//! of it) would be read twice: by serde_json to find where it ends, then by the silo to parse
//! it. Here the body is parsed member by member by `gobl::json` (under the silo's depth
//! limit), `data`'s value is handed to the silo parsed, and its text (as sent) kept beside it;
//! the other members are read into the body's type from their parsed values. A body this
//! refuses for any reason (not an object, JSON that `gobl::json` is stricter about, a member
//! of the wrong type, nesting past the limit) is read as before, by
//! [`folio_api::json::parse`] and then the silo, so that every error is answered as it was.

use folio_api::ApiResult;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use super::envelopes::{EnvelopeIn, EnvelopePatch};
use crate::ingest::Parsed;

/// A request body whose `data` member is read apart.
pub(super) trait WithData: DeserializeOwned {
    /// The body's own `data`, taken out (there when the body was read by serde_json).
    fn take_data(&mut self) -> Option<Box<RawValue>>;
}

impl<M: DeserializeOwned> WithData for EnvelopeIn<M> {
    fn take_data(&mut self) -> Option<Box<RawValue>> {
        self.data.take()
    }
}

impl<M: DeserializeOwned> WithData for EnvelopePatch<M> {
    fn take_data(&mut self) -> Option<Box<RawValue>> {
        self.data.take()
    }
}

/// A request's `data`: its text as sent and, when the body was read once, its parse.
#[derive(Debug)]
pub(super) struct Data {
    /// The member's value as written in the body.
    pub text: String,
    /// Its parse under the silo's depth limit, when the body was read once.
    pub parsed: Option<Parsed>,
}

/// The body of an envelope's `PUT`, `POST` or `PATCH`, its `data` apart (`None` when absent or
/// `null`; the body's own `data` is then always `None`). `depth` is the silo's depth limit.
pub(super) fn with_data<B: WithData>(bytes: &[u8], depth: usize) -> ApiResult<(B, Option<Data>)> {
    if let Some(read) = read_once(bytes, depth) {
        return Ok(read);
    }
    let mut body: B = folio_api::json::parse(bytes)?;
    let data = body.take_data().map(|raw| Data {
        text: raw.get().to_owned(),
        parsed: None,
    });
    Ok((body, data))
}

/// [`with_data`] in one reading, or `None` when the body is to be read as before.
fn read_once<B: WithData>(bytes: &[u8], depth: usize) -> Option<(B, Option<Data>)> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut members = ::gobl::json::parse_members(text, depth).ok()?;
    let data = members
        .iter()
        .position(|m| m.key == "data")
        .map(|at| members.remove(at));
    let rest: ::gobl::json::Map = members.into_iter().map(|m| (m.key, m.value)).collect();
    let body = B::deserialize(&::gobl::json::Value::Object(rest)).ok()?;
    let data = data.filter(|d| !d.value.is_null()).map(|d| Data {
        text: text[d.span].to_owned(),
        parsed: Some(Parsed {
            value: d.value,
            numbers_normal: d.numbers_normal,
        }),
    });
    Some((body, data))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    type Read = (EnvelopeIn<BTreeMap<String, String>>, Option<Data>);

    fn read(body: &str) -> ApiResult<Read> {
        with_data(body.as_bytes(), 64)
    }

    #[test]
    fn data_is_parsed_with_the_body_and_kept_as_sent() {
        let body = r#"{"key":"k-1", "data" : {"doc": {"n": 1.50}, "x": [ 1 ]} ,"tags":["a"]}"#;
        let (fields, data) = read(body).unwrap();
        let data = data.unwrap();
        assert_eq!(data.text, r#"{"doc": {"n": 1.50}, "x": [ 1 ]}"#);
        let parsed = data.parsed.expect("read once");
        assert_eq!(parsed.value, ::gobl::json::parse(&data.text).unwrap());
        assert!(!parsed.numbers_normal);
        assert_eq!(fields.key.as_deref(), Some("k-1"));
        assert_eq!(fields.tags, Some(vec!["a".to_string()]));
        assert!(fields.data.is_none());
    }

    #[test]
    fn what_the_one_reading_refuses_is_read_as_before() {
        // a duplicate key inside `data`: serde_json takes it, the silo refuses it later
        let (_, data) = read(r#"{"data":{"a":1,"a":2}}"#).unwrap();
        let data = data.unwrap();
        assert_eq!(data.text, r#"{"a":1,"a":2}"#);
        assert!(data.parsed.is_none());
        // nesting past the silo's limit: the same
        let deep = format!("{{\"data\":{}1{}}}", "[".repeat(70), "]".repeat(70));
        assert!(read(&deep).unwrap().1.unwrap().parsed.is_none());
        // a member of the wrong type: serde_json's error, with its path
        let err = read(r#"{"data":{},"tags":"x"}"#).unwrap_err();
        assert_eq!(err.status.as_u16(), 422, "{err:?}");
        // not JSON
        let err = read(r#"{"data":{"#).unwrap_err();
        assert_eq!(err.status.as_u16(), 400, "{err:?}");
        // `null` and absent `data` are both none
        assert!(read(r#"{"data":null}"#).unwrap().1.is_none());
        assert!(read(r#"{"key":"k"}"#).unwrap().1.is_none());
    }

    #[test]
    fn a_patch_is_read_the_same_way() {
        type Patch = EnvelopePatch<BTreeMap<String, String>>;
        let body = r#"{"content_type":"application/json","data":{"doc":{"n":1}},"sign":true}"#;
        let (patch, data): (Patch, _) = with_data(body.as_bytes(), 64).unwrap();
        let data = data.unwrap();
        assert_eq!(data.text, r#"{"doc":{"n":1}}"#);
        assert!(data.parsed.is_some());
        assert_eq!(patch.content_type.as_deref(), Some("application/json"));
        assert_eq!(patch.sign, Some(true));
        assert!(patch.data.is_none());
        // a patch without data changes only the rest
        let (patch, data): (Patch, _) = with_data(br#"{"folder":"f"}"#, 64).unwrap();
        assert!(data.is_none());
        assert_eq!(patch.folder.as_deref(), Some("f"));
        // a wrong type is serde_json's error, as before
        let err = with_data::<Patch>(br#"{"sign":"yes"}"#, 64).unwrap_err();
        assert_eq!(err.status.as_u16(), 422, "{err:?}");
    }
}
