//! Envelope model: wrapping, round trips of the reference examples, shape errors, limits.

use std::path::PathBuf;

use gobl::Fault;
use gobl::digest::digest;
use gobl::envelope::{ENVELOPE_SCHEMA, Envelope, codes, document_schema, is_envelope, short_type};
use gobl::json::{Value, parse, parse_with_limit};
use uuid::Uuid;

const UUID: &str = "8a51fd30-2a27-11ee-be56-0242ac120002";

fn doc() -> Value {
    parse(r#"{"$schema":"https://gobl.org/draft-0/note/message","title":"Hi","n":1.50,"z":null}"#)
        .unwrap()
}

fn envelope_text(head: &str, doc: &str) -> String {
    format!(r#"{{"$schema":"{ENVELOPE_SCHEMA}","head":{head},"doc":{doc}}}"#)
}

fn paths(text: &str) -> Vec<String> {
    let errs = Envelope::from_value(&parse(text).unwrap()).unwrap_err();
    errs.into_iter().map(|e| e.path).collect()
}

#[test]
fn wrap_computes_digest() {
    let env = Envelope::wrap(Uuid::parse_str(UUID).unwrap(), doc()).unwrap();
    // Canonical: {"$schema":"…","n":1.5E0,"title":"Hi"} (null member dropped).
    let expected = gobl::digest::Digest::sha256(
        br#"{"$schema":"https://gobl.org/draft-0/note/message","n":1.5E0,"title":"Hi"}"#,
    );
    assert_eq!(env.head.dig, expected);
    assert!(env.validate().is_ok());
    let value = env.to_value();
    assert!(is_envelope(&value));
    assert_eq!(
        document_schema(&value),
        Some("https://gobl.org/draft-0/note/message")
    );
    assert_eq!(
        document_schema(&doc()),
        Some("https://gobl.org/draft-0/note/message")
    );
    assert_eq!(env.document_schema().map(short_type), Some("note/message"));
    // The doc is carried exactly, literal and null member included.
    assert_eq!(
        value.get("doc").unwrap().to_json_string(),
        doc().to_json_string()
    );
    let back = Envelope::from_value(&value).unwrap();
    assert_eq!(back, env);
}

#[test]
fn wrap_rejects_uncanonicalisable_doc() {
    let err =
        Envelope::wrap(Uuid::nil(), parse(r#"{"$schema":"x","n":1e999}"#).unwrap()).unwrap_err();
    assert_eq!(err.code, codes::INVALID_DOCUMENT);
}

#[test]
fn short_types() {
    assert_eq!(
        short_type("https://gobl.org/draft-0/bill/invoice"),
        "bill/invoice"
    );
    assert_eq!(short_type("https://gobl.org/draft-0/envelope"), "envelope");
    assert_eq!(short_type("https://example.com/x"), "https://example.com/x");
}

#[test]
fn unknown_schema_doc_is_carried() {
    let d = parse(r#"{"$schema":"https://example.com/custom","b":[1e2,0.10],"a":{}}"#).unwrap();
    let env = Envelope::wrap(Uuid::new_v4(), d.clone()).unwrap();
    let back = Envelope::from_json(&env.to_json_string()).unwrap();
    assert_eq!(back.doc.to_json_string(), d.to_json_string());
    assert!(back.verify_digest().is_ok());
}

#[test]
fn digest_mismatch_is_a_fault() {
    let mut env = Envelope::wrap(Uuid::new_v4(), doc()).unwrap();
    env.doc.set("title", Value::String("Changed".into()));
    let fault: Fault = env.verify_digest().unwrap_err();
    assert_eq!(fault.code, codes::DIGEST_MISMATCH);
    assert_eq!(fault.paths, vec!["head.dig.val".to_owned()]);
    env.refresh_digest().unwrap();
    assert!(env.verify_digest().is_ok());
    env.head.dig.alg = "sha1".into();
    assert_eq!(
        env.verify_digest().unwrap_err().code,
        codes::DIGEST_ALGORITHM
    );
}

#[test]
fn stamps_require_signatures() {
    let mut env = Envelope::wrap(Uuid::new_v4(), doc()).unwrap();
    env.head.stamps.push(gobl::envelope::Stamp {
        prv: "verifactu-qr".into(),
        val: "x".into(),
    });
    let fault = env.validate().unwrap_err();
    assert_eq!(fault.code, codes::STAMPS_UNSIGNED);
    assert_eq!(fault.paths, vec!["head.stamps".to_owned()]);
    env.sigs.push("a.b.c".into());
    assert!(env.validate().is_ok());
}

#[test]
fn head_fields_round_trip() {
    let dig = digest(&doc()).unwrap();
    let head = format!(
        r#"{{"uuid":"{UUID}","dig":{{"alg":"sha256","val":"{}"}},"stamps":[{{"prv":"p","val":"v"}}],"links":[{{"key":"k","url":"https://x"}}],"tags":["a","b"],"meta":{{"k":"v"}},"notes":"n","draft":true,"from":{{"x":1.0}},"ignore":null}}"#,
        dig.val
    );
    let text = format!(
        r#"{{"$schema":"{ENVELOPE_SCHEMA}","head":{head},"doc":{},"sigs":["a.b.c"]}}"#,
        doc().to_json_string()
    );
    let env = Envelope::from_json(&text).unwrap();
    assert_eq!(env.head.tags, ["a", "b"]);
    assert_eq!(env.head.stamps.len(), 1);
    assert_eq!(env.head.notes.as_deref(), Some("n"));
    assert_eq!(env.head.draft, Some(true));
    assert_eq!(env.head.extra.len(), 2);
    assert_eq!(env.to_json_string(), text);
    assert!(env.validate().is_ok());
}

#[test]
fn wrong_shapes_report_paths() {
    let d = doc().to_json_string();
    let dig = digest(&doc()).unwrap().val;
    assert_eq!(
        paths(&envelope_text(
            r#"{"uuid":"nope","dig":{"alg":"sha256","val":"00"}}"#,
            &d
        )),
        ["head.uuid", "head.dig.val"]
    );
    assert_eq!(
        paths(&envelope_text(
            &format!(r#"{{"uuid":5,"dig":{{"alg":"sha256","val":"{dig}"}}}}"#),
            &d
        )),
        ["head.uuid"]
    );
    assert_eq!(paths(&envelope_text("{}", &d)), ["head.uuid", "head.dig"]);
    assert_eq!(
        paths(&envelope_text(
            &format!(
                r#"{{"uuid":"{UUID}","dig":{{"alg":"sha256","val":"{dig}"}},"tags":["a",1],"stamps":[{{"prv":"p"}}],"meta":{{"m":2}},"notes":[],"draft":"yes"}}"#
            ),
            &d
        )),
        [
            "head.tags[1]",
            "head.stamps[0].val",
            "head.meta.m",
            "head.notes",
            "head.draft"
        ]
    );
    let head = format!(r#"{{"uuid":"{UUID}","dig":{{"alg":"sha256","val":"{dig}"}}}}"#);
    assert_eq!(paths(&envelope_text(&head, "[]")), ["doc"]);
    assert_eq!(paths(&envelope_text(&head, "{}")), ["doc.$schema"]);
    assert_eq!(
        paths(&envelope_text(&head, r#"{"$schema":7}"#)),
        ["doc.$schema"]
    );
    assert_eq!(
        paths(&format!(
            r#"{{"$schema":"x","head":{head},"doc":{d},"sigs":["abc",1],"extra":1}}"#
        )),
        ["$schema", "sigs[0]", "sigs[1]", "extra"]
    );
    assert_eq!(
        paths(r#"{"head":{}}"#),
        ["head.uuid", "head.dig", "$schema", "doc"]
    );
    assert_eq!(paths("[1]"), ["$"]);
    let fault = Fault::from(Envelope::from_value(&parse("{}").unwrap()).unwrap_err());
    assert_eq!(fault.code, codes::INVALID_ENVELOPE);
    assert_eq!(fault.paths, ["$schema", "head", "doc"]);
}

#[test]
fn deep_nesting_errors_cleanly() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let started = std::time::Instant::now();
    let err = parse(&deep).unwrap_err();
    assert!(err.message.contains("nesting"), "{err}");
    assert_eq!((err.line, err.column), (1, 65));
    let deep_obj = format!("{}1{}", r#"{"a":"#.repeat(10_000), "}".repeat(10_000));
    assert!(parse(&deep_obj).is_err());
    let env = envelope_text(&format!(r#"{{"uuid":"{UUID}"}}"#), &deep_obj);
    assert!(Envelope::from_json(&env).is_err());
    assert!(started.elapsed().as_secs() < 2);
    // Within the limit is fine; the iterative parser copes with any configured limit.
    assert!(parse(&format!("{}{}", "[".repeat(64), "]".repeat(64))).is_ok());
    assert!(parse(&format!("{}{}", "[".repeat(65), "]".repeat(65))).is_err());
    let v = parse_with_limit(&deep, 20_000).unwrap();
    std::mem::forget(v); // dropping 10,000 nested Vecs recursively is fine, but not needed here
}

fn example_outputs() -> Option<Vec<PathBuf>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    let mut files = Vec::new();
    for country in std::fs::read_dir(root).ok()?.flatten() {
        let Ok(outs) = std::fs::read_dir(country.path().join("out")) else {
            continue;
        };
        files.extend(
            outs.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json")),
        );
    }
    files.sort();
    Some(files)
}

#[test]
fn reference_examples_round_trip() {
    let Some(files) = example_outputs() else {
        println!("skipped: reference examples folder absent");
        return;
    };
    let mut checked = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let value = parse(&text).unwrap();
        let env =
            Envelope::from_value(&value).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        env.validate()
            .unwrap_or_else(|f| panic!("{}: {f}", path.display()));
        assert!(env.document_schema().is_some());
        let original_doc = value.get("doc").unwrap().to_json_string();
        // written member by member, it is the text of the envelope's value
        assert_eq!(env.to_json_string(), env.to_value().to_json_string());
        // and serialised from its members, it is that value serialised
        assert_eq!(
            serde_json::to_string(&env).unwrap(),
            serde_json::to_string(&env.to_value()).unwrap()
        );
        let again = parse(&env.to_json_string()).unwrap();
        assert_eq!(
            again.get("doc").unwrap().to_json_string(),
            original_doc,
            "{}",
            path.display()
        );
        assert_eq!(
            again,
            value,
            "{}: whole envelope round trip",
            path.display()
        );
        checked += 1;
    }
    println!("round-tripped {checked} reference envelopes");
}
