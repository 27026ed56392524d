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
}

impl Layout {
    /// Typst's name of the paper.
    pub fn paper(self) -> &'static str {
        match self {
            Layout::A4 => "a4",
            Layout::Letter => "us-letter",
        }
    }

    /// `A4` or `Letter`, in any case.
    pub fn from_name(name: &str) -> Option<Layout> {
        match name.to_ascii_lowercase().as_str() {
            "a4" => Some(Layout::A4),
            "letter" | "us-letter" => Some(Layout::Letter),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Layout {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Layout::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("{name:?} is not A4 or Letter")))
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
