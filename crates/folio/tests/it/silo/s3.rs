//! Files on S3: the built binary with `FOLIO_BLOBS=s3://…` against a local S3-compatible server
//! (moto's, `tests/it/data/s3_server.py`; `.ci/requirements.txt` installs it). Upload, download,
//! replace, and a restart of folio on the same database and bucket; every blob is read back
//! through the S3 API too, so the test fails if folio wrote to a local folder instead.

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use object_store::ObjectStore;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path as ObjectPath;
use reqwest::Method;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncBufReadExt, BufReader};
use uuid::Uuid;

use super::note;
use crate::harness::Process;

const BUCKET: &str = "folio-files";
const PREFIX: &str = "it";

/// The S3 server, stopped when dropped (its stdin closes, and it is killed).
struct S3 {
    _child: tokio::process::Child,
    endpoint: String,
}

impl S3 {
    /// Starts the server and creates [`BUCKET`] (moto takes an unsigned bucket creation); panics,
    /// never skips, when the server is not installed: CI installs it.
    async fn start() -> S3 {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/data/s3_server.py");
        let mut child = tokio::process::Command::new("python3")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("python3 runs");
        let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        let port = tokio::time::timeout(Duration::from_secs(60), stdout.next_line())
            .await
            .expect("the S3 server starts within 60 s")
            .unwrap();
        let Some(port) = port else {
            let out = child.wait_with_output().await.unwrap();
            panic!(
                "the local S3 server did not start; it is moto (its S3 part, with Flask) from PyPI, \
                 installed by `pip install -r .ci/requirements.txt`:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        let s3 = S3 {
            _child: child,
            endpoint: format!("http://127.0.0.1:{}", port.trim()),
        };
        reqwest::Client::new()
            .put(format!("{}/{BUCKET}", s3.endpoint))
            .send()
            .await
            .unwrap()
            .error_for_status()
            .expect("the bucket is created");
        s3
    }

    /// The `AWS_*` variables that point folio (object_store) at this server.
    fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("FOLIO_BLOBS", format!("s3://{BUCKET}/{PREFIX}")),
            ("AWS_ENDPOINT", self.endpoint.clone()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_ACCESS_KEY_ID", "test".into()),
            ("AWS_SECRET_ACCESS_KEY", "test".into()),
        ]
    }

    /// A client of the bucket through the S3 API (moto refuses unsigned object reads).
    fn bucket(&self) -> Arc<dyn ObjectStore> {
        let s3 = AmazonS3Builder::new()
            .with_endpoint(&self.endpoint)
            .with_allow_http(true)
            .with_region("us-east-1")
            .with_bucket_name(BUCKET)
            .with_access_key_id("test")
            .with_secret_access_key("test")
            .build()
            .unwrap();
        Arc::new(s3)
    }

    /// The bytes of the blob with this content, read from the bucket.
    async fn blob(&self, bytes: &[u8]) -> Vec<u8> {
        let hash = sha256(bytes);
        let key = format!("{PREFIX}/sha256/{}/{hash}", &hash[..2]);
        let found = self.bucket().get(&ObjectPath::from(key.as_str())).await;
        let found = found.unwrap_or_else(|e| panic!("{key} is not in the bucket: {e}"));
        found.bytes().await.unwrap().to_vec()
    }
}

