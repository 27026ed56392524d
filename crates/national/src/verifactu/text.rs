//! Texts cut to the schema's maximum lengths (counted in characters).

/// The text trimmed and cut to `max` characters.
pub(crate) fn limit(s: &str, max: usize) -> String {
    s.trim().chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn cuts_by_characters() {
        assert_eq!(super::limit(" Ñandú S.L. ", 5), "Ñandú");
    }
}
