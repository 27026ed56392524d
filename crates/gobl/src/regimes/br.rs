//! Brazil: tax categories, keys and rates (facts from the GOBL regime definitions), the CNPJ
//! and CPF check digits, and Brazilian parties: addresses take the party's country, and their
//! states, post codes and IBGE municipality codes must be valid.

use crate::json::{Map, Value};

use crate::fault::Fault;
use crate::tax::defs::*;

/// The Brazil regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "BR",
    alt_countries: &[],
    currency: "BRL",
    time_zone: "America/Sao_Paulo",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(cnpj_or_cpf), normalize: Some(normalize_invoice), validate: Some(validate_invoice), ..Hooks::NONE },
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "ISS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "ICMS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IPI",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "PIS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "PISRet",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "COFINS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "COFINSRet",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "CSLL",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "INSS",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IRRF",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IBS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "CBS",
            retained: false,
            informative: true,
            keys: &[],
            rates: &[
            ],
        },
    ],
};

/// A CNPJ (14 digits) or a CPF (11 digits), each with two modulo-11 check digits.
fn cnpj_or_cpf(code: &str) -> Result<(), String> {
    if !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err("must contain only digits".into());
    }
    let d: Vec<u32> = code.bytes().map(|b| u32::from(b - b'0')).collect();
    let (first, second): (&[u32], &[u32]) = match d.len() {
        14 => (
            &[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
            &[6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
        ),
        11 => (
            &[10, 9, 8, 7, 6, 5, 4, 3, 2],
            &[11, 10, 9, 8, 7, 6, 5, 4, 3, 2],
        ),
        _ => return Err("must have 11 (CPF) or 14 (CNPJ) digits".into()),
    };
    if check_digit(&d, first) == d[first.len()] && check_digit(&d, second) == d[second.len()] {
        Ok(())
    } else {
        Err("verification digit mismatch".into())
    }
}

/// The check digit after the digits `weights` covers: 0 for a remainder under 2, else 11
/// less the remainder.
fn check_digit(d: &[u32], weights: &[u32]) -> u32 {
    let sum: u32 = d.iter().zip(weights).map(|(x, w)| x * w).sum();
    match sum % 11 {
        r if r < 2 => 0,
        r => 11 - r,
    }
}

/// Where an invoice holds parties.
const PARTIES: &[&[&str]] = &[
    &["supplier"],
    &["customer"],
    &["ordering", "buyer"],
    &["ordering", "seller"],
    &["ordering", "issuer"],
    &["delivery", "receiver"],
    &["payment", "payee"],
    &["payment", "payer"],
];

/// The invoice's parties with their paths (`supplier`, `lines[0].seller`, …).
fn parties(doc: &Doc) -> Vec<(String, &Map)> {
    let mut out = Vec::new();
    for path in PARTIES {
        let mut v = doc.get(path[0]);
        for k in &path[1..] {
            v = v.and_then(|x| x.get(k));
        }
        if let Some(p) = v.and_then(Value::as_object) {
            out.push((path.join("."), p));
        }
    }
    for (i, line) in doc
        .get("lines")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if let Some(p) = line.get("seller").and_then(Value::as_object) {
            out.push((format!("lines[{i}].seller"), p));
        }
    }
    out
}

/// Each party's addresses without a country take the party's: its tax id's country as an
/// ISO code, else the first identity's country.
fn normalize_invoice(doc: &mut Doc) {
    let paths: Vec<String> = parties(doc).into_iter().map(|(p, _)| p).collect();
    for path in paths {
        if let Some(p) = party_mut(doc, &path) {
            address_countries(p);
        }
    }
}

/// The party at a path given by [`parties`].
fn party_mut<'a>(doc: &'a mut Doc, path: &str) -> Option<&'a mut Map> {
    let mut keys = path.split('.');
    let mut v = doc.get_mut(keys.next()?)?;
    for k in keys {
        v = match k.split_once('[') {
            Some((name, idx)) => {
                let i: usize = idx.trim_end_matches(']').parse().ok()?;
                v.get_mut(name)?.get_mut(i)?
            }
            None => v.get_mut(k)?,
        };
    }
    v.as_object_mut()
}

fn address_countries(p: &mut Map) {
    let tax_country = p
        .get("tax_id")
        .and_then(|t| t.get("country"))
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty());
    let country = match tax_country {
        Some(c) => iso_of_tax_country(c),
        None => p
            .get("identities")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find_map(|id| {
                id.get("country")
                    .and_then(Value::as_str)
                    .filter(|c| !c.is_empty())
            }),
    };
    let Some(country) = country.map(str::to_string) else {
        return;
    };
    for addr in p
        .get_mut("addresses")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        if let Some(a) = addr.as_object_mut()
            && a.get("country")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
        {
            a.insert("country".into(), Value::String(country.clone().into()));
        }
    }
}

