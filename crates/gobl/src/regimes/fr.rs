//! France: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The France regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "FR",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Paris",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "corrective"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(super::taxid::fr), normalize_tax_id: Some(siren_to_vat), ..Hooks::NONE },
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse Charge / Autoliquidation de la TVA - Article 283-1 du CGI. Le client est redevable de la TVA." }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20110104), percent: "20%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "intermediate", keys: STANDARD, values: &[
                    RateValue { since: Some(20140101), percent: "10%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20140101), percent: "5.5%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20140101), percent: "2.1%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

/// A SIREN (9 digits) becomes the VAT code it implies; any other code is kept.
fn siren_to_vat(code: String) -> String {
    super::taxid::fr_siren_to_vat(&code).unwrap_or(code)
}
