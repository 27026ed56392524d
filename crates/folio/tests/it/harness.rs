//! Test harness: a real folio server per test, in-process (`TestApp`) or as a child process of
//! the built binary (`Process`, for crash and signal tests).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use folio::Config;
use folio_api::ServiceVersion;
use folio_store::testing::{self, TestDb};
use reqwest::Method;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_util::sync::CancellationToken;

/// A response, read whole.
#[derive(Debug)]
pub struct Resp {
    /// Status code.
    pub status: u16,
    /// Headers.
    pub headers: reqwest::header::HeaderMap,
    /// Body bytes.
    pub body: Vec<u8>,
}

impl Resp {
    /// The body as JSON (panics with the body text when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A header as a string.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts the status and that an error answer has the one JSON error body; returns the JSON.
    #[track_caller]
    pub fn expect(&self, status: u16) -> Value {
        assert_eq!(
            self.status,
            status,
            "unexpected status; body: {}",
            self.text()
        );
        if status >= 400 {
            assert_error_body(self);
        }
        if self.body.is_empty() {
            Value::Null
        } else {
            self.json()
        }
    }
}

/// Every error answer: JSON content type, a `key` and a `message`.
#[track_caller]
pub fn assert_error_body(resp: &Resp) {
    assert!(
        resp.header("content-type")
            .is_some_and(|c| c.starts_with("application/json")),
        "error without JSON content type: {:?} {}",
        resp.headers,
        resp.text()
    );
    let body = resp.json();
    assert!(
        body["key"].is_string() && body["message"].is_string(),
        "not an error body: {body}"
    );
}

/// A server started in this process.
pub struct TestApp {
    /// `http://127.0.0.1:PORT`
    pub base: String,
    /// `http://127.0.0.1:PORT` of the operations listener.
    pub ops: String,
    /// The token written on first start (workspace `default`).
    pub token: String,
    /// HTTP client.
    pub client: reqwest::Client,
    /// The database (dropped with the app).
    pub db: TestDb,
    /// The data folder.
    pub data: PathBuf,
    shutdown: CancellationToken,
    done: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl TestApp {
    /// A server on a fresh SQLite database with default settings.
    pub async fn sqlite() -> TestApp {
        TestApp::start(testing::sqlite().await).await
    }

    /// One server per backend available (SQLite; PostgreSQL when configured).
    pub async fn backends() -> Vec<TestApp> {
        let mut apps = Vec::new();
        for db in testing::backends().await {
            apps.push(TestApp::start(db).await);
        }
        apps
    }

    /// A server with default settings and every service.
    pub async fn start(db: TestDb) -> TestApp {
        TestApp::start_with(db, |_| {}, folio::services::all()).await
    }

    /// A server with adjusted settings and a chosen set of service versions.
    pub async fn start_with(
        db: TestDb,
        configure: impl FnOnce(&mut Config),
        services: Vec<ServiceVersion>,
    ) -> TestApp {
        let data = db.dir().join("server");
        let mut config = Config::for_data(&data);
        config.database = db.url().to_string();
        config.listen = ([127, 0, 0, 1], 0).into();
        config.ops_listen = ([127, 0, 0, 1], 0).into();
        // the server (and a command run on its data folder) seals with the key the test's own
        // store opens with
        std::fs::create_dir_all(&data).unwrap();
        db.key()
            .write_file(&data.join(folio::config::DATA_KEY_FILE))
            .unwrap();
        configure(&mut config);
        let shutdown = CancellationToken::new();
        let running = folio::launch(config, services, shutdown.clone())
            .await
            .expect("the server starts");
        let token = std::fs::read_to_string(data.join("token"))
            .expect("first start writes the token file")
            .trim()
            .to_string();
        TestApp {
            base: format!("http://{}", running.public),
            ops: format!("http://{}", running.ops),
            token,
            client: reqwest::Client::new(),
            db,
            data,
            shutdown,
            done: Some(running.done),
        }
    }

    /// Backend label for assertion messages.
    pub fn label(&self) -> &'static str {
        self.db.label
    }

