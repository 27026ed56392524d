//! An entry resource answered with its `data`, the envelope as stored, written into the answer
//! as it is.
//!
//! serde_json would read the text whole to take it as a `RawValue` (as long again as reading a
//! `PUT`'s body), where the text that answers a `PUT` is most often the request's own `data`,
//! which the request has read already. The resource is written without `data` and the text goes
//! in before its closing brace, as its last member; a text that is not the request's (a built
//! envelope, one read from the database) is checked as JSON first, as serde_json would, so that
//! a damaged row is a 500 and never an answer that is not JSON.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use folio_api::{ApiError, ApiResult};
use serde::Serialize;
use serde::de::IgnoredAny;

use super::wire::Wire;
use crate::Entry;

/// A version's entry resource and its envelope's text.
#[derive(Debug)]
pub(super) struct Answer<E> {
    entry: E,
    data: Option<String>,
}

impl<E> Answer<E> {
    /// The answer of `entry` in `W`'s shapes, with its data when it was loaded. `sent`: the
    /// request's `data`, read as JSON by the request.
    pub(super) fn of<W: Wire<Entry = E>>(
        mut entry: Entry,
        sent: Option<&str>,
    ) -> ApiResult<Answer<E>> {
        let data = entry.data.take();
        if let Some(text) = data.as_deref().filter(|&text| Some(text) != sent) {
            serde_json::from_str::<IgnoredAny>(text).map_err(ApiError::internal)?;
        }
        Ok(Answer {
            entry: W::entry(entry)?,
            data,
        })
    }
}

impl<E: Serialize> IntoResponse for Answer<E> {
    fn into_response(self) -> Response {
        let size = self.data.as_ref().map_or(0, String::len);
        let mut body = Vec::with_capacity(1024 + size);
        if let Err(e) = serde_json::to_writer(&mut body, &self.entry) {
            return ApiError::internal(e).into_response();
        }
        if let Some(data) = self.data {
            // An entry resource is an object with members (`id` first): `data` joins them.
            if body.pop() != Some(b'}') {
                return ApiError::internal("an entry resource is not a JSON object")
                    .into_response();
            }
            body.extend_from_slice(b",\"data\":");
            body.extend_from_slice(data.as_bytes());
            body.push(b'}');
        }
        let json = HeaderValue::from_static("application/json");
        ([(header::CONTENT_TYPE, json)], body).into_response()
    }
}
