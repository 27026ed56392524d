//! UUID generation for every version clients may ask for.

use std::sync::OnceLock;

use uuid::Uuid;

/// What a UUID request can get wrong.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum UuidError {
    /// Only 1, 3, 4, 5, 6 and 7 are offered.
    #[error("version {0} is not offered; use 1, 3, 4, 5, 6 or 7")]
    UnsupportedVersion(u8),
    /// Name-based versions need a namespace and a name.
    #[error("version {0} needs both base (a UUID namespace) and key (the name)")]
    MissingName(u8),
    /// `base` and `key` only make sense for name-based versions.
    #[error("base and key are only used by versions 3 and 5")]
    UnexpectedName,
}

/// The versions `generate` offers.
pub const OFFERED: [u8; 6] = [1, 3, 4, 5, 6, 7];

/// A UUID of the given version. Versions 3 and 5 hash `key` in the `base` namespace.
pub fn generate(version: u8, name: Option<(Uuid, &str)>) -> Result<Uuid, UuidError> {
    match (version, name) {
        (3, Some((base, key))) => Ok(Uuid::new_v3(&base, key.as_bytes())),
        (5, Some((base, key))) => Ok(Uuid::new_v5(&base, key.as_bytes())),
        (3 | 5, None) => Err(UuidError::MissingName(version)),
        (1 | 4 | 6 | 7, Some(_)) => Err(UuidError::UnexpectedName),
        (1, None) => Ok(Uuid::now_v1(node_id())),
        (4, None) => Ok(Uuid::new_v4()),
        (6, None) => Ok(Uuid::now_v6(node_id())),
        (7, None) => Ok(Uuid::now_v7()),
        (other, _) => Err(UuidError::UnsupportedVersion(other)),
    }
}

/// Time-based versions need a node id; a random one per process (with the multicast bit set, as
/// RFC 9562 asks of ids that are not MAC addresses) avoids leaking a hardware address.
fn node_id() -> &'static [u8; 6] {
    static NODE: OnceLock<[u8; 6]> = OnceLock::new();
    NODE.get_or_init(|| {
        let random = Uuid::new_v4();
        let mut node = [0u8; 6];
        node.copy_from_slice(&random.as_bytes()[..6]);
        node[0] |= 0x01;
        node
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_offered_version_has_its_version_number() {
        for v in [1u8, 4, 6, 7] {
            assert_eq!(generate(v, None).unwrap().get_version_num(), v as usize);
        }
        let ns = Uuid::NAMESPACE_DNS;
        assert_eq!(
            generate(3, Some((ns, "folio"))).unwrap().get_version_num(),
            3
        );
        assert_eq!(
            generate(5, Some((ns, "folio"))).unwrap().get_version_num(),
            5
        );
    }

    #[test]
    fn name_based_versions_are_deterministic() {
        let ns = Uuid::NAMESPACE_URL;
        assert_eq!(generate(5, Some((ns, "a"))), generate(5, Some((ns, "a"))));
        assert_ne!(generate(5, Some((ns, "a"))), generate(5, Some((ns, "b"))));
    }

    #[test]
    fn bad_combinations_are_refused() {
        assert_eq!(generate(2, None), Err(UuidError::UnsupportedVersion(2)));
        assert_eq!(generate(3, None), Err(UuidError::MissingName(3)));
        assert_eq!(
            generate(4, Some((Uuid::nil(), "x"))),
            Err(UuidError::UnexpectedName)
        );
    }
}
