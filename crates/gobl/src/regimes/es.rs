//! Spain: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Spain regime.
pub static REGIME: RegimeDef = RegimeDef {
    country: "ES",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Madrid",
    rounding: None,
    invoice_tags: &["copy", "summary", "simplified-scheme", "travel-agency", "second-hand-goods", "art", "antiques", "cash-basis"],
    correction_types: &["credit-note", "corrective", "debit-note"],
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note_cat: Some("VAT"), note_key: "reverse-charge", text: "Reverse Charge / Inversión del sujeto pasivo." },
        Scenario { tags: &["reverse-charge"], cats: &["IGIC"], note_cat: Some("IGIC"), note_key: "reverse-charge", text: "Reverse Charge / Inversión del sujeto pasivo." },
        Scenario { tags: &["simplified-scheme"], cats: &["VAT"], note_cat: Some("VAT"), note_key: "simplified-scheme", text: "Factura expedida por contribuyente en régimen simplificado." },
        Scenario { tags: &["self-billed"], cats: &[], note_cat: None, note_key: "self-billed", text: "Facturación por el destinatario." },
        Scenario { tags: &["travel-agency"], cats: &["VAT"], note_cat: Some("VAT"), note_key: "travel-agency", text: "Régimen especial de las agencias de viajes." },
        Scenario { tags: &["travel-agency"], cats: &["IGIC"], note_cat: Some("IGIC"), note_key: "travel-agency", text: "Régimen especial de las agencias de viajes." },
        Scenario { tags: &["second-hand-goods"], cats: &["VAT"], note_cat: Some("VAT"), note_key: "second-hand-goods", text: "Régimen especial de los bienes usados." },
        Scenario { tags: &["second-hand-goods"], cats: &["IGIC"], note_cat: Some("IGIC"), note_key: "second-hand-goods", text: "Régimen especial de los bienes usados." },
        Scenario { tags: &["art"], cats: &["VAT"], note_cat: Some("VAT"), note_key: "art", text: "Régimen especial de los objetos de arte." },
        Scenario { tags: &["art"], cats: &["IGIC"], note_cat: Some("IGIC"), note_key: "art", text: "Régimen especial de los objetos de arte." },
        Scenario { tags: &["antiques"], cats: &["VAT"], note_cat: Some("VAT"), note_key: "antiques", text: "Régimen especial de las antigüedades y objetos de colección." },
        Scenario { tags: &["antiques"], cats: &["IGIC"], note_cat: Some("IGIC"), note_key: "antiques", text: "Régimen especial de las antigüedades y objetos de colección." },
        Scenario { tags: &["cash-basis"], cats: &["VAT"], note_cat: Some("VAT"), note_key: "cash-basis", text: "Régimen especial del criterio de caja." },
        Scenario { tags: &["cash-basis"], cats: &["IGIC"], note_cat: Some("IGIC"), note_key: "cash-basis", text: "Régimen especial del criterio de caja." },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20120901), percent: "21.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20100701), percent: "18.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19950101), percent: "16.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19930101), percent: "15.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "general+eqs", keys: STANDARD, values: &[
                    RateValue { since: Some(20120901), percent: "21.0%", surcharge: Some("5.2%"), ext: &[] },
                    RateValue { since: Some(20100701), percent: "18.0%", surcharge: Some("4.0%"), ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20120901), percent: "10.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20100701), percent: "8.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19950101), percent: "7.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19930101), percent: "6.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced+eqs", keys: STANDARD, values: &[
                    RateValue { since: Some(20120901), percent: "10.0%", surcharge: Some("1.4%"), ext: &[] },
                    RateValue { since: Some(20100701), percent: "8.0%", surcharge: Some("1.0%"), ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(19950101), percent: "4.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19930101), percent: "3.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced+eqs", keys: STANDARD, values: &[
                    RateValue { since: Some(19950101), percent: "4.0%", surcharge: Some("0.5%"), ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "IGIC",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "7.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "3.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "IPSI",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IRPF",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
                RateDef { rate: "pro", keys: &[], values: &[
                    RateValue { since: Some(20150712), percent: "15.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20150101), percent: "19.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20120901), percent: "21.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20070101), percent: "15.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "pro-start", keys: &[], values: &[
                    RateValue { since: Some(20070101), percent: "7.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "capital", keys: &[], values: &[
                    RateValue { since: Some(20070101), percent: "19.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "modules", keys: &[], values: &[
                    RateValue { since: Some(20070101), percent: "1.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "IRNR",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};
