//! `Platnosc` read back into payment details: advances already paid, due dates, means
//! and bank accounts.

use gobl::num::Amount;
use serde_json::{Map, Value, json};

use super::super::Error;
use super::tree::Node;

pub(super) fn read(fa: &Node, credit: bool) -> Result<Option<Value>, Error> {
    let Some(p) = fa.child("Platnosc") else {
        return Ok(None);
    };
    let mut out = Map::new();
    let advances = advances(fa, p, credit)?;
    if !advances.is_empty() {
        out.insert("advances".into(), json!(advances));
    }
    let due: Vec<&str> = p
        .all("TerminPlatnosci")
        .filter_map(|t| t.text_of("Termin"))
        .collect();
    if let Some(last) = due.last() {
        out.insert(
            "terms".into(),
            json!({"key": "due-date", "due_dates": [{"date": last, "percent": "100%"}]}),
        );
    }
    if let Some(i) = instructions(p) {
        out.insert("instructions".into(), i);
    }
    Ok((!out.is_empty()).then_some(Value::Object(out)))
}

fn means_key(code: &str) -> &'static str {
    match code {
        "1" => "cash",
        "2" => "card",
        "3" => "other+voucher",
        "4" => "cheque",
        "5" => "other+credit",
        "6" => "credit-transfer",
        "7" => "online",
        _ => "any",
    }
}

fn amount(s: &str, credit: bool) -> Result<Amount, Error> {
    let a = Amount::parse(s.trim()).map_err(|_| Error::Invalid(format!("amount '{s}'")))?;
    Ok(if credit { a.negate().unwrap_or(a) } else { a })
}

/// Paid in full (`Zaplacono`: the whole P_15) or in parts (`ZaplataCzesciowa`).
fn advances(fa: &Node, p: &Node, credit: bool) -> Result<Vec<Value>, Error> {
    let mut out = Vec::new();
    for z in p.all("ZaplataCzesciowa") {
        let Some(a) = z.text_of("KwotaZaplatyCzesciowej") else {
            continue;
        };
        let mut adv =
            json!({"description": "Advance payment", "amount": amount(a, credit)?.to_string()});
        if let Some(d) = z.text_of("DataZaplatyCzesciowej") {
            adv["date"] = json!(d);
        }
        if let Some(code) = z.text_of("FormaPlatnosci") {
            adv["key"] = json!(means_key(code));
            adv["ext"] = json!({"pl-favat-payment-means": code});
        }
        out.push(adv);
    }
    if out.is_empty() && p.text_of("Zaplacono") == Some("1") {
        let total = fa.text_of("P_15").ok_or(Error::Missing("Fa/P_15"))?;
        let mut adv =
            json!({"description": "Payment", "amount": amount(total, credit)?.to_string()});
        if let Some(d) = p.text_of("DataZaplaty") {
            adv["date"] = json!(d);
        }
        out.push(adv);
    }
    Ok(out)
}

fn instructions(p: &Node) -> Option<Value> {
    let accounts: Vec<Value> = p
        .all("RachunekBankowy")
        .filter_map(|r| {
            let nr = r.text_of("NrRB")?;
            let is_iban = nr.len() > 2 && nr[..2].chars().all(|c| c.is_ascii_uppercase());
            let mut ct = if is_iban {
                json!({"iban": nr})
            } else {
                json!({"number": nr})
            };
            if let Some(b) = r.text_of("SWIFT") {
                ct["bic"] = json!(b);
            }
            if let Some(n) = r.text_of("NazwaBanku") {
                ct["name"] = json!(n);
            }
            Some(ct)
        })
        .collect();
    let key = match (p.text_of("FormaPlatnosci"), p.text_of("OpisPlatnosci")) {
        (Some(code), _) => Some(means_key(code).to_string()),
        (None, Some(_)) => Some("other".to_string()),
        (None, None) if !accounts.is_empty() => Some("credit-transfer".into()),
        _ => None,
    }?;
    let mut i = json!({"key": key});
    if let Some(other) = p
        .text_of("OpisPlatnosci")
        .filter(|_| p.text_of("FormaPlatnosci").is_none())
    {
        i["detail"] = json!(other);
    }
    if let Some(code) = p.text_of("FormaPlatnosci") {
        i["ext"] = json!({"pl-favat-payment-means": code});
    }
    if !accounts.is_empty() {
        i["credit_transfer"] = json!(accounts);
    }
    Some(i)
}