    /// A request with the token.
    pub fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token)
    }

    /// Sends a request and reads the whole answer.
    pub async fn send(&self, builder: reqwest::RequestBuilder) -> Resp {
        read(builder.send().await.expect("the request is answered")).await
    }

    /// GET with the token.
    pub async fn get(&self, path: &str) -> Resp {
        self.send(self.request(Method::GET, path)).await
    }

    /// PUT JSON with the token.
    pub async fn put(&self, path: &str, body: &Value) -> Resp {
        self.send(self.request(Method::PUT, path).json(body)).await
    }

    /// POST JSON with the token.
    pub async fn post(&self, path: &str, body: &Value) -> Resp {
        self.send(self.request(Method::POST, path).json(body)).await
    }

    /// PATCH JSON with the token.
    pub async fn patch(&self, path: &str, body: &Value) -> Resp {
        self.send(self.request(Method::PATCH, path).json(body))
            .await
    }

    /// A request with raw bytes as the body.
    pub async fn raw(&self, method: Method, path: &str, body: Vec<u8>) -> Resp {
        self.send(
            self.request(method, path)
                .header("content-type", "application/json")
                .body(body),
        )
        .await
    }

    /// GET on the operations listener.
    pub async fn ops_get(&self, path: &str) -> Resp {
        read(
            self.client
                .get(format!("{}{path}", self.ops))
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    /// Creates another workspace with a token of its own; returns the token.
    pub async fn other_workspace(&self, name: &str) -> String {
        let store = &self.db.store;
        let workspace = folio::bootstrap::create_workspace(store, name)
            .await
            .unwrap();
        let auth = folio_api::auth::Authenticator::new(store.clone())
            .await
            .unwrap();
        auth.issue(workspace.id, None).await.unwrap().1
    }

    /// Stops the server gracefully and waits for it.
    pub async fn stop(mut self) {
        self.shutdown.cancel();
        if let Some(done) = self.done.take() {
            done.await.unwrap().unwrap();
        }
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

async fn read(response: reqwest::Response) -> Resp {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.bytes().await.expect("the body is read").to_vec();
    Resp {
        status,
        headers,
        body,
    }
}

/// The real `folio` binary as a child process.
pub struct Process {
    child: tokio::process::Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    /// Operations listener.
    pub ops: String,
    /// Everything the process logged so far.
    pub log: Arc<Mutex<String>>,
    /// Copies stderr into `log`; ends at the process's exit.
    reader: Option<tokio::task::JoinHandle<()>>,
}

/// Path of the built binary.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_folio")
}

impl Process {
    /// Starts `folio serve` on ephemeral ports for a data folder and database.
    pub async fn spawn(data: &Path, database: &str, env: &[(&str, &str)]) -> Process {
        let mut command = tokio::process::Command::new(binary());
        command
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--ops-listen",
                "127.0.0.1:0",
            ])
            .arg("--data")
            .arg(data)
            .args(["--database", database])
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("folio starts");
        let stderr = child.stderr.take().unwrap();
        let log = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = tokio::sync::oneshot::channel();
        let sink = log.clone();
        let reader = tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            let mut tx = Some(tx);
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(rest) = line.split("listening on http://").nth(1) {
                    let public = rest
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    let ops = rest
                        .split("operations on http://")
                        .nth(1)
                        .map(|s| {
                            s.trim_end_matches(|c: char| !c.is_ascii_digit())
                                .to_string()
                        })
                        .unwrap_or_default();
                    if let Some(tx) = tx.take() {
                        let _ = tx.send((public, ops));
                    }
                }
                let mut log = sink.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        let (public, ops) = tokio::time::timeout(Duration::from_secs(30), rx)
            .await
            .unwrap_or_else(|_| panic!("folio did not start; log:\n{}", log.lock().unwrap()))
            .unwrap_or_else(|_| panic!("folio exited; log:\n{}", log.lock().unwrap()));
        Process {
            child,
            base: format!("http://{public}"),
            ops: format!("http://{ops}"),
            log,
            reader: Some(reader),
        }
    }

    /// Sends a signal (`"KILL"`, `"TERM"`, `"INT"`).
    pub fn signal(&self, name: &str) {
        let pid = self.child.id().expect("still running");
        let status = std::process::Command::new("kill")
            .arg(format!("-{name}"))
            .arg(pid.to_string())
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits for the process to exit and for its last log lines; returns its exit code.
    pub async fn wait(&mut self) -> Option<i32> {
        let code = tokio::time::timeout(Duration::from_secs(60), self.child.wait())
            .await
            .expect("folio exits in time")
            .unwrap()
            .code();
        // The log is read by another task: without this, its last lines may not be in yet.
        if let Some(reader) = self.reader.take() {
            let _ = tokio::time::timeout(Duration::from_secs(5), reader).await;
        }
        code
    }
}

/// Runs the `folio` binary to completion with arguments; returns (exit code, stdout, stderr).
pub fn run_cli(args: &[&str]) -> (i32, String, String) {
    let output = std::process::Command::new(binary())
        .args(args)
        .output()
        .expect("folio runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
