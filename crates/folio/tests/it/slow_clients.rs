//! Slow and abusive clients on the public listener: half-open requests, idle keep-alive
//! connections, trickled bodies, oversized heads and more connections than allowed.

use std::time::{Duration, Instant};

use folio_store::testing;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::harness::TestApp;

async fn app_with(configure: impl FnOnce(&mut folio::Config)) -> TestApp {
    TestApp::start_with(testing::sqlite().await, configure, folio::services::all()).await
}

async fn connect(app: &TestApp) -> TcpStream {
    TcpStream::connect(app.base.trim_start_matches("http://"))
        .await
        .expect("connects")
}

/// Reads until the server closes; `None` if it has not within `limit`.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut got = Vec::new();
    let read = tokio::time::timeout(limit, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    });
    read.await.ok().map(|()| got)
}

/// A whole ping request on a keep-alive connection; returns the status line.
async fn ping_on(stream: &mut TcpStream, token: &str) -> String {
    let request = format!(
        "GET /utils/v1/ping HTTP/1.1\r\nHost: folio\r\nAuthorization: Bearer {token}\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf))
        .await
        .expect("answered in time")
        .unwrap();
    String::from_utf8_lossy(&buf[..n])
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn half_open_connections_are_closed_within_the_header_timeout_while_ping_answers() {
    let app = app_with(|c| c.limits.header_timeout_ms = 3_000).await;
    const N: usize = 300;
    let started = Instant::now();
    let mut slow = Vec::new();
    for _ in 0..N {
        let mut stream = connect(&app).await;
        // half a request line, then nothing
        stream.write_all(b"GET /utils/v1/pi").await.unwrap();
        slow.push(stream);
    }
    for _ in 0..5 {
        let asked = Instant::now();
        app.get("/utils/v1/ping").await.expect(200);
        // a ping stuck behind the half-open connections would wait for their 3 s timeout
        assert!(
            asked.elapsed() < Duration::from_millis(1_500),
            "ping was slow"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut closed = 0;
    for stream in &mut slow {
        let deadline = Duration::from_millis(6_000).saturating_sub(started.elapsed());
        if closed_within(stream, deadline).await.is_some() {
            closed += 1;
        }
    }
    assert_eq!(closed, N, "half-open connections still open after 6 s");
    app.get("/utils/v1/ping").await.expect(200);
}

#[tokio::test]
async fn an_oversized_head_gets_431_and_a_normal_one_is_served() {
    let app = app_with(|_| {}).await;
    for (size, expected) in [(12 * 1024, "HTTP/1.1 200"), (20 * 1024, "HTTP/1.1 431")] {
        let mut stream = connect(&app).await;
        let request = format!(
            "GET /utils/v1/ping HTTP/1.1\r\nHost: folio\r\nAuthorization: Bearer {}\r\n\
             X-Padding: {}\r\nConnection: close\r\n\r\n",
            app.token,
            "a".repeat(size)
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let answer = closed_within(&mut stream, Duration::from_secs(5))
            .await
            .expect("answered and closed");
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with(expected), "{size} bytes: {answer}");
    }
}

#[tokio::test]
async fn idle_keep_alive_connections_close_after_the_idle_timeout_only() {
    let app = app_with(|c| {
        c.limits.header_timeout_ms = 300;
        c.limits.idle_timeout_ms = 1_200;
    })
    .await;
    let mut stream = connect(&app).await;
    assert_eq!(ping_on(&mut stream, &app.token).await, "HTTP/1.1 200 OK");
    // idle for longer than the header timeout: the idle timer governs, the connection stays
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(ping_on(&mut stream, &app.token).await, "HTTP/1.1 200 OK");
    let idle = Instant::now();
    closed_within(&mut stream, Duration::from_secs(3))
        .await
        .expect("closed when idle");
    let took = idle.elapsed();
    assert!(
        took >= Duration::from_millis(1_000),
        "closed too soon: {took:?}"
    );
}

#[tokio::test]
async fn a_trickled_body_gets_408_after_the_body_timeout() {
    let app = app_with(|c| c.limits.body_timeout_ms = 500).await;
    let mut stream = connect(&app).await;
    let id = uuid::Uuid::now_v7();
    let head = format!(
        "PUT /silo/v1/envelopes/{id} HTTP/1.1\r\nHost: folio\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"data\"",
        app.token
    );
    let sent = Instant::now();
    stream.write_all(head.as_bytes()).await.unwrap();
    let answer = closed_within(&mut stream, Duration::from_secs(5))
        .await
        .expect("answered");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"key\":\"request-timeout\""), "{answer}");
    assert!(sent.elapsed() >= Duration::from_millis(450));
}

#[tokio::test]
async fn beyond_max_connections_new_ones_wait_for_a_free_slot() {
    let app = app_with(|c| c.limits.max_connections = 4).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut stream = connect(&app).await;
        assert_eq!(ping_on(&mut stream, &app.token).await, "HTTP/1.1 200 OK");
        held.push(stream);
    }
    // a fifth connection is not served while four are open...
    let mut fifth = connect(&app).await;
    let request = format!(
        "GET /utils/v1/ping HTTP/1.1\r\nHost: folio\r\nAuthorization: Bearer {}\r\n\r\n",
        app.token
    );
    fifth.write_all(request.as_bytes()).await.unwrap();
    let mut buf = [0u8; 1024];
    let early = tokio::time::timeout(Duration::from_millis(500), fifth.read(&mut buf)).await;
    assert!(early.is_err(), "served beyond the cap");
    // ...and is served as soon as one closes
    drop(held.pop());
    let n = tokio::time::timeout(Duration::from_secs(3), fifth.read(&mut buf))
        .await
        .expect("served once a slot is free")
        .unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
}
