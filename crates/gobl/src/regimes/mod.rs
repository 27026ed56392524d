//! Tax regimes folio knows, one file each: the facts of the GOBL regime definitions as a
//! static table ([`RegimeDef`]) plus the regime's own code in its [`Hooks`](crate::tax::defs::Hooks)
//! (tax-id check digits, normalisation, validation). A new regime is one new file here and
//! one line in [`ALL`]; `tools/gen_defs.py regime <cc>` writes its table from the reference's
//! facts.

use crate::json::same_text;
use crate::tax::RegimeDef;

pub mod ae;
pub mod ar;
pub mod at;
pub mod be;
pub mod br;
pub mod ca;
pub mod ch;
pub mod co;
pub mod de;
pub mod dk;
pub mod el;
pub mod es;
pub mod fi;
pub mod fr;
pub mod gb;
mod identities;
pub mod ie;
pub mod r#in;
pub mod it;
pub mod mx;
pub mod nl;
pub mod no;
pub mod pl;
pub mod pt;
pub mod sa;
pub mod se;
pub mod sg;
pub mod taxid;
#[cfg(test)]
mod testutil;
pub mod us;

/// Every regime, in alphabetical order of country code.
pub static ALL: &[&RegimeDef] = &[
    &ae::REGIME,
    &ar::REGIME,
    &at::REGIME,
    &be::REGIME,
    &br::REGIME,
    &ca::REGIME,
    &ch::REGIME,
    &co::REGIME,
    &de::REGIME,
    &dk::REGIME,
    &el::REGIME,
    &es::REGIME,
    &fi::REGIME,
    &fr::REGIME,
    &gb::REGIME,
    &ie::REGIME,
    &r#in::REGIME,
    &it::REGIME,
    &mx::REGIME,
    &nl::REGIME,
    &no::REGIME,
    &pl::REGIME,
    &pt::REGIME,
    &sa::REGIME,
    &se::REGIME,
    &sg::REGIME,
    &us::REGIME,
];

/// The regime for a country code (or one of its alternative codes), e.g. `"ES"` or `"XI"`.
pub fn get(country: &str) -> Option<&'static RegimeDef> {
    ALL.iter().copied().find(|r| {
        same_text(r.country, country) || r.alt_countries.iter().any(|c| same_text(c, country))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::defs::date_num;

    fn pct(cc: &str, cat: &str, key: &str, rate: &str, date: &str) -> String {
        let r = get(cc).unwrap();
        let d = date_num(date).unwrap();
        r.category(cat)
            .unwrap()
            .rate(key, rate)
            .unwrap()
            .value_on(d, |_| None)
            .unwrap()
            .percent()
            .to_string()
    }

    #[test]
    fn rate_selection_by_date() {
        assert_eq!(
            pct("ES", "VAT", "standard", "general", "2022-02-01"),
            "21.0%"
        );
        assert_eq!(
            pct("ES", "VAT", "standard", "general", "2012-09-01"),
            "21.0%"
        );
        assert_eq!(
            pct("ES", "VAT", "standard", "general", "2012-08-31"),
            "18.0%"
        );
        assert_eq!(
            pct("ES", "VAT", "standard", "reduced", "2011-01-01"),
            "8.0%"
        );
        assert_eq!(pct("DE", "VAT", "standard", "general", "2020-08-01"), "16%");
        assert_eq!(pct("DE", "VAT", "standard", "general", "2021-01-01"), "19%");
        assert_eq!(pct("DE", "VAT", "standard", "reduced", "2020-12-31"), "5%");
        assert_eq!(
            pct("FR", "VAT", "standard", "reduced", "2024-01-01"),
            "5.5%"
        );
        assert_eq!(
            pct("IT", "VAT", "standard", "general", "2024-01-01"),
            "22.0%"
        );
        assert_eq!(
            pct("NL", "VAT", "standard", "reduced", "2024-01-01"),
            "9.0%"
        );
        assert_eq!(
            pct("GB", "VAT", "standard", "general", "2024-01-01"),
            "20.0%"
        );
        assert_eq!(
            pct("PT", "VAT", "standard", "general", "2024-01-01"),
            "23.0%"
        );
        assert_eq!(pct("ES", "IRPF", "", "pro", "2015-03-01"), "19.0%");
        assert_eq!(pct("ES", "IRPF", "", "pro", "2022-03-01"), "15.0%");
        // Before the first value there is none.
        let es = get("ES").unwrap();
        let r = es
            .category("VAT")
            .unwrap()
            .rate("standard", "general")
            .unwrap();
        assert!(r.value_on(19920101, |_| None).is_none());
        // Surcharge and the +eqs fallback.
        let v = es
            .category("VAT")
            .unwrap()
            .rate("standard", "general+eqs")
            .unwrap();
        assert_eq!(
            v.value_on(20220101, |_| None)
                .unwrap()
                .surcharge()
                .unwrap()
                .to_string(),
            "5.2%"
        );
        assert_eq!(get("XI").unwrap().country, "GB");
    }

    #[test]
    fn portuguese_regions_by_extension() {
        let pt = get("PT").unwrap();
        let r = pt
            .category("VAT")
            .unwrap()
            .rate("standard", "general")
            .unwrap();
        let az = r
            .value_on(20240101, |k| (k == "pt-region").then_some("PT-AC"))
            .unwrap();
        assert_eq!(az.percent().to_string(), "16.0%");
        let ma = r
            .value_on(20240101, |k| (k == "pt-region").then_some("PT-MA"))
            .unwrap();
        assert_eq!(ma.percent().to_string(), "22.0%");
        let red = pt
            .category("VAT")
            .unwrap()
            .rate("standard", "reduced")
            .unwrap();
        assert_eq!(
            red.value_on(20250101, |k| (k == "pt-region").then_some("PT-MA"))
                .unwrap()
                .percent()
                .to_string(),
            "4.0%"
        );
        assert_eq!(
            red.value_on(20230101, |k| (k == "pt-region").then_some("PT-MA"))
                .unwrap()
                .percent()
                .to_string(),
            "5.0%"
        );
    }
}