fn sha256(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// folio over HTTP with the token of its first start.
struct Api {
    base: String,
    token: String,
    http: reqwest::Client,
}

impl Api {
    fn of(p: &Process, data: &std::path::Path) -> Api {
        let token = std::fs::read_to_string(data.join("token")).expect("token file");
        Api {
            base: p.base.clone(),
            token: token.trim().to_string(),
            http: reqwest::Client::new(),
        }
    }

    /// Status and body bytes.
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Vec<u8>) {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        if let Some(body) = body {
            req = req.json(&body);
        }
        let resp = req.send().await.expect("folio answers");
        let status = resp.status().as_u16();
        (status, resp.bytes().await.unwrap().to_vec())
    }

    /// The JSON answer of a call that must succeed.
    async fn ok(&self, method: Method, path: &str, body: Option<Value>) -> Value {
        let (status, bytes) = self.call(method, path, body).await;
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(status, 200, "{path}: {text}");
        serde_json::from_slice(&bytes).unwrap()
    }

    /// Attaches `bytes` as the envelope's `scan` file under `file_id`.
    async fn upload(&self, envelope: Uuid, file_id: Uuid, bytes: &[u8]) -> Value {
        let data = base64::engine::general_purpose::STANDARD.encode(bytes);
        let body = json!({"name": "scan.bin", "data": data, "key": "scan", "category": "source"});
        let path = format!("/silo/v1/envelopes/{envelope}/files/{file_id}");
        self.ok(Method::PUT, &path, Some(body)).await
    }

    /// The file's bytes as folio serves them.
    async fn download(&self, envelope: Uuid, file_id: Uuid) -> Vec<u8> {
        let path = format!("/silo/v1/envelopes/{envelope}/files/{file_id}");
        let (status, bytes) = self.call(Method::GET, &path, None).await;
        assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&bytes));
        bytes
    }

    /// The id of the envelope's one current attachment.
    async fn attachment(&self, envelope: Uuid) -> String {
        let env = self
            .ok(Method::GET, &format!("/silo/v1/envelopes/{envelope}"), None)
            .await;
        let attachments = env["attachments"].as_array().unwrap();
        assert_eq!(attachments.len(), 1, "{env}");
        attachments[0]["id"].as_str().unwrap().to_string()
    }
}

/// Every byte value, in a pseudo-random order, so a lossy text or form round trip shows.
fn content(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[tokio::test]
async fn files_live_in_the_bucket_and_survive_a_restart() {
    let started = Instant::now();
    let s3 = S3::start().await;
    eprintln!("S3 server up in {:?}", started.elapsed());
    let env = s3.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let db = folio_store::testing::sqlite().await;
    let data = db.dir().join("server");
    let mut folio = Process::spawn(&data, db.url(), &env).await;
    let api = Api::of(&folio, &data);

    let envelope = Uuid::new_v4();
    let doc = json!({"data": note(1)});
    let path = format!("/silo/v1/envelopes/{envelope}");
    api.ok(Method::PUT, &path, Some(doc)).await;

    // Upload, download byte-identical, and the same bytes under the content's key in the bucket.
    let first = content(1, 256 * 1024);
    let first_id = Uuid::new_v4();
    let out = api.upload(envelope, first_id, &first).await;
    assert_eq!(out["hash"], sha256(&first));
    assert!(api.download(envelope, first_id).await == first);
    assert!(s3.blob(&first).await == first);
    assert!(
        !data.join("files").exists(),
        "folio wrote to its local blob folder"
    );

    // Replace: same key and category, other bytes; the envelope points at the new file.
    let second = content(2, 100 * 1024 + 7);
    let second_id = Uuid::new_v4();
    api.upload(envelope, second_id, &second).await;
    assert_eq!(api.attachment(envelope).await, second_id.to_string());
    assert!(api.download(envelope, second_id).await == second);
    assert!(s3.blob(&second).await == second);

    // Restart on the same database and bucket: both files are still served.
    folio.signal("TERM");
    assert_eq!(folio.wait().await, Some(0));
    let folio = Process::spawn(&data, db.url(), &env).await;
    let api = Api::of(&folio, &data);
    assert_eq!(api.attachment(envelope).await, second_id.to_string());
    assert!(api.download(envelope, second_id).await == second);
    assert!(api.download(envelope, first_id).await == first);

    // A blob gone from the bucket is the server's fault (500), not the client's.
    let hash = sha256(&first);
    let key = format!("{PREFIX}/sha256/{}/{hash}", &hash[..2]);
    s3.bucket().delete(&ObjectPath::from(key)).await.unwrap();
    let path = format!("/silo/v1/envelopes/{envelope}/files/{first_id}");
    assert_eq!(api.call(Method::GET, &path, None).await.0, 500);
    eprintln!("done in {:?}", started.elapsed());
}
