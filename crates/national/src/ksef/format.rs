//! Numbers and texts as the FA(3) schema writes them: amounts with two decimals
//! (`TKwotowy`), prices with up to eight (`TKwotowy2`), quantities with up to six
//! (`TIlosci`), tax rates as bare figures (`23`), texts as collapsed tokens of limited
//! length (`TZnakowy`: 256 characters).

use gobl::num::{Amount, Percentage};

use crate::decimal::without_trailing_zeros;

/// The sign every amount of the document takes: −1 for a correcting invoice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sign(pub(crate) bool);

impl Sign {
    /// `a`, negated when the document's amounts are negated.
    pub(crate) fn of(self, a: Amount) -> Amount {
        if self.0 { a.negate().unwrap_or(a) } else { a }
    }
}

// `amount`: exactly two decimals (`TKwotowy`); `price`: up to eight decimals, at least
// two (`TKwotowy2`: unit prices).
pub(crate) use crate::decimal::{two as amount, two_to_eight as price};

/// Up to six decimals (`TIlosci`: quantities, exchange rates).
pub(crate) fn quantity(a: Amount) -> String {
    a.rescale_down(6).unwrap_or(a).to_string()
}

/// The percent figure without trailing zeros: `23.0%` → `23`, `7.50%` → `7.5`.
pub(crate) fn percent(p: Percentage) -> String {
    match p.percent_amount() {
        Ok(a) => without_trailing_zeros(a.to_string()),
        Err(_) => p.to_string().trim_end_matches('%').to_string(),
    }
}

/// A text as a `TZnakowy…` token: whitespace collapsed, at most `max` characters; `None`
/// when nothing is left.
pub(crate) fn token(text: &str, max: usize) -> Option<String> {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.is_empty() {
        return None;
    }
    Some(
        t.chars()
            .take(max)
            .collect::<String>()
            .trim_end()
            .to_string(),
    )
}

/// A date as FA(3) writes it (`2024-05-31`).
pub(crate) fn date(d: chrono::NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> Amount {
        Amount::parse(s).unwrap()
    }

    #[test]
    fn numbers_follow_the_schema_types() {
        assert_eq!(amount(a("1388.4")), "1388.40");
        assert_eq!(amount(a("0.125")), "0.13");
        assert_eq!(price(a("10")), "10.00");
        assert_eq!(price(a("69.7182")), "69.7182");
        assert_eq!(quantity(a("20")), "20");
        assert_eq!(quantity(a("1.12345678")), "1.123457");
        assert_eq!(percent(Percentage::parse("23.0%").unwrap()), "23");
        assert_eq!(percent(Percentage::parse("8%").unwrap()), "8");
        assert_eq!(percent(Percentage::parse("7.50%").unwrap()), "7.5");
        assert_eq!(Sign(true).of(a("246.00")).to_string(), "-246.00");
        assert_eq!(Sign(false).of(a("246.00")).to_string(), "246.00");
    }

    #[test]
    fn texts_are_collapsed_and_cut() {
        assert_eq!(token("  a \n b ", 256).as_deref(), Some("a b"));
        assert_eq!(token("abcdef", 3).as_deref(), Some("abc"));
        assert_eq!(token("  ", 3), None);
    }
}
