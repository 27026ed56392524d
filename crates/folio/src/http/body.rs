//! The body-read timeout: a request body must arrive whole within the limit from when the server
//! first waits for it (as soon as a handler reads it, right after the head). A total deadline,
//! not one per chunk, so a client trickling a byte at a time cannot hold a request open
//! indefinitely.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use folio_api::json::BodyTimeout;
use http_body::{Body, Frame, SizeHint};
use hyper::body::{Bytes, Incoming};
use tokio::time::Sleep;

/// A request body with a deadline.
pub struct Timed {
    inner: Incoming,
    limit: Duration,
    /// Made on the first wait only: most bodies are empty or already buffered, and a timer (or
    /// only a clock read) per request is a measurable share of a small request's cost.
    deadline: Option<Pin<Box<Sleep>>>,
}

impl Timed {
    /// `inner`, which must be read whole within `limit` from the first wait for it.
    pub fn new(inner: Incoming, limit: Duration) -> Self {
        Timed {
            inner,
            limit,
            deadline: None,
        }
    }
}

impl Body for Timed {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        let limit = self.limit;
        let deadline = self
            .deadline
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout)))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
