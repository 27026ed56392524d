//! What a connection is doing, for its timers: reading a request head (header timeout), idle
//! between requests (idle timeout), or serving a request (no connection timer: the body has its
//! own, and a handler may rightly take long, e.g. `?wait=60`).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection's state, shared by its IO, its service and its watchdog. The IO and the service
/// only count and flag (no clock: reading it on every read and write was a measurable share of
/// a small request); the watchdog reads the clock once a tick and keeps the times
/// ([`Timers`]), so a timer runs out at most a tick or two late.
pub struct Activity {
    requests: AtomicUsize,
    /// Bytes of a request head have arrived (or are awaited, on a fresh connection) and no
    /// request has started since.
    reading: AtomicBool,
    /// Writes and finished requests, counted: the idle time starts again at each.
    events: AtomicU64,
}

impl Activity {
    /// A fresh connection: its first head is due within the header timeout from now.
    pub fn new() -> Self {
        Activity {
            requests: AtomicUsize::new(0),
            reading: AtomicBool::new(true),
            events: AtomicU64::new(0),
        }
    }

    /// A request head was parsed; the returned guard marks the request done when dropped.
    pub fn request(self: &Arc<Self>) -> InFlight {
        self.requests.fetch_add(1, Ordering::SeqCst);
        self.reading.store(false, Ordering::SeqCst);
        InFlight(self.clone())
    }

    fn read(&self) {
        if self.requests.load(Ordering::SeqCst) == 0 {
            // first bytes of the next head: the header timer starts (unless it runs already)
            self.reading.store(true, Ordering::SeqCst);
        }
    }

    fn wrote(&self) {
        self.events.fetch_add(1, Ordering::SeqCst);
    }
}

/// The watchdog's clock of one connection.
pub struct Timers {
    /// When the watchdog first saw the current head being read.
    head_since: Option<Instant>,
    /// When the watchdog last saw the connection write or finish a request.
    idle_since: Instant,
    events: u64,
}

impl Timers {
    /// The timers of a connection opened now.
    pub fn new() -> Self {
        let now = Instant::now();
        Timers {
            head_since: Some(now),
            idle_since: now,
            events: 0,
        }
    }

    /// Why the connection should be closed now, if it should.
    pub fn expired(
        &mut self,
        activity: &Activity,
        header: Duration,
        idle: Duration,
    ) -> Option<&'static str> {
        let now = Instant::now();
        let events = activity.events.load(Ordering::SeqCst);
        if events != self.events {
            self.events = events;
            self.idle_since = now;
        }
        if activity.requests.load(Ordering::SeqCst) > 0 {
            self.head_since = None;
            self.idle_since = now;
            return None;
        }
        if activity.reading.load(Ordering::SeqCst) {
            let since = *self.head_since.get_or_insert(now);
            return (now - since >= header).then_some("header timeout");
        }
        self.head_since = None;
        (now - self.idle_since >= idle).then_some("idle timeout")
    }
}

/// A request being served.
pub struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.wrote();
        self.0.requests.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A stream that reports reads and writes to its [`Activity`].
pub struct Tracked<S> {
    inner: S,
    activity: Arc<Activity>,
}

impl<S> Tracked<S> {
    /// Wraps a stream.
    pub fn new(inner: S, activity: Arc<Activity>) -> Self {
        Tracked { inner, activity }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Tracked<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.read();
        }
        result
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Tracked<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write(cx, data);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.wrote();
        }
        result
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
