//! What a connection is doing, for its timers: reading a request head (header timeout), idle
//! between requests (idle timeout), or serving a request (no connection timer: the body has its
//! own, and a handler may rightly take long, e.g. `?wait=60`).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// No head is being read.
const NONE: u64 = u64::MAX;

/// A connection's state, shared by its IO, its service and its watchdog.
pub struct Activity {
    opened: Instant,
    requests: AtomicUsize,
    /// When the current request head started (ms since `opened`), or `NONE`.
    head_since: AtomicU64,
    /// When the connection last became idle or wrote (ms since `opened`).
    idle_since: AtomicU64,
}

impl Activity {
    /// A fresh connection: its first head is due within the header timeout from now.
    pub fn new() -> Self {
        Activity {
            opened: Instant::now(),
            requests: AtomicUsize::new(0),
            head_since: AtomicU64::new(0),
            idle_since: AtomicU64::new(0),
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(NONE - 1)
    }

    /// A request head was parsed; the returned guard marks the request done when dropped.
    pub fn request(self: &Arc<Self>) -> InFlight {
        self.requests.fetch_add(1, Ordering::SeqCst);
        self.head_since.store(NONE, Ordering::SeqCst);
        InFlight(self.clone())
    }

    fn read(&self) {
        if self.requests.load(Ordering::SeqCst) == 0 {
            // First bytes of the next head: the header timer starts (unless it runs already).
            let _ = self.head_since.compare_exchange(
                NONE,
                self.now(),
                Ordering::SeqCst,
                Ordering::SeqCst,
            );
        }
    }

    fn wrote(&self) {
        self.idle_since.store(self.now(), Ordering::SeqCst);
    }

    /// Why the connection should be closed now, if it should.
    pub fn expired(&self, header: Duration, idle: Duration) -> Option<&'static str> {
        if self.requests.load(Ordering::SeqCst) > 0 {
            return None;
        }
        let now = self.now();
        let since =
            |at: &AtomicU64| Duration::from_millis(now.saturating_sub(at.load(Ordering::SeqCst)));
        match self.head_since.load(Ordering::SeqCst) {
            NONE if since(&self.idle_since) >= idle => Some("idle timeout"),
            NONE => None,
            _ if since(&self.head_since) >= header => Some("header timeout"),
            _ => None,
        }
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
