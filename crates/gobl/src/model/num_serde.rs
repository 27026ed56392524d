//! Reading [`Amount`] and [`Percentage`] from JSON: GOBL writes them as strings
//! (`"90.00"`, `"22.0%"`), and some inputs as bare numbers (`20`); both keep their exact
//! decimals.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

use crate::num::{Amount, Percentage};

/// Accepts a string or a JSON number and parses it with `parse`.
struct NumVisitor<T>(fn(&str) -> Result<T, crate::num::NumError>, &'static str);

impl<T> Visitor<'_> for NumVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.1)
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<T, E> {
        (self.0)(s).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        self.visit_str(&v.to_string())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        self.visit_str(&v.to_string())
    }

    // A float has lost its decimals already; its shortest text is the best there is.
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        self.visit_str(&v.to_string())
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumVisitor(Amount::parse, "an amount"))
    }
}

impl<'de> Deserialize<'de> for Percentage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumVisitor(Percentage::parse, "a percentage"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_and_numbers_keep_their_decimals() {
        let a = Amount::deserialize(&json!("90.00")).unwrap();
        assert_eq!(a, Amount::new(9000, 2));
        assert_eq!(Amount::deserialize(&json!(20)).unwrap(), Amount::new(20, 0));
        let p = Percentage::deserialize(&json!("22.0%")).unwrap();
        assert_eq!(p.to_string(), "22.0%");
        assert!(Amount::deserialize(&json!("x")).is_err());
        assert!(Amount::deserialize(&json!(true)).is_err());
    }
}
