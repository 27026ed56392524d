//! Tax combos (`{"cat":"VAT","rate":"general",...}`): normalisation and rate resolution.

use std::borrow::Cow;
use std::fmt::Display;
use std::rc::Rc;

use crate::json::map::same_members;
use crate::json::{self, Value};

use super::CalcError;
use super::val::{Obj, get, has, percent, set_percent, string};
use crate::num::Percentage;
use crate::regimes;
use crate::tax::RegimeDef;

/// A tax combo read from a line, discount or charge.
#[derive(Debug, Clone)]
pub(crate) struct Combo {
    pub cat: Cow<'static, str>,
    pub country: Option<String>,
    pub key: Option<Cow<'static, str>>,
    pub rate: Option<Cow<'static, str>>,
    pub percent: Option<Percentage>,
    pub surcharge: Option<Percentage>,
    /// Shared with the other combos of the document whose `ext` is the same (see
    /// [`Combo::read_sharing`]): most lines carry the same few.
    pub ext: Option<Rc<Value>>,
    pub retained: bool,
    pub informative: bool,
}

/// Normalise a combo in place: legacy `tags`, VAT rate aliases, zero and exempt keys.
pub(crate) fn normalize(o: &mut Obj) {
    if string(o, "rate").is_none()
        && let Some(t) = get(o, "tags")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_str)
    {
        let t = t.to_string();
        o.insert("rate".into(), Value::String(t.into()));
    }
    if has(o, "tags") {
        o.remove("tags");
    }
    if string(o, "cat") != Some("VAT") {
        return;
    }
    let set_key = |o: &mut Obj, k: &str| {
        o.insert("key".into(), Value::String(k.into()));
        o.remove("rate");
    };
    // What the rate asks for, decided before the map is edited (the rate is not copied).
    enum Alias {
        Key(&'static str),
        General(Option<String>),
    }
    let alias = match string(o, "rate") {
        Some("zero") => Some(Alias::Key("zero")),
        Some("exempt") => Some(Alias::Key("exempt")),
        Some("exempt+reverse-charge") => Some(Alias::Key("reverse-charge")),
        Some("exempt+export") => Some(Alias::Key("export")),
        Some("exempt+eea") | Some("exempt+export+eea") => Some(Alias::Key("intra-community")),
        Some("standard") => Some(Alias::General(None)),
        Some(r) if r.starts_with("standard+") => Some(Alias::General(Some(format!(
            "general+{}",
            &r["standard+".len()..]
        )))),
        _ => None,
    };
    match alias {
        Some(Alias::Key(k)) => {
            set_key(o, k);
            match k {
                "zero" if !has(o, "percent") => set_percent(o, "percent", Percentage::ZERO),
                "reverse-charge" => {
                    o.remove("percent");
                }
                _ => {}
            }
        }
        Some(Alias::General(r)) => {
            let r = r.unwrap_or_else(|| "general".into());
            o.insert("rate".into(), Value::String(r.into()));
        }
        None => {}
    }
    match string(o, "key") {
        None => {
            if let Ok(Some(p)) = percent(o, "percent", "")
                && p.is_zero()
            {
                o.insert("key".into(), Value::String("zero".into()));
            }
        }
        Some("zero") if !has(o, "percent") => {
            set_percent(o, "percent", Percentage::ZERO);
        }
        _ => {}
    }
}

impl Combo {
    /// Read a combo from its JSON object. Its category, key and rate are the `regime`'s own
    /// texts when it defines them (most combos), copied only otherwise.
    #[cfg(test)]
    pub fn read(
        o: &Obj,
        regime: Option<&'static RegimeDef>,
        path: impl Display + Copy,
    ) -> Result<Combo, CalcError> {
        Self::read_sharing(o, regime, path, &mut Vec::new())
    }

