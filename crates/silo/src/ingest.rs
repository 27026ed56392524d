//! Turning submitted JSON text into an envelope ready to store: shape checks with paths, digest
//! and signature verification, building bare documents, signing.
//!
//! A bare document is built exactly as `folio gobl build` builds it (normalised, calculated,
//! validated, enveloped): validation faults refuse it unless the caller allows invalid
//! documents, in which case the faults travel with the envelope ([`Prepared::faults`]); a
//! document that cannot be calculated is always refused.
//!
//! A full envelope (`head` and `doc`) is not rebuilt: its digest and signatures are checked and,
//! stored without changes, it keeps its exact text, so `data` comes back byte for byte as it was
//! sent. Allowing invalid documents does not matter for it.

use gobl::envelope::{self, Envelope, SCHEMA_BASE};
use gobl::json::Value;
use gobl::sign::{PrivateKey, PublicKey, parse_jws};
use gobl::{Fault, FieldError};
use uuid::Uuid;

use crate::error::{SiloError, SiloResult};

/// An envelope ready to store.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// `head.uuid`.
    pub id: Uuid,
    /// The envelope JSON text to store.
    pub text: String,
    /// The parsed envelope.
    pub envelope: Envelope,
    /// What building a bare document found wrong with it (stored anyway because the caller
    /// allowed invalid documents): `Some` (possibly empty) when the document was built, `None`
    /// for a full envelope, which is not rebuilt.
    pub faults: Option<Vec<Fault>>,
}

impl Prepared {
    /// The document schema.
    pub fn doc_schema(&self) -> String {
        self.envelope
            .document_schema()
            .unwrap_or_default()
            .to_owned()
    }

    /// Whether it carries signatures.
    pub fn signed(&self) -> bool {
        !self.envelope.sigs.is_empty()
    }

    /// Short content id of the text.
    pub fn version(&self) -> String {
        version_of(&self.text)
    }
}

/// The short content id of an envelope text: the first 16 hex digits of its SHA-256.
pub fn version_of(text: &str) -> String {
    let digest = gobl::digest::sha256(text.as_bytes());
    hex::encode(&digest[..8])
}

/// Submitted JSON text, parsed once.
#[derive(Debug, Clone)]
pub struct Input<'a> {
    /// The text as sent.
    pub text: &'a str,
    /// The parsed text.
    pub value: Value,
    /// When known: the sha256 (lowercase hex) of the canonical `doc` member, computed with the
    /// request's fingerprint, so that a full envelope's digest check does not canonicalise the
    /// document a second time.
    pub doc_digest: Option<String>,
    /// Whether the text's numbers are all written as serde_json writes them (a bare
    /// document's are then built as they are, without a walk to rewrite them).
    pub numbers_normal: bool,
}

