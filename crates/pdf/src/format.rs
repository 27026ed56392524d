//! Numbers, amounts, percentages and dates written as each locale writes them. GOBL gives
//! decimals as text (`"1234.50"`), so they are re-punctuated, never parsed into floats.

use chrono::NaiveDate;

/// How one locale writes numbers and dates.
#[derive(Debug, Clone, PartialEq)]
pub struct Style {
    /// Decimal mark.
    pub decimal: String,
    /// Thousands separator (may be empty).
    pub thousands: String,
    /// `strftime` pattern of dates.
    pub date: String,
    /// The currency symbol goes before the number (`€1,234.50`) rather than after (`1.234,50 €`).
    pub symbol_first: bool,
}

/// A narrow no-break space, as French and Portuguese group digits.
const NARROW_NBSP: &str = "\u{202f}";

impl Style {
    /// The style of a locale (`en`, `es`, `de`, `fr`, `it`, `pt`, `nl`; others as `en`).
    pub fn of(locale: &str) -> Style {
        let lang = locale.split(['-', '_']).next().unwrap_or("en");
        let (decimal, thousands, date, symbol_first) = match lang {
            "es" | "it" => (",", ".", "%d/%m/%Y", false),
            "de" => (",", ".", "%d.%m.%Y", false),
            "fr" => (",", NARROW_NBSP, "%d/%m/%Y", false),
            "pt" => (",", NARROW_NBSP, "%d/%m/%Y", false),
            "nl" => (",", ".", "%d-%m-%Y", true),
            _ => (".", ",", "%d %b %Y", true),
        };
        Style {
            decimal: decimal.into(),
            thousands: thousands.into(),
            date: date.into(),
            symbol_first,
        }
    }

    /// A decimal as text (`"-1234.5"`) with this style's marks (`"-1.234,5"`).
    pub fn number(&self, text: &str) -> String {
        let text = text.trim();
        let (sign, digits) = match text.strip_prefix('-') {
            Some(rest) => ("-", rest),
            None => ("", text),
        };
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
            return text.to_string();
        }
        let mut grouped = String::new();
        for (i, ch) in int.chars().enumerate() {
            if i > 0 && (int.len() - i) % 3 == 0 {
                grouped.push_str(&self.thousands);
            }
            grouped.push(ch);
        }
        match frac {
            "" => format!("{sign}{grouped}"),
            f => format!("{sign}{grouped}{}{f}", self.decimal),
        }
    }

    /// An amount with its currency (`€1,234.50`, `1.234,50 €`, `1.234,50 CHF`).
    pub fn amount(&self, text: &str, currency: &str) -> String {
        let n = self.number(text);
        let symbol = symbol(currency);
        match (self.symbol_first, n.strip_prefix('-')) {
            (true, Some(rest)) => format!("-{symbol}{rest}"),
            (true, None) => format!("{symbol}{n}"),
            (false, _) => format!("{n}\u{a0}{symbol}"),
        }
    }

    /// A percentage (`"21.0%"` → `21,0 %` or `21.0%`).
    pub fn percent(&self, text: &str) -> String {
        let n = self.number(text.trim().trim_end_matches('%'));
        if self.decimal == "," {
            format!("{n}\u{a0}%")
        } else {
            format!("{n}%")
        }
    }

    /// An ISO date (`2026-11-02`) in this style; the text as it is when it is not one.
    pub fn date(&self, text: &str) -> String {
        match NaiveDate::parse_from_str(text, "%Y-%m-%d") {
            Ok(d) => d.format(&self.date).to_string(),
            Err(_) => text.to_string(),
        }
    }
}

/// The sign of the common currencies, else the ISO code.
fn symbol(currency: &str) -> &str {
    match currency {
        "EUR" => "€",
        "USD" => "$",
        "GBP" => "£",
        "JPY" => "¥",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_locale_writes_amounts_its_way() {
        assert_eq!(Style::of("en").amount("1234567.50", "EUR"), "€1,234,567.50");
        assert_eq!(Style::of("en").amount("-12.00", "USD"), "-$12.00");
        assert_eq!(Style::of("de").amount("1234.50", "EUR"), "1.234,50\u{a0}€");
        assert_eq!(Style::of("es").amount("-999.99", "EUR"), "-999,99\u{a0}€");
        assert_eq!(
            Style::of("fr").amount("1234.5", "CHF"),
            "1\u{202f}234,5\u{a0}CHF"
        );
        assert_eq!(Style::of("nl").amount("1234.50", "EUR"), "€1.234,50");
        assert_eq!(Style::of("it").number("100"), "100");
        assert_eq!(Style::of("de").percent("19%"), "19\u{a0}%");
        assert_eq!(Style::of("en").percent("21.0%"), "21.0%");
        assert_eq!(Style::of("en").number("abc"), "abc");
    }

    #[test]
    fn each_locale_writes_dates_its_way() {
        assert_eq!(Style::of("de").date("2026-11-02"), "02.11.2026");
        assert_eq!(Style::of("es").date("2026-11-02"), "02/11/2026");
        assert_eq!(Style::of("nl").date("2026-11-02"), "02-11-2026");
        assert_eq!(Style::of("en").date("2026-11-02"), "02 Nov 2026");
        assert_eq!(Style::of("en").date("not a date"), "not a date");
    }
}
