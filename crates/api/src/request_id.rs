//! `x-request-id` on every request and its response: the client's own when it sent one, else a
//! new random UUID. One layer that sets the header and echoes it, instead of tower-http's pair,
//! which also stores the id as a request extension and looks the header up a second time: on a
//! request as small as a ping, those are a measurable share of the work.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::http::{HeaderName, HeaderValue, Request, Response};
use tower::{Layer, Service};

/// The header that carries the id.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Gives every request an `x-request-id` and copies it onto the response.
#[derive(Debug, Clone, Copy, Default)]
pub struct RequestIdLayer;

impl<S> Layer<S> for RequestIdLayer {
    type Service = RequestIds<S>;

    fn layer(&self, inner: S) -> RequestIds<S> {
        RequestIds { inner }
    }
}

/// The service [`RequestIdLayer`] wraps.
#[derive(Debug, Clone)]
pub struct RequestIds<S> {
    inner: S,
}

impl<S, A, B> Service<Request<A>> for RequestIds<S>
where
    S: Service<Request<A>, Response = Response<B>>,
{
    type Response = Response<B>;
    type Error = S::Error;
    type Future = WithRequestId<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: Request<A>) -> Self::Future {
        let id = match req.headers().get(&REQUEST_ID) {
            Some(id) => id.clone(),
            None => {
                let id = new_id();
                req.headers_mut().insert(REQUEST_ID, id.clone());
                id
            }
        };
        WithRequestId {
            inner: self.inner.call(req),
            id: Some(id),
        }
    }
}

/// A random (v4) UUID, formatted on the stack rather than into a `String`.
fn new_id() -> HeaderValue {
    let mut text = uuid::Uuid::encode_buffer();
    let id = uuid::Uuid::new_v4().hyphenated().encode_lower(&mut text);
    HeaderValue::from_str(id).expect("a UUID is a valid header value")
}

pin_project_lite::pin_project! {
    /// The inner service's response with the request's id, unless the response has one.
    pub struct WithRequestId<F> {
        #[pin]
        inner: F,
        id: Option<HeaderValue>,
    }
}

impl<F, B, E> Future for WithRequestId<F>
where
    F: Future<Output = Result<Response<B>, E>>,
{
    type Output = Result<Response<B>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut response = std::task::ready!(this.inner.poll(cx))?;
        if let Some(id) = this.id.take() {
            response.headers_mut().entry(REQUEST_ID).or_insert(id);
        }
        Poll::Ready(Ok(response))
    }
}
