//! Signing identities: the PKCS#12 files (certificate and private key) a workspace signs
//! documents with, e.g. Facturae and TicketBAI files.
//!
//! An identity is checked at import (the password opens it, its certificate is valid now, its
//! key is the certificate's) and stored with the file and the password sealed with the
//! key-encryption key (`folio_store::keys`). Only the certificate's public details are ever
//! answered; the file and password leave the store only through [`signing_identity`], for the
//! actions that sign.

use folio_national::sign::{Identity, IdentityError};
use folio_store::{Scope, Store, now};
use uuid::Uuid;

use crate::db::identities::{self as db, SealedIdentity};
use crate::model::IdentityInfo;
use crate::{SiloError, SiloResult};

/// Largest PKCS#12 file accepted (a certificate chain with its key is a few kilobytes).
pub const MAX_PKCS12_BYTES: usize = 256 * 1024;
/// Longest name.
const MAX_NAME_CHARS: usize = 200;

/// An identity to import: the PKCS#12 file and its password. `Debug` hides both.
pub struct NewIdentity {
    /// Name; the certificate's subject when absent.
    pub name: Option<String>,
    /// The PKCS#12 (`.p12`, `.pfx`) file.
    pub pkcs12: Vec<u8>,
    /// Its password.
    pub password: String,
}

impl std::fmt::Debug for NewIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewIdentity")
            .field("name", &self.name)
            .field("pkcs12_bytes", &self.pkcs12.len())
            .finish_non_exhaustive()
    }
}

/// Checks and stores an identity; wrong password, expired, not yet valid, no key or an
/// unreadable file are [`SiloError::Invalid`] naming the problem.
pub async fn import(store: &Store, ws: Scope, new: NewIdentity) -> SiloResult<IdentityInfo> {
    if new.pkcs12.len() > MAX_PKCS12_BYTES {
        return Err(SiloError::invalid(
            "data",
            format!("a PKCS#12 file is at most {} KiB", MAX_PKCS12_BYTES / 1024),
        ));
    }
    let name = match new.name.as_deref().map(str::trim) {
        Some("") => return Err(SiloError::invalid("name", "must not be empty")),
        Some(name) if name.chars().count() > MAX_NAME_CHARS => {
            return Err(SiloError::invalid(
                "name",
                format!("at most {MAX_NAME_CHARS} characters"),
            ));
        }
        Some(name) => Some(name.to_string()),
        None => None,
    };
    let at = now();
    let identity = Identity::from_pkcs12(&new.pkcs12, &new.password, at).map_err(refusal)?;
    let info = IdentityInfo {
        id: Uuid::now_v7(),
        name: name.unwrap_or_else(|| identity.subject()),
        subject: identity.subject(),
        issuer: identity.issuer(),
        serial: identity.serial_hex(),
        not_before: identity.not_before(),
        not_after: identity.not_after(),
        created_at: at,
    };
    let sealed = SealedIdentity {
        pkcs12: store.seal(&new.pkcs12)?,
        password: store.seal(new.password.as_bytes())?,
    };
    db::insert(store, ws, &info, &sealed).await?;
    Ok(info)
}

/// Which field an import refusal is about, with the reader's message.
fn refusal(err: IdentityError) -> SiloError {
    let field = match err {
        IdentityError::WrongPassword => "password",
        _ => "data",
    };
    SiloError::invalid(field, err.to_string())
}

/// The workspace's identities, newest first.
pub async fn list(store: &Store, ws: Scope) -> SiloResult<Vec<IdentityInfo>> {
    db::list(store, ws).await
}

/// One identity of the workspace.
pub async fn get(store: &Store, ws: Scope, id: Uuid) -> SiloResult<IdentityInfo> {
    db::get(store, ws, id)
        .await?
        .ok_or(SiloError::NotFound("identity"))
}

/// Deletes an identity of the workspace.
pub async fn delete(store: &Store, ws: Scope, id: Uuid) -> SiloResult<()> {
    if db::delete(store, ws, id).await? {
        Ok(())
    } else {
        Err(SiloError::NotFound("identity"))
    }
}

/// The opened PKCS#12 file and password of the identity `id`, or, when `id` is `None`, of the
/// workspace's newest identity whose certificate is valid now; `None` when there is no such
/// identity. A named identity is returned even when its certificate has expired since its
/// import: reading it with `Identity::from_pkcs12` says so.
pub async fn signing_identity(
    store: &Store,
    ws: Scope,
    id: Option<Uuid>,
) -> SiloResult<Option<(Vec<u8>, String)>> {
    let Some(sealed) = db::sealed(store, ws, id, now()).await? else {
        return Ok(None);
    };
    let pkcs12 = store.open_sealed(&sealed.pkcs12)?;
    let password = store.open_sealed_text(&sealed.password)?;
    Ok(Some((pkcs12, password)))
}
