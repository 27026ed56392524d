//! Tax combos (`{"cat":"VAT","rate":"general",...}`): normalisation and rate resolution.

use serde_json::Value;

use super::CalcError;
use super::val::{Obj, percent, set_percent, string};
use crate::num::Percentage;
use crate::regimes;
use crate::tax::RegimeDef;

/// A tax combo read from a line, discount or charge.
#[derive(Debug, Clone)]
pub(crate) struct Combo {
    pub cat: String,
    pub country: Option<String>,
    pub key: Option<String>,
    pub rate: Option<String>,
    pub percent: Option<Percentage>,
    pub surcharge: Option<Percentage>,
    pub ext: Option<Value>,
    pub retained: bool,
    pub informative: bool,
}

/// Normalise a combo in place: legacy `tags`, VAT rate aliases, zero and exempt keys.
pub(crate) fn normalize(o: &mut Obj) {
    if string(o, "rate").is_none()
        && let Some(t) = o
            .get("tags")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_str)
    {
        let t = t.to_string();
        o.insert("rate".into(), Value::String(t));
    }
    o.remove("tags");
    if string(o, "cat") != Some("VAT") {
        return;
    }
    let rate = string(o, "rate").map(str::to_string);
    let set_key = |o: &mut Obj, k: &str| {
        o.insert("key".into(), Value::String(k.into()));
        o.remove("rate");
    };
    match rate.as_deref() {
        Some("zero") => {
            set_key(o, "zero");
            if !o.contains_key("percent") {
                set_percent(o, "percent", Percentage::ZERO);
            }
        }
        Some("exempt") => set_key(o, "exempt"),
        Some("exempt+reverse-charge") => {
            set_key(o, "reverse-charge");
            o.remove("percent");
        }
        Some("exempt+export") => set_key(o, "export"),
        Some("exempt+eea") | Some("exempt+export+eea") => set_key(o, "intra-community"),
        Some("standard") => {
            o.insert("rate".into(), Value::String("general".into()));
        }
        Some(r) if r.starts_with("standard+") => {
            let r = format!("general+{}", &r["standard+".len()..]);
            o.insert("rate".into(), Value::String(r));
        }
        _ => {}
    }
    match string(o, "key") {
        None => {
            if let Ok(Some(p)) = percent(o, "percent", "")
                && p.is_zero()
            {
                o.insert("key".into(), Value::String("zero".into()));
            }
        }
        Some("zero") if !o.contains_key("percent") => {
            set_percent(o, "percent", Percentage::ZERO);
        }
        _ => {}
    }
}

impl Combo {
    /// Read a combo from its JSON object.
    pub fn read(o: &Obj, path: &str) -> Result<Combo, CalcError> {
        Ok(Combo {
            cat: string(o, "cat").unwrap_or_default().to_string(),
            country: string(o, "country").map(str::to_string),
            key: string(o, "key").map(str::to_string),
            rate: string(o, "rate").map(str::to_string),
            percent: percent(o, "percent", path)?,
            surcharge: percent(o, "surcharge", path)?,
            ext: o
                .get("ext")
                .filter(|v| v.as_object().is_some_and(|m| !m.is_empty()))
                .cloned(),
            retained: false,
            informative: false,
        })
    }

    /// Write the resolved fields back into the combo's JSON object.
    pub fn write(&self, o: &mut Obj) {
        let mut put = |k: &str, v: Option<Value>| match v {
            Some(v) => {
                o.insert(k.to_string(), v);
            }
            None => {
                o.remove(k);
            }
        };
        put("country", self.country.clone().map(Value::String));
        put("key", self.key.clone().map(Value::String));
        put("rate", self.rate.clone().map(Value::String));
        put(
            "percent",
            self.percent.map(|p| Value::String(p.to_string())),
        );
        put(
            "surcharge",
            self.surcharge.map(|p| Value::String(p.to_string())),
        );
        // Keep the conventional field order: cat, country, key, rate, percent, surcharge, ext.
        let order = [
            "cat",
            "country",
            "key",
            "rate",
            "percent",
            "surcharge",
            "ext",
        ];
        let mut sorted = Obj::new();
        for k in order {
            if let Some(v) = o.remove(k) {
                sorted.insert(k.to_string(), v);
            }
        }
        sorted.append(o);
        *o = sorted;
    }

    /// Resolve key, percent and surcharge from the regime (of the combo's own country when
    /// that differs from `regime`) on `date` (`YYYYMMDD`).
    pub fn calculate(
        &mut self,
        regime: Option<&'static RegimeDef>,
        date: u32,
        path: &str,
    ) -> Result<(), CalcError> {
        let mut r = regime;
        if let (Some(c), Some(rg)) = (&self.country, regime)
            && (c == rg.country)
        {
            self.country = None;
        }
        if let Some(c) = &self.country {
            r = regimes::get(c);
            if r.is_none() {
                // A country folio has no tables for: keep what the combo states.
                return Ok(());
            }
        }
        let Some(r) = r else { return Ok(()) };
        let Some(cd) = r.category(&self.cat) else {
            return Err(CalcError::new(
                format!("{path}.cat"),
                format!("'{}' not defined in regime", self.cat),
            ));
        };
        self.retained = cd.retained;
        self.informative = cd.informative;
        if !cd.keys.is_empty() && self.key.is_none() {
            self.key = Some("standard".into());
        }
        let key = self.key.clone().unwrap_or_default();
        if cd.key(&key).is_some_and(|k| k.no_percent) {
            self.percent = None;
            self.surcharge = None;
            return Ok(());
        }
        let Some(rate) = self.rate.clone() else {
            return Ok(());
        };
        let Some(rd) = cd.rate(&key, &rate) else {
            let msg = if key.is_empty() {
                format!("'{rate}' rate not defined in category '{}'", self.cat)
            } else {
                format!(
                    "'{rate}' rate not defined for key '{key}' in category '{}'",
                    self.cat
                )
            };
            return Err(CalcError::new(format!("{path}.rate"), msg));
        };
        if rd.values.is_empty() {
            return Ok(());
        }
        let ext = self.ext.clone();
        let lookup = |k: &str| -> Option<&str> { ext.as_ref()?.get(k)?.as_str() };
        let Some(v) = rd.value_on(date, lookup) else {
            return Err(CalcError::new(
                format!("{path}.rate"),
                format!(
                    "rate value unavailable for '{rate}' in '{}' on '{}'",
                    self.cat,
                    fmt_date(date)
                ),
            ));
        };
        self.percent = Some(v.percent());
        self.surcharge = v.surcharge();
        Ok(())
    }
}

fn fmt_date(d: u32) -> String {
    format!("{:04}-{:02}-{:02}", d / 10000, d / 100 % 100, d % 100)
}
