//! Collection paging: `limit` defaults to 20 and is capped at 100.

use crate::error::ApiError;

/// Page size when the client sends none.
pub const DEFAULT_LIMIT: i64 = 20;
/// Largest page size; larger requests are served this many.
pub const MAX_LIMIT: i64 = 100;

/// The effective page size for a requested `limit`: missing → 20, above 100 → 100,
/// zero or negative → 422.
pub fn limit(requested: Option<i64>) -> Result<i64, ApiError> {
    match requested {
        None => Ok(DEFAULT_LIMIT),
        Some(n) if n < 1 => Err(ApiError::invalid_field("limit", "must be at least 1")),
        Some(n) => Ok(n.min(MAX_LIMIT)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_caps_and_rejects() {
        assert_eq!(limit(None).unwrap(), 20);
        assert_eq!(limit(Some(7)).unwrap(), 7);
        assert_eq!(limit(Some(1000)).unwrap(), 100);
        assert_eq!(limit(Some(0)).unwrap_err().status, 422);
    }
}
