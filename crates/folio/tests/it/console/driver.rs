//! Debian's Chromium, driven through `chromedriver` on a loopback port by the `fantoccini`
//! WebDriver client. `.ci/run` installs both packages; without them the browser tests fail with
//! that instruction (no browser can be downloaded here).

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder};
use serde_json::{Value, json};

/// A running chromedriver and a browser session on it.
pub struct Browser {
    /// The WebDriver session.
    pub client: Client,
    /// chromedriver's address (`http://127.0.0.1:PORT`).
    pub driver: String,
    process: Child,
}

/// The first executable of `names` found on the `PATH`.
fn which(names: &[&str]) -> Option<String> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
            .map(|p| p.display().to_string())
    })
}

impl Browser {
    /// Starts chromedriver and a headless Chromium session at 1440×900; `None`, with the
    /// reason printed, where they are not installed (in CI, where `CI` is set, that fails).
    pub async fn start() -> Option<Browser> {
        let (Some(driver), Some(chromium)) = (
            which(&["chromedriver"]),
            which(&["chromium", "chromium-browser"]),
        ) else {
            let install = "apt-get install -y chromium chromium-driver";
            assert!(std::env::var_os("CI").is_none(), "no browser: {install}");
            eprintln!("skipped: the browser tests need Chromium: {install}");
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let process = Command::new(driver)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let url = format!("http://127.0.0.1:{port}");
        wait_ready(&url).await;
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                         "--disable-gpu", "--window-size=1440,900", "--lang=en-US",
                         "--no-first-run", "--disable-extensions"]
            },
            "goog:loggingPrefs": {"browser": "ALL"}
        });
        let caps = match caps {
            Value::Object(map) => map,
            _ => unreachable!(),
        };
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&url)
            .await
            .expect("a Chromium session");
        Some(Browser {
            client,
            driver: url,
            process,
        })
    }

    /// The browser's console messages since the last call (chromedriver's log endpoint).
    pub async fn console_messages(&self) -> Vec<Value> {
        let id = self
            .client
            .session_id()
            .await
            .expect("session id")
            .expect("a session");
        let resp = reqwest::Client::new()
            .post(format!("{}/session/{id}/se/log", self.driver))
            .json(&json!({"type": "browser"}))
            .send()
            .await
            .expect("the log is answered");
        let body: Value = resp.json().await.expect("log JSON");
        body["value"].as_array().cloned().unwrap_or_default()
    }

    /// Ends the session and chromedriver.
    pub async fn stop(mut self) {
        let _ = self.client.clone().close().await;
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

async fn wait_ready(url: &str) {
    let client = reqwest::Client::new();
    for _ in 0..100 {
        if let Ok(resp) = client.get(format!("{url}/status")).send().await
            && resp.status().is_success()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("chromedriver did not answer on {url}");
}