    /// [`Combo::read`], its `ext` taken from `exts` when one there has the same members in
    /// the same order (else copied, and added to them).
    pub fn read_sharing(
        o: &Obj,
        regime: Option<&'static RegimeDef>,
        path: impl Display + Copy,
        exts: &mut Vec<Rc<Value>>,
    ) -> Result<Combo, CalcError> {
        let cat = string(o, "cat").unwrap_or_default();
        let cd = regime.and_then(|r| r.category(cat));
        let keys = cd.into_iter().flat_map(|c| c.keys).map(|k| k.key);
        let rates = cd.into_iter().flat_map(|c| c.rates).map(|r| r.rate);
        Ok(Combo {
            cat: known(cat, cd.map(|c| c.code).into_iter()),
            country: string(o, "country").map(str::to_string),
            key: string(o, "key").map(|k| known(k, keys)),
            rate: string(o, "rate").map(|r| known(r, rates)),
            percent: percent(o, "percent", path)?,
            surcharge: percent(o, "surcharge", path)?,
            ext: get(o, "ext")
                .and_then(Value::as_object)
                .filter(|m| !m.is_empty())
                .map(|m| shared_ext(m, exts)),
            retained: false,
            informative: false,
        })
    }

    /// Write the resolved fields back into the combo's JSON object, its members in the
    /// conventional order (cat, country, key, rate, percent, surcharge, ext) and then the
    /// others.
    pub fn write(&self, o: &mut Obj) {
        if let Some(places) = member_places(o) {
            return self.write_members_only(o, places);
        }
        let text = |v: Option<&str>| v.map(|t| Value::String(t.into()));
        let percent = |p: Option<Percentage>| p.map(|p| Value::String(p.to_text()));
        set_member(o, "country", text(self.country.as_deref()));
        set_member(o, "key", text(self.key.as_deref()));
        set_member(o, "rate", text(self.rate.as_deref()));
        set_member(o, "percent", percent(self.percent));
        set_member(o, "surcharge", percent(self.surcharge));
        // GOBL's members first, in its order (each taken out as `Map::remove` does, the last
        // member moving into its place), then the others in the order that leaves them
        let mut sorted = json::Map::with_capacity(o.len());
        for k in MEMBER_ORDER {
            if let Some((k, v)) = o.remove_entry(k) {
                sorted.insert(k, v);
            }
        }
        sorted.append(o);
        *o = sorted;
    }

    /// [`Combo::write`] of a combo that has only the members of [`MEMBER_ORDER`] (as most
    /// have), at `places`: their order is then that one whatever the edits, so the map is
    /// edited in place in that order. A member is replaced only when its text changes, a new
    /// one is inserted at its place, and only a member out of order is moved.
    fn write_members_only(&self, o: &mut Obj, mut places: Places) {
        let mut at = 0;
        for (m, k) in MEMBER_ORDER.into_iter().enumerate() {
            let text = match m {
                1 => Text::Str(self.country.as_deref()),
                2 => Text::Str(self.key.as_deref()),
                3 => Text::Str(self.rate.as_deref()),
                4 => Text::Percent(self.percent),
                5 => Text::Percent(self.surcharge),
                _ => Text::Kept,
            };
            match (places[m], text) {
                (None, Text::Kept | Text::Str(None) | Text::Percent(None)) => continue,
                (Some(i), Text::Str(None) | Text::Percent(None)) => {
                    // Members before `at` are placed, so this one is after them.
                    o.shift_remove(k);
                    places[m] = None;
                    shift_places(&mut places, i + 1.., |p| p - 1);
                    continue;
                }
                (None, t) => {
                    o.shift_insert(at, k.into(), Value::String(t.to_text()));
                    shift_places(&mut places, at.., |p| p + 1);
                    places[m] = Some(at);
                }
                (Some(i), t) => {
                    if let Some(v) = o.values_mut().nth(i) {
                        t.write_into(v);
                    }
                    if i != at
                        && let Some(v) = o.values_mut().nth(i).map(std::mem::take)
                    {
                        // `shift_insert` of a present key moves it there.
                        o.shift_insert(at, k.into(), v);
                        shift_places(&mut places, at..i, |p| p + 1);
                        places[m] = Some(at);
                    }
                }
            }
            at += 1;
        }
    }

