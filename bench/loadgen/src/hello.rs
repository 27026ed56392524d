//! The baseline of the ping benchmark: a bare axum server answering `{"ping":"pong"}` with no
//! auth, limits, metrics or logging, on the same runtime settings as folio.

use axum::routing::get;
use axum::{Json, Router};
use clap::Parser;

/// The allocator folio's server runs on, so that the ratio compares the work done, not the
/// allocators.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Bare hello-world server.
#[derive(Parser)]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:18081")]
    listen: std::net::SocketAddr,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let app = Router::new().route(
        "/utils/v1/ping",
        get(|| async { Json(serde_json::json!({"ping": "pong"})) }),
    );
    let listener = tokio::net::TcpListener::bind(args.listen).await?;
    eprintln!("hello listening on http://{}", listener.local_addr()?);
    axum::serve(listener, app).await?;
    Ok(())
}
