//! The command line others script against: first start, workspaces and tokens.

use std::os::unix::fs::PermissionsExt;

use folio_store::testing;

use crate::harness::{Process, run_cli};

#[tokio::test]
async fn first_start_writes_a_private_token_file_and_logs_its_path_only() {
    let db = testing::sqlite().await;
    let data = db.dir().join("first");
    let process = Process::spawn(&data, db.url(), &[]).await;
    let path = data.join("token");
    let token = std::fs::read_to_string(&path).unwrap().trim().to_string();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let log = process.log.lock().unwrap().clone();
    assert!(log.contains(&path.display().to_string()), "{log}");
    assert!(!log.contains(&token), "the token leaked into the log");
    let resp = reqwest::Client::new()
        .get(format!("{}/utils/v1/ping", process.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn workspace_and_token_commands() {
    for db in testing::backends().await {
        let data = db.dir().join("cli");
        let data_arg = data.display().to_string();
        let storage = ["--data", data_arg.as_str(), "--database", db.url()];
        let cli = |args: &[&str]| {
            let mut all: Vec<&str> = args.to_vec();
            all.extend_from_slice(&storage);
            run_cli(&all)
        };

        let (code, out, err) = cli(&["workspace", "create", "acme"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("acme"));
        let (code, _, _) = cli(&["workspace", "create", "acme"]);
        assert_ne!(code, 0, "a duplicate workspace name is refused");

        let (code, token, err) = cli(&["token", "create", "--workspace", "acme"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            token.lines().count(),
            1,
            "only the token on stdout: {token:?}"
        );
        let token = token.trim().to_string();
        assert_eq!(token.split('.').count(), 3);
        let (code, expiring, _) = cli(&[
            "token",
            "create",
            "--workspace",
            "acme",
            "--expires-in",
            "30d",
        ]);
        assert_eq!(code, 0);
        let (code, _, err) = cli(&["token", "create", "--workspace", "nope"]);
        assert_ne!(code, 0);
        assert!(err.contains("nope"), "{err}");

        let (code, list, _) = cli(&["token", "list"]);
        assert_eq!(code, 0);
        let rows: Vec<Vec<&str>> = list.lines().map(|l| l.split(' ').collect()).collect();
        let acme: Vec<&Vec<&str>> = rows.iter().filter(|r| r[1] == "acme").collect();
        assert_eq!(acme.len(), 2, "{list}");
        for row in &acme {
            assert_eq!(row.len(), 5, "id workspace created expiry revoked: {row:?}");
            uuid::Uuid::parse_str(row[0]).expect("the id comes first");
            assert_eq!(row[4], "-");
        }
        assert!(acme.iter().any(|r| r[3] == "-") && acme.iter().any(|r| r[3] != "-"));

        let process = Process::spawn(&data, db.url(), &[]).await;
        let ping = |t: String| {
            let base = process.base.clone();
            async move {
                reqwest::Client::new()
                    .get(format!("{base}/utils/v1/ping"))
                    .bearer_auth(t)
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            }
        };
        assert_eq!(ping(token.clone()).await, 200, "{}", db.label);
        assert_eq!(ping(expiring.trim().to_string()).await, 200);

        // Revoke the first token: the running server refuses it within its token cache
        // lifetime (`[auth] token_cache_ms`, 1 s by default).
        let first = acme.iter().find(|r| r[3] == "-").unwrap()[0].to_string();
        let (code, _, _) = cli(&["token", "revoke", &first]);
        assert_eq!(code, 0);
        let revoked_at = std::time::Instant::now();
        while ping(token.clone()).await != 401 {
            assert!(
                revoked_at.elapsed() < std::time::Duration::from_secs(3),
                "still accepted"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let (_, list, _) = cli(&["token", "list"]);
        let revoked = list.lines().find(|l| l.starts_with(&first)).unwrap();
        assert_ne!(revoked.split(' ').nth(4), Some("-"), "{revoked}");
        let (code, _, _) = cli(&["token", "revoke", &uuid::Uuid::nil().to_string()]);
        assert_ne!(code, 0, "revoking an unknown token fails");
    }
}

#[test]
fn openapi_check_passes_on_the_committed_snapshots() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("api").display().to_string();
    let (code, _, err) = run_cli(&["openapi", "--check", "--dir", &dir]);
    assert_eq!(code, 0, "{err}");

    // A snapshot that differs from the code fails the check; a removed endpoint is breaking.
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("api");
    let (code, _, _) = run_cli(&["openapi", "--write", "--dir", &copy.display().to_string()]);
    assert_eq!(code, 0);
    let file = copy.join("utils/v1.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    doc["paths"]["/utils/v1/retired"] = doc["paths"]["/utils/v1/ping"].clone();
    std::fs::write(&file, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let (code, _, err) = run_cli(&["openapi", "--check", "--dir", &copy.display().to_string()]);
    assert_ne!(code, 0);
    assert!(err.contains("path-removed"), "{err}");
}