/// The ISO country of a tax country code (Greece's `EL`, Northern Ireland's `XI`).
fn iso_of_tax_country(code: &str) -> Option<&str> {
    match code {
        "EL" => Some("GR"),
        "XI" => Some("GB"),
        c if c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase()) => Some(c),
        _ => None,
    }
}

/// Brazil's states (unidades federativas).
const STATES: &[&str] = &[
    "AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA", "PB", "PE",
    "PI", "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO",
];

/// `#####-###` or `########`.
fn post_code_valid(code: &str) -> bool {
    let b = code.as_bytes();
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    match b.len() {
        8 => digits(b),
        9 => b[5] == b'-' && digits(&b[..5]) && digits(&b[6..]),
        _ => false,
    }
}

/// A party is Brazilian by its tax id or any of its addresses.
fn is_brazilian(p: &Map) -> bool {
    let tax = p
        .get("tax_id")
        .and_then(|t| t.get("country"))
        .and_then(Value::as_str);
    tax == Some("BR")
        || addresses(p).any(|a| a.get("country").and_then(Value::as_str) == Some("BR"))
}

fn addresses(p: &Map) -> impl Iterator<Item = &Value> {
    p.get("addresses")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// The rules of Brazilian parties (`GOBL-BR-ORG-PARTY-01…03`).
fn validate_invoice(doc: &Doc, faults: &mut Vec<Fault>) {
    for (path, p) in parties(doc) {
        if !is_brazilian(p) {
            continue;
        }
        let municipality = p
            .get("ext")
            .and_then(|e| e.get("br-ibge-municipality"))
            .and_then(Value::as_str);
        if let Some(m) = municipality
            && !(m.len() == 7 && m.bytes().all(|b| b.is_ascii_digit()))
        {
            faults.push(Fault::at(
                format!("doc.{path}.ext.br-ibge-municipality"),
                "GOBL-BR-ORG-PARTY-01",
                "Brazilian party ext must define a valid 'br-ibge-municipality' code",
            ));
        }
        for (i, a) in addresses(p).enumerate() {
            if !matches!(
                a.get("country").and_then(Value::as_str),
                None | Some("" | "BR")
            ) {
                continue;
            }
            let at = format!("doc.{path}.addresses[{i}]");
            let state = a.get("state").and_then(Value::as_str).unwrap_or("");
            if !state.is_empty() && !STATES.contains(&state) {
                faults.push(Fault::at(
                    format!("{at}.state"),
                    "GOBL-BR-ORG-PARTY-02",
                    "Brazilian state must be one of the valid states",
                ));
            }
            let code = a.get("code").and_then(Value::as_str).unwrap_or("");
            if !code.is_empty() && !post_code_valid(code) {
                faults.push(Fault::at(
                    format!("{at}.code"),
                    "GOBL-BR-ORG-PARTY-03",
                    "Brazilian postal code must match the valid format",
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::regimes::taxid::check;

    #[test]
    fn cnpj_and_cpf_check_digits() {
        for ok in [
            "05104582000170",
            "10909402000167",
            "01234567890",
            "35549549506",
        ] {
            assert_eq!(check("BR", ok), Ok(()), "{ok}");
        }
        for ko in [
            "A2345678901234",
            "123456789012AB",
            "05104582000160",
            "05104582000171",
            "11144477730",
            "1114447773",
            "111444777356",
            "11A44477735",
        ] {
            assert!(check("BR", ko).is_err(), "{ko}");
        }
    }

    #[test]
    fn parties_addresses_and_rules() {
        let mut doc = json!({
            "supplier": {
                "tax_id": {"country": "BR", "code": "05104582000170"},
                "ext": {"br-ibge-municipality": "123"},
                "addresses": [{"state": "XX", "code": "01310-100"}, {"country": "PT", "code": "1"}],
            },
            "customer": {"identities": [{"country": "AR", "code": "1"}], "addresses": [{"code": "X"}]},
        });
        let doc = doc.as_object_mut().unwrap();
        normalize_invoice(doc);
        assert_eq!(doc["supplier"]["addresses"][0]["country"], "BR");
        assert_eq!(doc["supplier"]["addresses"][1]["country"], "PT");
        assert_eq!(doc["customer"]["addresses"][0]["country"], "AR");
        let mut faults = Vec::new();
        validate_invoice(doc, &mut faults);
        let codes: Vec<&str> = faults.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["GOBL-BR-ORG-PARTY-01", "GOBL-BR-ORG-PARTY-02"]);
        assert!(post_code_valid("01310100") && !post_code_valid("0131-0100"));
    }
}
