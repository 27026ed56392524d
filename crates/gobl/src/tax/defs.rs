//! Definitions of tax regimes, categories, keys and rates, in folio's own static form, and
//! the parts a regime shares with an add-on: scenarios, correction definitions and hooks.

use crate::json::{Map, same_text};

use crate::fault::Fault;
use crate::num::Percentage;

/// A GOBL document as a JSON object, as the hooks see it.
pub type Doc = Map;

/// A tax regime: a country's categories, rates and invoice scenarios.
#[derive(Debug)]
pub struct RegimeDef {
    /// ISO country code.
    pub country: &'static str,
    /// Other country codes that select this regime (e.g. `XI` for GB).
    pub alt_countries: &'static [&'static str],
    /// Default currency.
    pub currency: &'static str,
    /// IANA time zone.
    pub time_zone: &'static str,
    /// Calculator rounding rule, when the regime sets one.
    pub rounding: Option<&'static str>,
    /// Invoice tags the regime adds to the default set.
    pub invoice_tags: &'static [&'static str],
    /// Invoice scenarios that add notes and extensions.
    pub scenarios: &'static [Scenario],
    /// Tax categories.
    pub categories: &'static [CategoryDef],
    /// What a correction of an invoice of this regime may and must carry.
    pub corrections: CorrectionDef,
    /// The regime's own code: tax-id check, normalisation, validation.
    pub hooks: Hooks,
}

/// A tax identity code check: `Err` says what is wrong.
pub type TaxIdCheck = fn(&str) -> Result<(), String>;

/// The code a regime or add-on adds to the data: each hook is optional.
#[derive(Debug, Clone, Copy)]
pub struct Hooks {
    /// Check a normalised tax identity code (upper-case, no symbols, no country prefix).
    pub tax_id: Option<TaxIdCheck>,
    /// Finish a tax identity code after the common normalisation (upper-case, no symbols,
    /// no country prefix), e.g. Norway's `MVA` suffix.
    pub normalize_tax_id: Option<fn(String) -> String>,
    /// Normalise an invoice before it is calculated.
    pub normalize: Option<fn(&mut Doc)>,
    /// Adjust an invoice after calculation and scenarios (extensions derived from totals).
    pub calculated: Option<fn(&mut Doc)>,
    /// Add the faults of a calculated invoice.
    pub validate: Option<fn(&Doc, &mut Vec<Fault>)>,
}

impl Hooks {
    /// No code of its own: the data says everything.
    pub const NONE: Hooks = Hooks {
        tax_id: None,
        normalize_tax_id: None,
        normalize: None,
        calculated: None,
        validate: None,
    };
}

/// A scenario: when an invoice matches every non-empty condition, add a note and/or
/// extensions to it.
#[derive(Debug)]
pub struct Scenario {
    /// Invoice types of which one must match (when not empty).
    pub types: &'static [&'static str],
    /// Tags that must all be present.
    pub tags: &'static [&'static str],
    /// Categories of which at least one must be used (when not empty).
    pub cats: &'static [&'static str],
    /// An extension the invoice's `tax.ext` must carry with this value.
    pub ext_match: Option<(&'static str, &'static str)>,
    /// A condition in code, when the data cannot say it.
    pub filter: Option<fn(&Doc) -> bool>,
    /// The note the scenario adds to `tax.notes`.
    pub note: Option<ScenarioNote>,
    /// Extensions the scenario sets in `tax.ext`.
    pub ext: &'static [(&'static str, &'static str)],
}

impl Scenario {
    /// A scenario with no condition and no effect, to complete literals with `..`.
    pub const NONE: Scenario = Scenario {
        types: &[],
        tags: &[],
        cats: &[],
        ext_match: None,
        filter: None,
        note: None,
        ext: &[],
    };
}

/// A note a scenario adds.
#[derive(Debug)]
pub struct ScenarioNote {
    /// Category of the note.
    pub cat: Option<&'static str>,
    /// Key of the note.
    pub key: &'static str,
    /// Source of the note (`src`).
    pub src: Option<&'static str>,
    /// Code of the note.
    pub code: Option<&'static str>,
    /// Text of the note.
    pub text: &'static str,
}

/// Adjusts a prepared correction given the correction options' extensions.
pub type CorrectionNormalize = fn(&mut Doc, &Map);

/// What a correction (credit note, corrective, debit note) of an invoice may and must carry.
#[derive(Debug, Clone, Copy)]
pub struct CorrectionDef {
    /// The invoice types a correction may produce, the default first.
    pub types: &'static [&'static str],
    /// Extensions the correction options must give (e.g. `es-tbai-correction`).
    pub extensions: &'static [&'static str],
    /// Stamps of the original to copy into the preceding reference.
    pub stamps: &'static [&'static str],
    /// Whether a reason is required.
    pub reason_required: bool,
    /// Whether copying the original's tax totals into the preceding reference is recommended.
    pub copy_tax: bool,
    /// Adjusts a prepared correction (the invoice with its `preceding` set) given the
    /// options' extensions, e.g. to route one of them to the invoice.
    pub normalize: Option<CorrectionNormalize>,
}