impl<'a> Input<'a> {
    /// Parses `text` under the depth limit.
    pub fn parse(text: &'a str, max_depth: usize) -> SiloResult<Input<'a>> {
        let (value, numbers_normal) =
            gobl::json::parse_noting_numbers(text, max_depth).map_err(not_acceptable)?;
        Ok(Input::of(
            text,
            Parsed {
                value,
                numbers_normal,
            },
        ))
    }

    /// `text` with its parse under the depth limit: `parsed` when the caller has it, else
    /// parsed now.
    pub fn read(text: &'a str, parsed: Option<Parsed>, max_depth: usize) -> SiloResult<Input<'a>> {
        match parsed {
            Some(parsed) => Ok(Input::of(text, parsed)),
            None => Input::parse(text, max_depth),
        }
    }

    /// `text` with what its parse under the depth limit gave.
    pub fn of(text: &'a str, parsed: Parsed) -> Input<'a> {
        Input {
            text,
            value: parsed.value,
            doc_digest: None,
            numbers_normal: parsed.numbers_normal,
        }
    }
}

/// What parsing a text under the silo's depth limit gives, when a caller has it already (a
/// request's body read once, its `data` member parsed with the rest).
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The value.
    pub value: Value,
    /// Whether its numbers are all written as serde_json writes them (see [`Input`]).
    pub numbers_normal: bool,
}

/// Parses JSON text under the depth limit; errors name `data`.
pub fn parse(text: &str, max_depth: usize) -> SiloResult<Value> {
    gobl::json::parse_with_limit(text, max_depth).map_err(not_acceptable)
}

fn not_acceptable(e: impl std::fmt::Display) -> SiloError {
    SiloError::invalid("data", format!("not acceptable JSON: {e}"))
}

/// Prepares `text` (an envelope or a bare document) for storing under `id` (`None`: the
/// envelope's own uuid, or a new UUID v7 for a bare document).
///
/// `keys` are the workspace's public keys: signatures claiming one of them must verify.
/// With `sign`, the result is signed with `signer` (unless one of the workspace keys already
/// signed it). With `allow_invalid`, a bare document that builds but does not validate is
/// prepared anyway, its faults in [`Prepared::faults`]; without it, that is an error.
pub fn prepare(
    input: Input<'_>,
    id: Option<Uuid>,
    keys: &[PublicKey],
    signer: Option<&PrivateKey>,
    allow_invalid: bool,
) -> SiloResult<Prepared> {
    let (text, schema) = (input.text, top_schema(&input.value)?);
    let (mut env, faults) = if envelope::is_envelope(&input.value) {
        (read_envelope(input, id, keys)?, None)
    } else {
        check_schema("data.$schema", &schema)?;
        let id = id.unwrap_or_else(Uuid::now_v7);
        let (env, faults) = build(id, input.value, input.numbers_normal, allow_invalid)?;
        (env, Some(faults))
    };
    // a built envelope is new text; a received one keeps its bytes unless folio signs it
    let signed = match signer {
        Some(key) => sign_once(&mut env, key)?,
        None => false,
    };
    let text = if signed || faults.is_some() {
        env.to_json_string()
    } else {
        text.to_owned()
    };
    Ok(Prepared {
        id: env.head.uuid,
        text,
        envelope: env,
        faults,
    })
}

/// The `$schema` of the object sent as `data`.
fn top_schema(value: &Value) -> SiloResult<String> {
    let Value::Object(members) = value else {
        return Err(SiloError::invalid(
            "data",
            format!(
                "expected a GOBL envelope or document (an object), found {}",
                value.type_name()
            ),
        ));
    };
    match members.get("$schema") {
        None => Err(SiloError::invalid("data.$schema", "required")),
        Some(Value::String(s)) => Ok(s.to_string()),
        Some(other) => Err(SiloError::invalid(
            "data.$schema",
            format!("expected a string, found {}", other.type_name()),
        )),
    }
}

/// A received envelope: its shape, a GOBL document schema, the uuid the caller named, its
/// digest and stamps, and its signatures.
fn read_envelope(input: Input<'_>, id: Option<Uuid>, keys: &[PublicKey]) -> SiloResult<Envelope> {
    let env = Envelope::from_owned(input.value).map_err(|errs| field_errors("data", errs))?;
    check_schema(
        "data.doc.$schema",
        env.document_schema().unwrap_or_default(),
    )?;
    if let Some(id) = id
        && env.head.uuid != id
    {
        return Err(SiloError::invalid(
            "data.head.uuid",
            format!("must equal the envelope id {id}"),
        ));
    }
    // The digest already computed from the same document (see `Input::doc_digest`) spares
    // canonicalising it again; anything else goes through the full check and its faults.
    let checked = input.doc_digest.as_deref().is_some_and(|dig| {
        env.head.dig.alg == gobl::digest::SHA256
            && env.head.dig.val == dig
            && (env.head.stamps.is_empty() || !env.sigs.is_empty())
    });
    if !checked {
        env.validate().map_err(SiloError::fault)?;
    }
    verify_signatures(&env, keys)?;
    Ok(env)
}

/// Signs with `key` unless it already signed; whether it signed now.
fn sign_once(env: &mut Envelope, key: &PrivateKey) -> SiloResult<bool> {
    let already = env
        .sigs
        .iter()
        .any(|jws| parse_jws(jws).is_ok_and(|p| p.kid.as_deref() == Some(key.kid())));
    if !already {
        let iat = chrono::Utc::now().timestamp();
        env.sign(key, iat).map_err(SiloError::fault)?;
    }
    Ok(!already)
}

/// Only GOBL schemas are stored; within GOBL, document types folio does not know are carried
/// as they are.
fn check_schema(path: &str, schema: &str) -> SiloResult<()> {
    match schema.strip_prefix(SCHEMA_BASE) {
        Some(rest) if !rest.is_empty() && rest != "envelope" => Ok(()),
        _ => Err(SiloError::invalid(
            path,
            format!(
                "unknown schema {schema:?}: expected a GOBL document schema ({SCHEMA_BASE}...)"
            ),
        )),
    }
}

/// Builds a bare document as `folio gobl build` does: normalised, calculated, validated and
/// enveloped under `id`. Returns the envelope and the validation faults, which are only
/// accepted (and then returned) with `allow_invalid`; a calculation error is always refused.
fn build(
    id: Uuid,
    mut input: Value,
    numbers_normal: bool,
    allow_invalid: bool,
) -> SiloResult<(Envelope, Vec<Fault>)> {
    if !numbers_normal {
        input.normalize_numbers().map_err(not_acceptable)?;
    }
    let opts = gobl::builder::BuildOptions {
        uuid: Some(id),
        skip_validation: false,
    };
    let (built, faults) = match gobl::builder::build_tree(input, &opts) {
        Ok(built) => (built, Vec::new()),
        Err(invalid) => {
            let calculated = !invalid.envelope.is_null();
            let faults = invalid.faults.0;
            if !calculated {
                return Err(SiloError::Faults {
                    message: "the document cannot be calculated".into(),
                    faults,
                });
            }
            if !allow_invalid {
                return Err(SiloError::Faults {
                    message: format!(
                        "the document is not valid ({} fault{}); send \"allow_invalid\": true to store it anyway",
                        faults.len(),
                        if faults.len() == 1 { "" } else { "s" }
                    ),
                    faults,
                });
            }
            (invalid.envelope, faults)
        }
    };
    // The built tree is stored as it is: written out and read back it would be the same tree,
    // and the builder's digest is of that tree's canonical form, so neither that round trip
    // nor a second digest is needed (checked below in debug builds).
    let env = Envelope::from_owned(built).map_err(|errs| field_errors("data", errs))?;
    debug_assert!(
        env.verify_digest().is_ok(),
        "the builder's digest is the stored document's"
    );
    Ok((env, faults))
}

/// Signatures must be well-formed and name this head's uuid and digest; those made with one
/// of the workspace's keys (by `kid`) must verify with it. Signatures of other parties are
/// carried: their keys are not known here.
pub fn verify_signatures(env: &Envelope, keys: &[PublicKey]) -> SiloResult<()> {
    use gobl::envelope::codes;
    for (i, jws) in env.sigs.iter().enumerate() {
        let path = vec![format!("sigs[{i}]")];
        let parsed = parse_jws(jws).map_err(|m| {
            SiloError::fault(Fault::new(codes::SIGNATURE_MALFORMED, m, path.clone()))
        })?;
        if parsed.payload.uuid != env.head.uuid || parsed.payload.dig != env.head.dig {
            return Err(SiloError::fault(Fault::new(
                codes::SIGNATURE_MISMATCH,
                "signature payload does not match head.uuid and head.dig: the document changed after signing",
                path,
            )));
        }
        let ours: Vec<PublicKey> = keys
            .iter()
            .filter(|k| Some(k.kid()) == parsed.kid.as_deref())
            .cloned()
            .collect();
        if !ours.is_empty() && parsed.verify_with(&ours).is_none() {
            return Err(SiloError::fault(Fault::new(
                codes::SIGNATURE_INVALID,
                "signature does not verify with the workspace key it names",
                path,
            )));
        }
    }
    Ok(())
}

/// gobl's shape errors (`head.stamps[0].prv`, `$`) as request fields under `prefix`
/// (`data.head.stamps[0].prv`, `data`).
fn field_errors(prefix: &str, errors: Vec<FieldError>) -> SiloError {
    SiloError::Invalid(errors.into_iter().map(|e| e.under(prefix)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_outside_gobl_are_refused() {
        assert!(check_schema("x", "https://gobl.org/draft-0/bill/invoice").is_ok());
        assert!(check_schema("x", "https://gobl.org/draft-0/note/message").is_ok());
        assert!(check_schema("x", "https://example.com/thing").is_err());
        assert!(check_schema("x", "https://gobl.org/draft-0/envelope").is_err());
    }
}
