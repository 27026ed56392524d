//! The key-encryption key and the sealed text it makes.

use std::io::Write;
use std::path::Path;

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// Length of a key-encryption key, in bytes (AES-256).
pub const KEY_LEN: usize = 32;
/// Length of the random nonce before each ciphertext (AES-GCM's 96 bits).
const NONCE_LEN: usize = 12;
/// Length of AES-GCM's authentication tag after each ciphertext.
const TAG_LEN: usize = 16;
/// The version prefix of sealed text.
const VERSION: &str = "v1";

/// Why a key cannot be loaded or a sealed value cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The value was sealed with another key than the one given.
    #[error(
        "a secret in the database was sealed with key {sealed_with}, but the key given is \
         {given}: start with the key the database was sealed with (or rotate to a new one with \
         `folio keys rotate`)"
    )]
    WrongKey {
        /// Key id in the sealed text.
        sealed_with: String,
        /// Id of the key given.
        given: String,
    },
    /// The sealed text names this key but does not open with it: altered or damaged.
    #[error("a secret sealed with key {0} does not open with it: the stored value was altered")]
    Tampered(String),
    /// Not sealed text at all.
    #[error("not a sealed value: {0}")]
    Malformed(String),
    /// The key file or value is not a key.
    #[error("{0}")]
    BadKey(String),
    /// No key was given to a store that needed one.
    #[error("no key-encryption key is configured")]
    Missing,
}

/// The key that encrypts folio's secrets at rest (AES-256-GCM): the API-token secret, webhook
/// secrets, workspace signing keys and signing identities. It never goes into the database.
///
/// `Debug` shows its id only.
#[derive(Clone)]
pub struct Kek {
    cipher: Aes256Gcm,
    bytes: [u8; KEY_LEN],
    id: String,
}

impl std::fmt::Debug for Kek {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kek")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl Kek {
    /// A new random key.
    pub fn generate() -> Kek {
        let mut bytes = [0u8; KEY_LEN];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        Kek::from_array(bytes)
    }

    /// A key from its 32 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Kek, KeyError> {
        let array: [u8; KEY_LEN] = bytes.try_into().map_err(|_| {
            KeyError::BadKey(format!(
                "a key-encryption key is {KEY_LEN} bytes, not {}",
                bytes.len()
            ))
        })?;
        Ok(Kek::from_array(array))
    }

    /// A key from its base64 text (standard alphabet, padded), surrounding whitespace ignored.
    pub fn from_base64(text: &str) -> Result<Kek, KeyError> {
        let bytes = STANDARD
            .decode(text.trim())
            .map_err(|e| KeyError::BadKey(format!("a key-encryption key is base64 text: {e}")))?;
        Kek::from_bytes(&bytes)
    }

    fn from_array(bytes: [u8; KEY_LEN]) -> Kek {
        let id = hex::encode(&Sha256::digest(bytes)[..4]);
        Kek {
            cipher: Aes256Gcm::new(&bytes.into()),
            bytes,
            id,
        }
    }

    /// The key as base64 text, as key files and `FOLIO_KEY` hold it.
    pub fn to_base64(&self) -> String {
        STANDARD.encode(self.bytes)
    }

    /// The key's id: the first 8 hex digits of the SHA-256 of the key. Sealed text carries it,
    /// so a value sealed with another key is recognised and named.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Reads a key file: the key as base64 text (what [`Kek::create_file`] writes).
    pub fn read_file(path: &Path) -> Result<Kek, KeyError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            KeyError::BadKey(format!("cannot read key file {}: {e}", path.display()))
        })?;
        Kek::from_base64(&text).map_err(|e| KeyError::BadKey(format!("{}: {e}", path.display())))
    }

    /// Makes a new random key and writes it to `path` (mode 0600); fails when the file exists.
    pub fn create_file(path: &Path) -> Result<Kek, KeyError> {
        let key = Kek::generate();
        key.write_file(path)?;
        Ok(key)
    }

    /// Writes this key to a new file at `path` (mode 0600); fails when the file exists. The
    /// file appears whole or not at all (written aside, then linked in place), so a process
    /// starting beside this one never reads a half-written key.
    pub fn write_file(&self, path: &Path) -> Result<(), KeyError> {
        let fail = |e: std::io::Error| {
            KeyError::BadKey(format!("cannot write key file {}: {e}", path.display()))
        };
        let mut aside = path.as_os_str().to_owned();
        aside.push(format!(".{}.tmp", uuid::Uuid::new_v4().simple()));
        let aside = std::path::PathBuf::from(aside);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let written = options.open(&aside).and_then(|mut file| {
            writeln!(file, "{}", self.to_base64())?;
            file.sync_all()
        });
        // `hard_link` fails when `path` exists: a key is never replaced
        let linked = written.and_then(|()| std::fs::hard_link(&aside, path));
        let _ = std::fs::remove_file(&aside);
        linked.map_err(fail)
    }

    /// Reads the key file at `path`, or creates it when there is none; says whether it created
    /// it.
    pub fn read_or_create_file(path: &Path) -> Result<(Kek, bool), KeyError> {
        if path.exists() {
            return Ok((Kek::read_file(path)?, false));
        }
        match Kek::create_file(path) {
            Ok(key) => Ok((key, true)),
            // another process created it in between: use theirs
            Err(_) if path.exists() => Ok((Kek::read_file(path)?, false)),
            Err(e) => Err(e),
        }
    }

    /// Encrypts `plain` with a fresh random nonce: `v1.<key id>.<base64(nonce || ciphertext)>`.
    pub fn seal(&self, plain: &[u8]) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let ciphertext = self
            .cipher
            .encrypt(&Nonce::from(nonce), plain)
            .expect("AES-GCM encrypts any message shorter than 64 GiB");
        let mut body = nonce.to_vec();
        body.extend_from_slice(&ciphertext);
        format!("{VERSION}.{}.{}", self.id, STANDARD.encode(body))
    }

    /// Decrypts text made by [`Kek::seal`] with this key.
    pub fn open(&self, sealed: &str) -> Result<Vec<u8>, KeyError> {
        let parts = Sealed::parse(sealed)?;
        if parts.key_id != self.id {
            return Err(KeyError::WrongKey {
                sealed_with: parts.key_id.to_string(),
                given: self.id.clone(),
            });
        }
        let body = STANDARD
            .decode(parts.body)
            .map_err(|e| KeyError::Malformed(format!("sealed body: {e}")))?;
        if body.len() < NONCE_LEN + TAG_LEN {
            return Err(KeyError::Malformed("sealed body too short".into()));
        }
        let (nonce, ciphertext) = body.split_at(NONCE_LEN);
        let nonce: [u8; NONCE_LEN] = nonce.try_into().expect("split at the nonce's length");
        self.cipher
            .decrypt(&Nonce::from(nonce), ciphertext)
            .map_err(|_| KeyError::Tampered(self.id.clone()))
    }

    /// Opens a value sealed with this key and reads it as UTF-8 text.
    pub fn open_text(&self, sealed: &str) -> Result<String, KeyError> {
        String::from_utf8(self.open(sealed)?)
            .map_err(|_| KeyError::Malformed("sealed text is not UTF-8".into()))
    }
}

