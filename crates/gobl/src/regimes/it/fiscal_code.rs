//! The Italian codice fiscale as an identity (`it-fiscal-code`): a company's is its 11-digit
//! partita IVA; a person's is 16 characters — surname and name letters, birth year, month
//! letter and day (plus 40 for women), municipality code and a check letter — where any
//! digit may be replaced by a letter when two people would share a code (omocodia).

use super::super::taxid;

/// The months' letters, January first.
const MONTHS: &[u8; 12] = b"ABCDEHLMPRST";
/// The letters standing for digits 0-9 in an omocode.
const OMOCODES: &[u8; 10] = b"LMNPQRSTUV";

/// Whether `code` has the shape of a fiscal code (11 digits, or a person's 16 characters
/// with a real birth date and municipality).
pub(crate) fn format_valid(code: &str) -> bool {
    let b = code.as_bytes();
    if b.len() == 11 {
        return b.iter().all(u8::is_ascii_digit);
    }
    b.len() == 16
        && names_valid(&b[0..3])
        && names_valid(&b[3..6])
        && birth_valid(&b[6..11])
        && municipality_valid(&b[11..15])
        && b[15].is_ascii_uppercase()
}

/// Whether the check character (or a company's check digit) is right.
pub(crate) fn checksum_valid(code: &str) -> bool {
    match code.len() {
        11 => taxid::it(code).is_ok(),
        16 => taxid::it_fiscal_code(code).is_ok(),
        _ => false,
    }
}

fn is_vowel(c: u8) -> bool {
    b"AEIOU".contains(&c)
}

fn is_consonant(c: u8) -> bool {
    c.is_ascii_uppercase() && !is_vowel(c)
}

/// Three letters of a surname or name: consonants first, then vowels, padded with `X`.
fn names_valid(g: &[u8]) -> bool {
    let (a, b, c) = (g[0], g[1], g[2]);
    (a.is_ascii_uppercase() && is_vowel(b) && (is_vowel(c) || c == b'X'))
        || (is_vowel(a) && b == b'X' && c == b'X')
        || (is_consonant(a) && is_consonant(b) && c.is_ascii_uppercase())
}

/// A digit, or the letter standing for it in an omocode.
fn digit(c: u8) -> Option<u32> {
    if c.is_ascii_digit() {
        return Some(u32::from(c - b'0'));
    }
    OMOCODES.iter().position(|&x| x == c).map(|d| d as u32)
}

fn number(s: &[u8]) -> Option<u32> {
    s.iter().try_fold(0, |n, &c| Some(n * 10 + digit(c)?))
}

/// Year (two digits), month letter and day (women's plus 40): a date that exists.
fn birth_valid(s: &[u8]) -> bool {
    let (Some(year), Some(day)) = (number(&s[0..2]), number(&s[3..5])) else {
        return false;
    };
    let Some(month) = MONTHS.iter().position(|&m| m == s[2]) else {
        return false;
    };
    let day = if day > 40 { day - 40 } else { day };
    let last = match month {
        1 if year % 4 == 0 => 29,
        1 => 28,
        3 | 5 | 8 | 10 => 30,
        _ => 31,
    };
    (1..=last).contains(&day)
}

/// A municipality (`A`-`M` and a number from 1) or foreign country (`Z` and a number from
/// 100).
fn municipality_valid(s: &[u8]) -> bool {
    let Some(n) = number(&s[1..4]) else {
        return false;
    };
    match s[0] {
        b'A'..=b'M' => n > 0,
        b'Z' => n >= 100,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_codes() {
        for code in [
            "RSSGNN60R30H501U",
            "RSSMRA74D22A001Q",
            "FOOBRR80C04H146T",
            "LWNSML81L16F205A",
            "12345678903",
            "10182640150",
        ] {
            assert!(format_valid(code), "{code} format");
            assert!(checksum_valid(code), "{code} checksum");
        }
    }

    #[test]
    fn malformed_codes() {
        for code in [
            "RSSGNN60R30H501U1",
            "RSSGNN60R30H501",
            "RSS GNN60R30 H501U",
            "AYSGNN60R30H50UU",
            // 30 February, 29 February of a common year, municipality Z000
            "RSSGNN60B30H501U",
            "RSSGNN61B29H501U",
            "RSSGNN60R30Z001U",
        ] {
            assert!(!format_valid(code), "{code}");
        }
        // 29 February of a leap year, and a woman's day (plus 40)
        assert!(format_valid("RSSGNN60B69H501U"));
    }

    #[test]
    fn wrong_check_characters() {
        assert!(!checksum_valid("RSXGNN60R30H501U"));
        assert!(!checksum_valid("12345678901"));
    }
}
