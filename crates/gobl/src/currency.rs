//! Currencies and their subunits (facts from the GOBL currency data), and exchange rates.

use crate::num::{Amount, NumError};

/// Currency codes grouped by their number of subunit decimals.
const SUBUNITS: &[(u32, &str)] = &[
    (
        0,
        "BIF BYR CLP DJF GNF HUF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XAG XAU XBA XBB XBC XBD XDR XOF XPD XPF XPT XTS",
    ),
    (1, "GBX"),
    (
        2,
        "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CNY COP CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MKD MMK MNT MOP MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SKK SLE SLL SOS SRD SSP STD STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VES WST XCD YER ZAR ZMK ZMW JEP GGP IMP XFU CNH USDC",
    ),
    (3, "BHD IQD JOD KWD LYD OMR TND"),
    (4, "CLF"),
    (5, "MGA MRU"),
    (8, "BCH BTC"),
];

/// The number of decimals of a currency (`EUR` → 2, `JPY` → 0), or `None` if unknown.
pub fn subunits(code: &str) -> Option<u32> {
    let codes = CODES.get_or_init(|| {
        let mut codes: Vec<(u64, u32)> = SUBUNITS
            .iter()
            .flat_map(|(s, list)| {
                list.split(' ')
                    .filter_map(move |c| Some((code_key(c)?, *s)))
            })
            .collect();
        codes.sort_unstable();
        codes
    });
    let key = code_key(code)?;
    let at = codes.binary_search_by(|(c, _)| c.cmp(&key)).ok()?;
    Some(codes[at].1)
}

/// A code of up to seven bytes as one number, its bytes and its length (so `"USD\0"` is not
/// `"USD"`): the search compares numbers, where texts would be compared by a call each.
fn code_key(code: &str) -> Option<u64> {
    let n = code.len();
    if n > 7 {
        return None;
    }
    let mut bytes = [0u8; 8];
    bytes[..n].copy_from_slice(code.as_bytes());
    bytes[7] = n as u8;
    Some(u64::from_be_bytes(bytes))
}

/// [`SUBUNITS`] as one list sorted by code, made on first use: a build looks its currency up
/// several times, and a search through the lists' text cost more than the rest of a line.
static CODES: std::sync::OnceLock<Vec<(u64, u32)>> = std::sync::OnceLock::new();

/// Whether the currency code is known.
pub fn is_known(code: &str) -> bool {
    subunits(code).is_some()
}

/// An exchange rate: one unit of `from` is `amount` units of `to`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExchangeRate {
    /// Source currency.
    pub from: String,
    /// Target currency.
    pub to: String,
    /// Value of one unit of `from` in `to`.
    pub amount: Amount,
}

/// Convert `value` from `from` to `to` with the first direct rate, the result rounded to
/// `to`'s subunits. `None` when no rate applies.
pub fn convert(
    rates: &[ExchangeRate],
    from: &str,
    to: &str,
    value: Amount,
) -> Option<Result<Amount, NumError>> {
    if from == to {
        return Some(Ok(value));
    }
    let rate = rates.iter().find(|r| r.from == from && r.to == to)?;
    let exp = subunits(to).unwrap_or(2);
    Some(value.mul(rate.amount).and_then(|a| a.rescale(exp)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subunits_from_table() {
        assert_eq!(subunits("EUR"), Some(2));
        assert_eq!(subunits("USD"), Some(2));
        assert_eq!(subunits("GBP"), Some(2));
        assert_eq!(subunits("JPY"), Some(0));
        assert_eq!(subunits("BHD"), Some(3));
        assert_eq!(subunits("CLF"), Some(4));
        assert_eq!(subunits("BTC"), Some(8));
        assert_eq!(subunits("XXX"), None);
        assert_eq!(subunits("EU"), None);
        assert_eq!(subunits("EUR USD"), None);
        // every code is in one list only, so the sorted lookup answers as the lists do
        let mut all: Vec<&str> = SUBUNITS.iter().flat_map(|(_, l)| l.split(' ')).collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert_eq!(subunits("USDC"), Some(2));
        assert_eq!(subunits("USDX"), None);
        assert_eq!(subunits("XPT"), Some(0));
        assert_eq!(subunits("MRU"), Some(5));
        assert_eq!(subunits("EU"), None);
        assert_eq!(subunits("USD\0"), None);
        assert_eq!(subunits("EUR\0\0\0\0\0"), None);
        assert_eq!(subunits(""), None);
        // every listed code is found with its own decimals
        for (decimals, list) in SUBUNITS {
            for code in list.split(' ') {
                assert_eq!(subunits(code), Some(*decimals), "{code}");
            }
        }
    }

    #[test]
    fn convert_direct_and_inverse() {
        let rates = vec![ExchangeRate {
            from: "MXN".into(),
            to: "USD".into(),
            amount: Amount::parse("0.059197").unwrap(),
        }];
        let v = convert(&rates, "MXN", "USD", Amount::parse("1500.00").unwrap())
            .unwrap()
            .unwrap();
        assert_eq!(v.to_string(), "88.80");
        assert!(convert(&rates, "USD", "MXN", Amount::parse("88.80").unwrap()).is_none());
        let v = convert(&rates, "MXN", "USD", Amount::parse("1500.0").unwrap())
            .unwrap()
            .unwrap();
        assert_eq!(v.to_string(), "88.80");
        assert!(convert(&rates, "EUR", "USD", Amount::parse("1").unwrap()).is_none());
    }
}
