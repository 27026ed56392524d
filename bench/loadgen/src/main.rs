//! `loadgen`: keeps N HTTP/1.1 keep-alive connections busy against one URL for a while and
//! reports throughput and latency percentiles. `{uuid}` in the path or body is replaced by a
//! fresh UUID per request (so PUT benchmarks create a new resource each time).

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bytes::Bytes;
use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::rt::TokioIo;

/// Load generator.
#[derive(Parser, Clone)]
struct Args {
    /// Target URL (`http://host:port/path`); `{uuid}` is replaced per request.
    url: String,
    /// HTTP method.
    #[arg(long, default_value = "GET")]
    method: String,
    /// Extra header `Name: value`; repeatable.
    #[arg(long = "header", short = 'H')]
    headers: Vec<String>,
    /// File whose contents are the request body; `{uuid}` is replaced per request.
    #[arg(long)]
    body_file: Option<std::path::PathBuf>,
    /// Concurrent connections.
    #[arg(long, short = 'c', default_value_t = 32)]
    connections: usize,
    /// How long to run.
    #[arg(long, short = 'd', default_value = "10s")]
    duration: humantime::Duration,
    /// Label printed with the results.
    #[arg(long, default_value = "target")]
    label: String,
}

struct Outcome {
    latencies_us: Vec<u32>,
    errors: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let url: hyper::Uri = args.url.replace("{uuid}", "x").parse().context("url")?;
    let authority = url.authority().context("url needs host:port")?.to_string();
    let body = match &args.body_file {
        Some(path) => std::fs::read_to_string(path)?,
        None => String::new(),
    };
    let deadline = Instant::now() + Duration::from(args.duration);
    let mut tasks = Vec::new();
    for _ in 0..args.connections {
        let (args, authority, body) = (args.clone(), authority.clone(), body.clone());
        tasks.push(tokio::spawn(async move {
            connection(args, authority, body, deadline).await
        }));
    }
    let started = Instant::now();
    let mut latencies = Vec::new();
    let mut errors = 0;
    for task in tasks {
        let outcome = task.await??;
        latencies.extend(outcome.latencies_us);
        errors += outcome.errors;
    }
    let elapsed = started.elapsed().as_secs_f64();
    if latencies.is_empty() {
        bail!(
            "no request succeeded ({errors} non-2xx answers, {:.0}/s)",
            errors as f64 / elapsed
        );
    }
    latencies.sort_unstable();
    let pct = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p) as usize] as f64 / 1000.0;
    println!(
        "{}: {:.0} req/s, {} ok, {} errors, p50 {:.2} ms, p99 {:.2} ms",
        args.label,
        latencies.len() as f64 / elapsed,
        latencies.len(),
        errors,
        pct(0.50),
        pct(0.99)
    );
    Ok(())
}

async fn connection(
    args: Args,
    authority: String,
    body: String,
    deadline: Instant,
) -> anyhow::Result<Outcome> {
    let stream = tokio::net::TcpStream::connect(&authority).await?;
    stream.set_nodelay(true)?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(conn);
    let mut outcome = Outcome {
        latencies_us: Vec::new(),
        errors: 0,
    };
    let path = hyper::Uri::try_from(args.url.replace("{uuid}", "__UUID__"))?
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "/".into());
    while Instant::now() < deadline {
        let id = uuid::Uuid::now_v7().to_string();
        let mut request = Request::builder()
            .method(args.method.as_str())
            .uri(path.replace("__UUID__", &id))
            .header("host", &authority);
        for header in &args.headers {
            let (name, value) = header.split_once(':').context("header is Name: value")?;
            request = request.header(name.trim(), value.trim());
        }
        if !body.is_empty() {
            request = request.header("content-type", "application/json");
        }
        let request = request.body(Full::new(Bytes::from(body.replace("{uuid}", &id))))?;
        sender.ready().await?;
        let started = Instant::now();
        let response = sender.send_request(request).await?;
        let status = response.status();
        response.into_body().collect().await?;
        if status.is_success() {
            outcome
                .latencies_us
                .push(started.elapsed().as_micros().min(u32::MAX as u128) as u32);
        } else {
            outcome.errors += 1;
        }
    }
    Ok(outcome)
}