/// The parts of sealed text, not yet opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sealed<'a> {
    /// Id of the key it was sealed with.
    pub key_id: &'a str,
    body: &'a str,
}

impl<'a> Sealed<'a> {
    /// Splits sealed text; anything else (e.g. a secret written by an older folio in plain
    /// text) is [`KeyError::Malformed`].
    pub fn parse(text: &'a str) -> Result<Sealed<'a>, KeyError> {
        let mut parts = text.splitn(3, '.');
        let (Some(VERSION), Some(key_id), Some(body)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(KeyError::Malformed("no v1.<key id>. prefix".into()));
        };
        let is_id = key_id.len() == 8
            && key_id
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        let is_body = !body.is_empty()
            && body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
        if !is_id || !is_body {
            return Err(KeyError::Malformed("bad key id or body".into()));
        }
        Ok(Sealed { key_id, body })
    }

    /// Whether `text` is sealed text (of any key).
    pub fn is_sealed(text: &str) -> bool {
        Sealed::parse(text).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seals_and_opens_with_a_fresh_nonce_each_time() {
        let key = Kek::generate();
        let a = key.seal(b"the token secret");
        let b = key.seal(b"the token secret");
        assert_ne!(a, b, "a random nonce per seal");
        assert!(a.starts_with(&format!("v1.{}.", key.id())), "{a}");
        assert!(!a.contains("the token secret"));
        assert_eq!(key.open(&a).unwrap(), b"the token secret");
        assert_eq!(key.open_text(&b).unwrap(), "the token secret");
        assert_eq!(key.open(&key.seal(b"")).unwrap(), b"");
    }

    #[test]
    fn a_wrong_key_is_recognised_and_named() {
        let (a, b) = (Kek::generate(), Kek::generate());
        let sealed = a.seal(b"x");
        match b.open(&sealed) {
            Err(KeyError::WrongKey { sealed_with, given }) => {
                assert_eq!(sealed_with, a.id());
                assert_eq!(given, b.id());
            }
            other => panic!("expected WrongKey, got {other:?}"),
        }
        let message = b.open(&sealed).unwrap_err().to_string();
        assert!(
            message.contains(a.id()) && message.contains(b.id()),
            "{message}"
        );
    }

    #[test]
    fn an_altered_value_does_not_open() {
        let key = Kek::generate();
        let sealed = key.seal(b"secret value");
        let mut body = STANDARD.decode(sealed.rsplit('.').next().unwrap()).unwrap();
        let last = body.len() - 1;
        body[last] ^= 1;
        let altered = format!("v1.{}.{}", key.id(), STANDARD.encode(body));
        assert!(matches!(key.open(&altered), Err(KeyError::Tampered(_))));
        assert!(matches!(key.open("whsec_abc"), Err(KeyError::Malformed(_))));
        assert!(matches!(
            key.open(&format!("v1.{}.AAAA", key.id())),
            Err(KeyError::Malformed(_))
        ));
    }

    #[test]
    fn plain_secrets_are_not_taken_for_sealed_ones() {
        assert!(!Sealed::is_sealed("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
        assert!(!Sealed::is_sealed(r#"{"kty":"EC"}"#));
        assert!(!Sealed::is_sealed("v1.XYZ.abc"));
        assert!(Sealed::is_sealed(&Kek::generate().seal(b"x")));
    }

    #[test]
    fn the_id_is_the_start_of_the_keys_sha256() {
        let key = Kek::from_bytes(&[7u8; KEY_LEN]).unwrap();
        assert_eq!(key.id(), &hex::encode(Sha256::digest([7u8; KEY_LEN]))[..8]);
        assert_eq!(Kek::from_base64(&key.to_base64()).unwrap().id(), key.id());
        assert!(Kek::from_bytes(&[0u8; 16]).is_err());
        assert!(Kek::from_base64("not base64!").is_err());
    }

    #[test]
    fn a_key_file_is_created_private_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("folio.key");
        let (made, created) = Kek::read_or_create_file(&path).unwrap();
        assert!(created);
        let (read, created) = Kek::read_or_create_file(&path).unwrap();
        assert!(!created);
        assert_eq!(made.id(), read.id());
        assert!(Kek::create_file(&path).is_err(), "never overwrites a key");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