impl CorrectionDef {
    /// No correction definition.
    pub const NONE: CorrectionDef = CorrectionDef {
        types: &[],
        extensions: &[],
        stamps: &[],
        reason_required: false,
        copy_tax: false,
        normalize: None,
    };
}

/// A tax category such as VAT or IRPF.
#[derive(Debug)]
pub struct CategoryDef {
    /// Category code.
    pub code: &'static str,
    /// Retained (withheld) by the customer rather than added.
    pub retained: bool,
    /// Reported but not added to the totals.
    pub informative: bool,
    /// Keys (standard, exempt, …) the category accepts.
    pub keys: &'static [KeyDef],
    /// Named rates.
    pub rates: &'static [RateDef],
}

/// A tax key.
#[derive(Debug)]
pub struct KeyDef {
    /// The key.
    pub key: &'static str,
    /// Combos with this key carry no percent.
    pub no_percent: bool,
}

/// A named rate with its values over time, newest first.
#[derive(Debug)]
pub struct RateDef {
    /// Rate key (general, reduced, …).
    pub rate: &'static str,
    /// Keys the rate applies to (empty: only combos without a key).
    pub keys: &'static [&'static str],
    /// Values, newest first; values with extensions only match combos carrying them.
    pub values: &'static [RateValue],
}

/// One value of a rate, valid from a date.
#[derive(Debug)]
pub struct RateValue {
    /// First day the value applies, as `YYYYMMDD`.
    pub since: Option<u32>,
    /// The percent, e.g. `"21.0%"`.
    pub percent: &'static str,
    /// Equivalence surcharge, if any.
    pub surcharge: Option<&'static str>,
    /// Extensions a combo must carry for this value to apply.
    pub ext: &'static [(&'static str, &'static str)],
}

/// The keys shared by every VAT-like category.
pub const VAT_KEYS: &[KeyDef] = &[
    KeyDef {
        key: "standard",
        no_percent: false,
    },
    KeyDef {
        key: "zero",
        no_percent: false,
    },
    KeyDef {
        key: "reverse-charge",
        no_percent: true,
    },
    KeyDef {
        key: "exempt",
        no_percent: true,
    },
    KeyDef {
        key: "export",
        no_percent: true,
    },
    KeyDef {
        key: "intra-community",
        no_percent: true,
    },
    KeyDef {
        key: "outside-scope",
        no_percent: true,
    },
];

/// Rate keys for rates of the `standard` key.
pub const STANDARD: &[&str] = &["standard"];

impl RegimeDef {
    /// The category with `code`.
    pub fn category(&self, code: &str) -> Option<&'static CategoryDef> {
        self.categories.iter().find(|c| same_text(c.code, code))
    }

    /// The rounding rule (`precise` unless the regime says otherwise).
    pub fn rounding_rule(&self) -> &'static str {
        self.rounding.unwrap_or("precise")
    }
}

impl CategoryDef {
    /// The key definition for `key`.
    pub fn key(&self, key: &str) -> Option<&'static KeyDef> {
        self.keys.iter().find(|k| same_text(k.key, key))
    }

    /// The rate definition for `rate` under `key`: an exact match, else the first rate
    /// whose name prefixes `rate` (so `general+eqs` falls back to `general` when absent).
    pub fn rate(&self, key: &str, rate: &str) -> Option<&'static RateDef> {
        let mut second = None;
        for r in self.rates {
            if !r.has_key(key) {
                continue;
            }
            if same_text(r.rate, rate) {
                return Some(r);
            }
            if second.is_none() && rate.starts_with(r.rate) {
                second = Some(r);
            }
        }
        second
    }
}

impl RateDef {
    /// Whether the rate applies to combos with `key`.
    pub fn has_key(&self, key: &str) -> bool {
        if self.keys.is_empty() && key.is_empty() {
            return true;
        }
        self.keys.iter().any(|k| same_text(k, key))
    }

    /// The value valid on `date` (`YYYYMMDD`) for a combo carrying `ext`.
    pub fn value_on<'e>(
        &self,
        date: u32,
        ext: impl Fn(&str) -> Option<&'e str>,
    ) -> Option<&'static RateValue> {
        self.values.iter().find(|v| {
            v.ext.iter().all(|(k, val)| ext(k) == Some(*val)) && v.since.is_none_or(|s| s <= date)
        })
    }
}

impl RateValue {
    /// The parsed percent.
    pub fn percent(&self) -> Percentage {
        Percentage::parse(self.percent).unwrap_or(Percentage::ZERO)
    }

    /// The parsed surcharge.
    pub fn surcharge(&self) -> Option<Percentage> {
        self.surcharge.and_then(|s| Percentage::parse(s).ok())
    }
}

/// Parse `YYYY-MM-DD` into `YYYYMMDD`.
pub fn date_num(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y: u32 = s[0..4].parse().ok()?;
    let m: u32 = s[5..7].parse().ok()?;
    let d: u32 = s[8..10].parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    Some(y * 10000 + m * 100 + d)
}
