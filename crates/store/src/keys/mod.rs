//! Secrets at rest: a key-encryption key ([`Kek`], AES-256-GCM) that never enters the database
//! seals every secret the database holds (the API-token secret, webhook secrets, workspace
//! signing keys, signing identities) as text `v1.<key id>.<base64(nonce || ciphertext)>`.
//!
//! A [`Store`](crate::Store) is given its key with [`Store::with_key`](crate::Store::with_key);
//! the services seal and open through it ([`Store::seal`](crate::Store::seal),
//! [`Store::open_sealed`](crate::Store::open_sealed)). At start the server runs
//! [`Store::protect_secrets`](crate::Store::protect_secrets), which seals what an older folio
//! wrote in plain text and refuses a key that cannot open what is there;
//! [`Store::rotate_key`](crate::Store::rotate_key) re-seals everything under a new key.

mod columns;
mod kek;

pub use columns::Protected;
pub use kek::{KEY_LEN, Kek, KeyError, Sealed};
