//! Reading and changing the token's workspace: validation here, statements in `db/`.

use folio_api::FieldError;
use folio_store::{Scope, now};

use crate::error::{AccessError, AccessResult};
use crate::model::{Profile, ProfileChange};
use crate::{Access, db};

/// Longest name, slug and logo URL accepted.
const MAX_NAME: usize = 255;
const MAX_SLUG: usize = 64;
const MAX_URL: usize = 2048;

impl Access {
    /// The workspace of `ws`.
    pub async fn workspace(&self, ws: Scope) -> AccessResult<Profile> {
        db::workspace::get(&self.store, ws)
            .await?
            .ok_or(AccessError::NotFound("workspace"))
    }

    /// Changes the workspace of `ws`; a slug or name another workspace has is refused
    /// ([`AccessError::Taken`]), malformed values are refused all at once.
    pub async fn update_workspace(
        &self,
        ws: Scope,
        change: ProfileChange,
    ) -> AccessResult<Profile> {
        let change = normalise(change)?;
        if change == ProfileChange::default() {
            return self.workspace(ws).await;
        }
        db::workspace::update(&self.store, ws, &change, now())
            .await?
            .ok_or(AccessError::NotFound("workspace"))
    }
}

/// Checks every field and returns the change as it is stored (country upper-cased).
fn normalise(mut change: ProfileChange) -> AccessResult<ProfileChange> {
    let mut errors = Vec::new();
    if let Some(name) = &change.name
        && let Err(e) = check_name(name)
    {
        errors.push(FieldError::new("name", e));
    }
    if let Some(slug) = &change.slug
        && let Err(e) = check_slug(slug)
    {
        errors.push(FieldError::new("slug", e));
    }
    if let Some(url) = change.logo_url.as_deref().filter(|u| !u.is_empty())
        && let Err(e) = check_url(url)
    {
        errors.push(FieldError::new("logo_url", e));
    }
    if let Some(country) = change.country.as_mut().filter(|c| !c.is_empty()) {
        *country = country.to_ascii_uppercase();
        if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_uppercase()) {
            errors.push(FieldError::new(
                "country",
                "an ISO 3166-1 alpha-2 code (two letters, e.g. ES)",
            ));
        }
    }
    if errors.is_empty() {
        Ok(change)
    } else {
        Err(AccessError::Invalid(errors))
    }
}

fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        Err("must not be empty".into())
    } else if name.trim() != name {
        Err("must not start or end with whitespace".into())
    } else if name.chars().any(char::is_control) {
        Err("must not hold control characters".into())
    } else if name.chars().count() > MAX_NAME {
        Err(format!("at most {MAX_NAME} characters"))
    } else {
        Ok(())
    }
}

/// Lowercase letters, digits, `-` and `_`, starting and ending with a letter or digit.
fn check_slug(slug: &str) -> Result<(), String> {
    let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    let ok = (2..=MAX_SLUG).contains(&slug.len())
        && slug.starts_with(allowed)
        && slug.ends_with(allowed)
        && slug.chars().all(|c| allowed(c) || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "2 to {MAX_SLUG} lowercase letters, digits, '-' or '_', starting and ending with a \
             letter or digit"
        ))
    }
}

fn check_url(text: &str) -> Result<(), String> {
    if text.len() > MAX_URL {
        return Err(format!("at most {MAX_URL} characters"));
    }
    match url::Url::parse(text) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Ok(()),
        _ => Err("an absolute http or https URL".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        for good in ["my-company", "my_company", "acme2", "a1"] {
            assert!(check_slug(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "a",
            "-acme",
            "acme-",
            "Acme",
            "my company",
            "ünï",
            &"a".repeat(65),
        ] {
            assert!(check_slug(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn all_bad_fields_are_named_at_once() {
        let change = ProfileChange {
            name: Some(" x".into()),
            slug: Some("X".into()),
            logo_url: Some("ftp://x/logo.png".into()),
            country: Some("ESP".into()),
        };
        let Err(AccessError::Invalid(errors)) = normalise(change) else {
            panic!("accepted")
        };
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["name", "slug", "logo_url", "country"]);
    }

    #[test]
    fn country_is_upper_cased_and_empty_values_clear() {
        let change = normalise(ProfileChange {
            country: Some("es".into()),
            logo_url: Some(String::new()),
            ..ProfileChange::default()
        })
        .unwrap();
        assert_eq!(change.country.as_deref(), Some("ES"));
        assert_eq!(change.logo_url.as_deref(), Some(""));
    }
}
