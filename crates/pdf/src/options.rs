//! What a render may be told, with Invopop's `pdf` step option names. Unknown keys are ignored.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer};

use crate::FiscalMark;

/// Page size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// ISO A4 (default).
    #[default]
    A4,
    /// US Letter.
    Letter,
    /// A German business letter on A4 (DIN 5008, form B): the recipient's address in the
    /// window of a DL envelope (85 × 45 mm, 20 mm from the left and 45 mm from the top edge)
    /// under the sender's return line, the document's details beside it, fold marks at 105 and
    /// 210 mm and the punch mark at 148.5 mm on the left edge.
    Din5008,
}

impl Layout {
    /// Typst's name of the paper.
    pub fn paper(self) -> &'static str {
        match self {
            Layout::A4 => "a4",
            Layout::Letter => "us-letter",
            Layout::Din5008 => "a4",
        }
    }

    /// Whether the page is laid out as a DIN 5008 letter.
    pub fn is_din5008(self) -> bool {
        self == Layout::Din5008
    }

    /// `A4`, `Letter` or `DIN5008`, in any case.
    pub fn from_name(name: &str) -> Option<Layout> {
        match name.to_ascii_lowercase().as_str() {
            "a4" => Some(Layout::A4),
            "letter" | "us-letter" => Some(Layout::Letter),
            "din5008" | "din-5008" => Some(Layout::Din5008),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Layout {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Layout::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format!("{name:?} is not A4, Letter or DIN5008"))
        })
    }
}

/// Render options. The logo, a template, the fiscal mark and the creation time are set by the
/// caller, not read from configuration.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Options {
    /// Language of the labels and style of numbers and dates: `en`, `es`, `de`, `fr`, `it`,
    /// `pt`, `nl` (others render in English).
    pub locale: Option<String>,
    /// Page size.
    pub layout: Layout,
    /// `strftime` pattern of dates (e.g. `%Y-%m-%d`); the locale's when absent.
    pub date_format: Option<String>,
    /// Decimal mark, overriding the locale's.
    pub decimal_mark: Option<String>,
    /// Thousands separator, overriding the locale's.
    pub thousands_separator: Option<String>,
    /// Height of the logo in points (default 40).
    pub logo_height: Option<f64>,
    /// Title instead of the document type's (e.g. `Receipt`).
    pub label: Option<String>,
    /// Text written large and faint across every page (e.g. `DRAFT`).
    pub watermark: Option<String>,
    /// Mark the document as a duplicate (a copy of one sent before).
    pub duplicate: bool,
    /// The logo: PNG, JPEG or SVG bytes.
    #[serde(skip)]
    pub logo: Option<Vec<u8>>,
    /// A Typst template replacing folio's (it reads the same `/view.json`).
    #[serde(skip)]
    pub template: Option<String>,
    /// The fiscal QR mark (VERI*FACTU or TicketBAI) of an invoice that has one.
    #[serde(skip)]
    pub fiscal: Option<FiscalMark>,
    /// The PDF's creation time (now when absent); fix it for byte-identical output.
    #[serde(skip)]
    pub created: Option<DateTime<Utc>>,
}

impl Options {
    /// The locale, `en` by default.
    pub fn locale(&self) -> &str {
        self.locale
            .as_deref()
            .filter(|l| !l.is_empty())
            .unwrap_or("en")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_by_invopops_names() {
        assert_eq!(Layout::from_name("A4"), Some(Layout::A4));
        assert_eq!(Layout::from_name("Letter"), Some(Layout::Letter));
        assert_eq!(Layout::from_name("DIN5008"), Some(Layout::Din5008));
        assert_eq!(Layout::Din5008.paper(), "a4");
        assert!(Layout::Din5008.is_din5008() && !Layout::A4.is_din5008());
        assert_eq!(Layout::from_name("A5"), None);
        let err = serde_json::from_str::<Layout>("\"A5\"").unwrap_err();
        assert!(err.to_string().contains("DIN5008"), "{err}");
    }
}
