//! The public listener's HTTP/1 server: hyper driven directly (not `axum::serve`) so that slow
//! and abusive clients meet limits: a header-read timeout, a body-read timeout, an idle
//! keep-alive timeout, a maximum head size (431) and a maximum number of open connections.
//!
//! Timers are folio's own, not hyper's `header_read_timeout`: hyper's also runs while a
//! keep-alive connection waits for its next request, which would make the idle timeout
//! meaningless beyond the header timeout.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use folio_api::limits::Limits;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

mod activity;
mod body;

use activity::{Activity, Timers, Tracked};

/// The connection limits, from `[limits]`.
#[derive(Debug, Clone)]
pub struct ConnLimits {
    header: Duration,
    body: Duration,
    idle: Duration,
    max_header_bytes: usize,
    max_connections: usize,
}

impl ConnLimits {
    /// The connection limits of these API limits.
    pub fn of(limits: &Limits) -> Self {
        ConnLimits {
            header: Duration::from_millis(limits.header_timeout_ms.max(1)),
            body: Duration::from_millis(limits.body_timeout_ms.max(1)),
            idle: Duration::from_millis(limits.idle_timeout_ms.max(1)),
            // hyper's read buffer cannot be smaller than 8 KiB
            max_header_bytes: limits.max_header_bytes.max(8192),
            max_connections: limits.max_connections.max(1),
        }
    }
}

/// Serves `app` until `shutdown`: then stops accepting and lets open connections finish their
/// requests (the caller bounds how long).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    shutdown: CancellationToken,
) {
    // Turn every handler into its service once, as `axum::serve` does: a `Router` called as it
    // is converts (and layers) the matched handler again on every request.
    let app = app.with_state::<()>(());
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let mut connections = JoinSet::new();
    loop {
        // At the cap, stop accepting: new connections wait in the kernel's backlog.
        let permit = tokio::select! {
            permit = slots.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            _ = shutdown.cancelled() => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of descriptors and the like: pause instead of spinning.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = shutdown.cancelled() => break,
        };
        while connections.try_join_next().is_some() {}
        let cx = (app.clone(), limits.clone(), shutdown.clone());
        connections.spawn(connection(stream, cx, permit));
    }
    drop(listener);
    while connections.join_next().await.is_some() {}
}

/// One connection: hyper serves it while a watchdog closes it when a timer runs out.
async fn connection(
    stream: TcpStream,
    (app, limits, shutdown): (Router, ConnLimits, CancellationToken),
    _permit: OwnedSemaphorePermit,
) {
    let _ = stream.set_nodelay(true);
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Tracked::new(stream, activity.clone()));
    let service = {
        let activity = activity.clone();
        let body_timeout = limits.body;
        hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
            let request = activity.request();
            let req = req.map(|b| axum::body::Body::new(body::Timed::new(b, body_timeout)));
            let app = app.clone();
            async move {
                let _request = request;
                app.oneshot(req).await
            }
        })
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(None)
        .max_header_size(limits.max_header_bytes);
    let conn = builder.serve_connection(io, service);
    tokio::pin!(conn);
    let tick = (limits.header.min(limits.idle) / 4)
        .clamp(Duration::from_millis(20), Duration::from_millis(500));
    let mut draining = false;
    let mut timers = Timers::new();
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(error) = result {
                    tracing::debug!(%error, "connection ended with an error");
                }
                return;
            }
            _ = shutdown.cancelled(), if !draining => {
                conn.as_mut().graceful_shutdown();
                draining = true;
            }
            _ = tokio::time::sleep(tick) => {
                if let Some(why) = timers.expired(&activity, limits.header, limits.idle) {
                    tracing::debug!(why, "closing a connection");
                    return;
                }
            }
        }
    }
}