    /// Resolve key, percent and surcharge from the regime (of the combo's own country when
    /// that differs from `regime`) on `date` (`YYYYMMDD`).
    pub fn calculate(
        &mut self,
        regime: Option<&'static RegimeDef>,
        date: u32,
        path: impl Display,
    ) -> Result<(), CalcError> {
        let mut r = regime;
        if let (Some(c), Some(rg)) = (&self.country, regime)
            && (c == rg.country)
        {
            self.country = None;
        }
        if let Some(c) = &self.country {
            r = regimes::get(c);
        }
        let cd = match r {
            Some(r) => r.category(&self.cat).ok_or_else(|| {
                CalcError::new(
                    format!("{path}.cat"),
                    format!("'{}' not defined in regime", self.cat),
                )
            })?,
            // No regime: GOBL's global categories (VAT, GST) still give keys.
            None => match crate::tax::global::category(&self.cat) {
                Some(cd) => cd,
                None => return Ok(()),
            },
        };
        self.retained = cd.retained;
        self.informative = cd.informative;
        if !cd.keys.is_empty() && self.key.is_none() {
            self.key = Some(Cow::Borrowed("standard"));
        }
        // Borrowed, not cloned: only `percent` and `surcharge` change from here on.
        let key = self.key.as_deref().unwrap_or_default();
        if cd.key(key).is_some_and(|k| k.no_percent) {
            self.percent = None;
            self.surcharge = None;
            return Ok(());
        }
        let Some(rate) = self.rate.as_deref() else {
            return Ok(());
        };
        let Some(rd) = cd.rate(key, rate) else {
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
        let ext = &self.ext;
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

/// The shared copy of the `ext` map `m` in `exts`, added when there is none.
fn shared_ext(m: &Obj, exts: &mut Vec<Rc<Value>>) -> Rc<Value> {
    let same = |e: &&Rc<Value>| e.as_object().is_some_and(|x| same_members(x, m));
    if let Some(e) = exts.iter().find(same) {
        return Rc::clone(e);
    }
    let e = Rc::new(Value::Object(m.clone()));
    exts.push(Rc::clone(&e));
    e
}

/// `text` as the regime's own text when `defined` holds it (no copy to allocate), else a
/// copy.
fn known(text: &str, mut defined: impl Iterator<Item = &'static str>) -> Cow<'static, str> {
    match defined.find(|d| *d == text) {
        Some(d) => Cow::Borrowed(d),
        None => Cow::Owned(text.to_string()),
    }
}

/// Set (`Some`) or remove (`None`) member `k`.
fn set_member(o: &mut Obj, k: &str, v: Option<Value>) {
    match v {
        Some(v) => {
            o.insert(k.into(), v);
        }
        None => {
            o.remove(k);
        }
    }
}

/// What a combo member is written as: kept as it is, or a text (`None`: removed).
#[derive(Clone, Copy)]
enum Text<'a> {
    Kept,
    Str(Option<&'a str>),
    Percent(Option<Percentage>),
}

impl Text<'_> {
    /// Set `v` to this text, unless it holds that text already (no allocation then).
    fn write_into(self, v: &mut Value) {
        let same = match (self, &*v) {
            (Text::Kept, _) => true,
            (Text::Str(Some(t)), Value::String(s)) => s == t,
            (Text::Percent(Some(p)), Value::String(s)) => p.text().is_some_and(|t| t.is(s)),
            _ => false,
        };
        if !same {
            *v = Value::String(self.to_text());
        }
    }

    /// The text as a document's string (empty for `Kept` and `None`).
    fn to_text(self) -> json::Text {
        match self {
            Text::Str(Some(t)) => t.into(),
            Text::Percent(Some(p)) => p.to_text(),
            _ => json::Text::default(),
        }
    }
}

/// Where each member of [`MEMBER_ORDER`] is in a combo's map, if it has it.
type Places = [Option<usize>; MEMBER_ORDER.len()];

/// The places of a combo's members, if it has only members of [`MEMBER_ORDER`]: each key
/// is looked at once, and the places are then kept through the edits.
fn member_places(o: &Obj) -> Option<Places> {
    let mut places = [None; MEMBER_ORDER.len()];
    for (i, k) in o.keys().enumerate() {
        places[member_index(k)?] = Some(i);
    }
    Some(places)
}

/// Apply `f` to the places that are in `range` (after a member was inserted or removed).
fn shift_places(
    places: &mut Places,
    range: impl std::ops::RangeBounds<usize>,
    f: impl Fn(usize) -> usize,
) {
    for p in places.iter_mut().flatten() {
        if range.contains(p) {
            *p = f(*p);
        }
    }
}

/// The index of `k` in [`MEMBER_ORDER`] (a match, which compares the few lengths and bytes
/// directly).
fn member_index(k: &str) -> Option<usize> {
    Some(match k {
        "cat" => 0,
        "country" => 1,
        "key" => 2,
        "rate" => 3,
        "percent" => 4,
        "surcharge" => 5,
        "ext" => 6,
        _ => return None,
    })
}

/// The order of a written combo's members.
const MEMBER_ORDER: [&str; 7] = [
    "cat",
    "country",
    "key",
    "rate",
    "percent",
    "surcharge",
    "ext",
];

fn fmt_date(d: u32) -> String {
    format!("{:04}-{:02}-{:02}", d / 10000, d / 100 % 100, d % 100)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    /// `write` as first written, on the map itself: the order `write` must keep.
    fn write_on_map(c: &Combo, o: &mut Obj) {
        let mut put = |k: &str, v: Option<Value>| match v {
            Some(v) => {
                o.insert(k.into(), v);
            }
            None => {
                o.remove(k);
            }
        };
        put(
            "country",
            c.country.clone().map(|s| Value::String(s.into())),
        );
        put("key", c.key.as_deref().map(Value::from));
        put("rate", c.rate.as_deref().map(Value::from));
        put(
            "percent",
            c.percent.map(|p| Value::String(p.to_string().into())),
        );
        put(
            "surcharge",
            c.surcharge.map(|p| Value::String(p.to_string().into())),
        );
        let mut sorted = Obj::new();
        for k in MEMBER_ORDER {
            if let Some(v) = o.remove(k) {
                sorted.insert(k.into(), v);
            }
        }
        sorted.append(o);
        *o = sorted;
    }

    #[test]
    fn member_index_is_the_place_in_the_order() {
        for (i, k) in MEMBER_ORDER.into_iter().enumerate() {
            assert_eq!(member_index(k), Some(i));
        }
        assert_eq!(member_index("tags"), None);
    }

    #[test]
    fn write_orders_members_as_the_map_edits_did() {
        let inputs = [
            json!({"cat": "VAT", "rate": "general"}),
            json!({"x": 1, "cat": "VAT", "y": 2, "country": "FR", "z": 3, "rate": "general", "w": 4}),
            json!({"a": 1, "percent": "21%", "b": 2, "cat": "VAT", "c": 3, "key": "zero", "d": 4}),
            json!({"ext": {"k": "v"}, "surcharge": "1%", "m": 0, "cat": "IRPF", "n": [1]}),
            json!({"rate": "general", "cat": "VAT"}),
            json!({"percent": "21%", "ext": {"k": "v"}, "key": "zero", "cat": "VAT"}),
            json!({"surcharge": "1%", "country": "FR", "rate": "reduced", "cat": "VAT"}),
        ];
        let combos = [
            (None, Some("standard"), Some("general"), Some("21%"), None),
            (Some("FR"), None, None, None, Some("5.2%")),
            (None, None, None, None, None),
        ];
        for input in &inputs {
            for (country, key, rate, percent, surcharge) in combos {
                let o = input.as_object().unwrap();
                let mut c = Combo::read(o, regimes::get("ES"), "doc").unwrap();
                c.country = country.map(str::to_string);
                c.key = key.map(|k| Cow::Owned(k.to_string()));
                c.rate = rate.map(|r| Cow::Owned(r.to_string()));
                c.percent = percent.map(|p| Percentage::parse(p).unwrap());
                c.surcharge = surcharge.map(|p| Percentage::parse(p).unwrap());
                let (mut got, mut want) = (o.clone(), o.clone());
                c.write(&mut got);
                write_on_map(&c, &mut want);
                let keys = |m: &Obj| m.keys().cloned().collect::<Vec<_>>();
                assert_eq!(keys(&got), keys(&want), "{input}");
                assert_eq!(got, want);
            }
        }
    }
}
