//! ES256 keys, JWS signatures on envelopes.

use std::path::PathBuf;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use gobl::envelope::{Envelope, codes};
use gobl::json::{Value, parse};
use gobl::sign::{Jwk, PrivateKey, PublicKey, parse_jws};
use uuid::Uuid;

fn envelope() -> Envelope {
    let doc = parse(r#"{"$schema":"https://gobl.org/draft-0/bill/invoice","code":"A-1","sum":"90.00","n":2.50}"#).unwrap();
    Envelope::wrap(Uuid::new_v4(), doc).unwrap()
}

#[test]
fn sign_then_verify() {
    let key = PrivateKey::generate();
    assert!(Uuid::parse_str(key.kid()).is_ok());
    let mut env = envelope();
    env.sign(&key, 1_700_000_000).unwrap();
    assert_eq!(env.sigs.len(), 1);
    env.verify_signatures(&[key.public()]).unwrap();

    let jws = parse_jws(&env.sigs[0]).unwrap();
    assert_eq!(jws.kid.as_deref(), Some(key.kid()));
    assert_eq!(jws.payload.uuid, env.head.uuid);
    assert_eq!(jws.payload.dig, env.head.dig);
    assert_eq!(jws.payload.iat, 1_700_000_000);

    // Header and payload exactly as GOBL.md §3 describes, signature 64 raw bytes.
    let parts: Vec<&str> = env.sigs[0].split('.').collect();
    let header = String::from_utf8(B64.decode(parts[0]).unwrap()).unwrap();
    assert_eq!(
        header,
        format!(r#"{{"alg":"ES256","kid":"{}"}}"#, key.kid())
    );
    let payload = parse(std::str::from_utf8(&B64.decode(parts[1]).unwrap()).unwrap()).unwrap();
    assert_eq!(
        payload.get("iat").and_then(Value::as_i64),
        Some(1_700_000_000)
    );
    assert_eq!(B64.decode(parts[2]).unwrap().len(), 64);

    // Head-only changes after signing are allowed; the round trip keeps the signature valid.
    env.head.tags.push("late".into());
    env.head.stamps.push(gobl::envelope::Stamp {
        prv: "p".into(),
        val: "v".into(),
    });
    let back = Envelope::from_json(&env.to_json_string()).unwrap();
    back.validate().unwrap();
    back.verify_signatures(&[key.public()]).unwrap();

    // Two signers.
    let other = PrivateKey::generate();
    env.sign(&other, 1_700_000_100).unwrap();
    env.verify_signatures(&[key.public(), other.public()])
        .unwrap();
    assert_eq!(
        env.verify_signatures(&[key.public()]).unwrap_err().paths,
        ["sigs[1]"]
    );
}

#[test]
fn tampered_doc_is_rejected() {
    let key = PrivateKey::generate();
    let mut env = envelope();
    env.sign(&key, 1).unwrap();
    env.doc.set("sum", Value::String("90.0".into()));
    assert_eq!(
        env.verify_signatures(&[key.public()]).unwrap_err().code,
        codes::DIGEST_MISMATCH
    );
    // Re-digesting the tampered doc does not help: the signature names the old digest.
    env.refresh_digest().unwrap();
    assert_eq!(
        env.verify_signatures(&[key.public()]).unwrap_err().code,
        codes::SIGNATURE_MISMATCH
    );
    // Signing a stale digest is refused.
    let mut stale = envelope();
    stale.doc.set("code", Value::String("B".into()));
    assert_eq!(
        stale.sign(&key, 1).unwrap_err().code,
        codes::DIGEST_MISMATCH
    );
}

#[test]
fn wrong_key_is_rejected() {
    let key = PrivateKey::generate();
    let mut env = envelope();
    env.sign(&key, 1).unwrap();
    let fault = env
        .verify_signatures(&[PrivateKey::generate().public()])
        .unwrap_err();
    assert_eq!(fault.code, codes::SIGNATURE_INVALID);
    assert_eq!(fault.paths, ["sigs[0]"]);
    assert_eq!(
        env.verify_signatures(&[]).unwrap_err().code,
        codes::SIGNATURE_INVALID
    );
    // Same kid, different key material.
    let mut impostor = PrivateKey::generate().to_jwk();
    impostor.kid = key.kid().to_owned();
    let impostor = PrivateKey::from_jwk(&impostor).unwrap().public();
    assert_eq!(
        env.verify_signatures(std::slice::from_ref(&impostor))
            .unwrap_err()
            .code,
        codes::SIGNATURE_INVALID
    );
    // The right key under another kid still verifies (kid is a hint, the math decides).
    let mut renamed = key.public().to_jwk();
    renamed.kid = "other".into();
    env.verify_signatures(&[PublicKey::from_jwk(&renamed).unwrap()])
        .unwrap();
    env.verify_signatures(&[impostor, key.public()]).unwrap();
}

#[test]
fn signature_for_another_envelope_is_rejected() {
    let key = PrivateKey::generate();
    let mut a = envelope();
    a.sign(&key, 1).unwrap();
    let mut b = envelope();
    b.sigs = a.sigs.clone();
    assert_eq!(
        b.verify_signatures(&[key.public()]).unwrap_err().code,
        codes::SIGNATURE_MISMATCH
    );
}

#[test]
fn malformed_and_foreign_alg_rejected() {
    let key = PrivateKey::generate();
    let mut env = envelope();
    env.sign(&key, 1).unwrap();
    let good = env.sigs[0].clone();
    let parts: Vec<&str> = good.split('.').collect();
    for header in [
        r#"{"alg":"HS256","kid":"x"}"#,
        r#"{"alg":"none"}"#,
        r#"{"kid":"x"}"#,
        r#"{"alg":"ES256","crit":["b64"]}"#,
    ] {
        env.sigs = vec![format!("{}.{}.{}", B64.encode(header), parts[1], parts[2])];
        assert_eq!(
            env.verify_signatures(&[key.public()]).unwrap_err().code,
            codes::SIGNATURE_MALFORMED,
            "{header}"
        );
    }
    for bad in [
        "",
        "a.b",
        "a.b.c.d",
        "!!.x.y",
        &format!("{}.{}.AAAA", parts[0], parts[1]),
    ] {
        env.sigs = vec![bad.to_owned()];
        assert_eq!(
            env.verify_signatures(&[key.public()]).unwrap_err().code,
            codes::SIGNATURE_MALFORMED,
            "{bad}"
        );
    }
    // A flipped signature bit.
    let mut sig = B64.decode(parts[2]).unwrap();
    sig[10] ^= 1;
    env.sigs = vec![format!("{}.{}.{}", parts[0], parts[1], B64.encode(sig))];
    assert_eq!(
        env.verify_signatures(&[key.public()]).unwrap_err().code,
        codes::SIGNATURE_INVALID
    );
}

#[test]
fn jwk_round_trip() {
    let key = PrivateKey::generate();
    let jwk = key.to_jwk();
    assert_eq!(
        (jwk.kty.as_str(), jwk.crv.as_str(), jwk.alg.as_deref()),
        ("EC", "P-256", Some("ES256"))
    );
    assert_eq!(jwk.kid, key.kid());
    assert!(jwk.d.is_some());
    let text = serde_json::to_string(&jwk).unwrap();
    let back = PrivateKey::from_jwk_json(&text).unwrap();
    assert_eq!(back.kid(), key.kid());
    assert_eq!(back.public(), key.public());

    let public_text = serde_json::to_string(&key.public()).unwrap();
    let public_json: serde_json::Value = serde_json::from_str(&public_text).unwrap();
    assert!(public_json.get("d").is_none());
    assert_eq!(public_json["kid"], key.kid());
    let public: PublicKey = serde_json::from_str(&public_text).unwrap();
    assert_eq!(public, key.public());
    assert!(
        PrivateKey::from_jwk_json(&public_text).is_err(),
        "public JWK has no d"
    );

    // A key signed with the round-tripped private key verifies with the original public key.
    let mut env = envelope();
    env.sign(&back, 5).unwrap();
    env.verify_signatures(&[key.public()]).unwrap();

    // Bad JWKs.
    let mut bad: Jwk = jwk.clone();
    bad.crv = "P-384".into();
    assert!(PrivateKey::from_jwk(&bad).is_err());
    let mut bad = jwk.clone();
    bad.alg = Some("RS256".into());
    assert!(PrivateKey::from_jwk(&bad).is_err());
    let mut bad = jwk.clone();
    bad.x = PrivateKey::generate().to_jwk().x;
    assert!(
        PrivateKey::from_jwk(&bad).is_err(),
        "x/y not on curve or mismatched"
    );
    let mut bad = jwk.clone();
    bad.d = PrivateKey::generate().to_jwk().d;
    assert!(PrivateKey::from_jwk(&bad).is_err(), "d does not match x/y");
    let mut bad = jwk;
    bad.y = "AAAA".into();
    assert!(PublicKey::from_jwk(&bad).is_err());
}

#[test]
fn reference_example_signatures_parse() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    let Ok(countries) = std::fs::read_dir(&root) else {
        println!("skipped: reference examples folder absent");
        return;
    };
    let (mut envelopes, mut sigs) = (0, 0);
    for country in countries.flatten() {
        let Ok(outs) = std::fs::read_dir(country.path().join("out")) else {
            continue;
        };
        for file in outs.flatten() {
            let env = Envelope::from_json(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
            envelopes += 1;
            for sig in &env.sigs {
                let jws =
                    parse_jws(sig).unwrap_or_else(|e| panic!("{}: {e}", file.path().display()));
                assert_eq!(jws.payload.uuid, env.head.uuid);
                sigs += 1;
            }
        }
    }
    println!("{envelopes} reference envelopes, {sigs} signatures parsed");
}
