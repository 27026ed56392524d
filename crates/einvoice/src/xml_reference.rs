//! XML references (`&amp;`, `&#38;`, `&#x26;`) as the two fast readers resolve them: the five
//! predefined entities and character references in their plain spelling. Without a DTD no
//! other entity exists; anything else sends the reader back to `en16931-formats`, so being
//! strict here costs a fallback, never a different answer.

/// The character the reference named `name` (between `&` and `;`) stands for. Digits are
/// plain (no leading zero, at most six) so that every parser reads them alike; whether the
/// character is one XML allows is the caller's check.
pub(crate) fn resolve(name: &str) -> Option<char> {
    let c = match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "apos" => '\'',
        "quot" => '"',
        _ => {
            let (digits, radix) = match name.strip_prefix("#x") {
                Some(hex) => (hex, 16),
                None => (name.strip_prefix('#')?, 10),
            };
            if digits.is_empty()
                || digits.len() > 6
                || digits.starts_with('0')
                || !digits.chars().all(|d| d.is_digit(radix))
            {
                return None;
            }
            char::from_u32(u32::from_str_radix(digits, radix).ok()?)?
        }
    };
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn predefined_entities_and_plain_character_references() {
        assert_eq!(resolve("amp"), Some('&'));
        assert_eq!(resolve("#38"), Some('&'));
        assert_eq!(resolve("#x26"), Some('&'));
        assert_eq!(resolve("#x1F600"), Some('😀'));
        for refused in [
            "nbsp", "#", "#x", "#038", "#x026", "#1234567", "#xD800", "#12a",
        ] {
            assert_eq!(resolve(refused), None, "{refused}");
        }
    }
}
