//! The verification URL printed as a QR code on a VERI*FACTU invoice: AEAT's `ValidarQR`
//! service with the issuer's NIF, the invoice number, its issue date and its total, each
//! percent-encoded (AEAT's QR specification; `&` in a number becomes `%26`).

/// Which AEAT service the URL points to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Environment {
    /// The pre-production (test) host.
    #[default]
    Test,
    /// The production host.
    Production,
}

const TEST_URL: &str = "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR";
const PRODUCTION_URL: &str = "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR";

/// What the URL names: the record's `IDFactura` and `ImporteTotal`, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrData {
    /// `IDEmisorFactura`.
    pub nif: String,
    /// `NumSerieFactura`.
    pub number: String,
    /// `FechaExpedicionFactura` (`dd-mm-yyyy`).
    pub issue_date: String,
    /// `ImporteTotal` (`123.45`).
    pub total: String,
}

/// The `ValidarQR` URL for an invoice.
pub fn url(data: &QrData, env: Environment) -> String {
    let base = match env {
        Environment::Test => TEST_URL,
        Environment::Production => PRODUCTION_URL,
    };
    format!(
        "{base}?nif={}&numserie={}&fecha={}&importe={}",
        encode(&data.nif),
        encode(&data.number),
        encode(&data.issue_date),
        encode(&data.total)
    )
}

/// Percent-encoding of a query value: everything but RFC 3986's unreserved characters.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(nif: &str, number: &str, total: &str) -> QrData {
        QrData {
            nif: nif.into(),
            number: number.into(),
            issue_date: "01-09-2024".into(),
            total: total.into(),
        }
    }

    #[test]
    fn aeat_example_on_both_hosts() {
        let d = data("89890001K", "12345678&G33", "241.40");
        assert_eq!(
            url(&d, Environment::Test),
            "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-09-2024&importe=241.40"
        );
        assert_eq!(
            url(&d, Environment::Production),
            "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-09-2024&importe=241.40"
        );
    }

    #[test]
    fn special_characters_are_encoded() {
        let d = data("A12 345&67", "SERIE/2023 ñ", "-1234.56");
        let u = url(&d, Environment::Test);
        assert!(u.ends_with(
            "?nif=A12%20345%2667&numserie=SERIE%2F2023%20%C3%B1&fecha=01-09-2024&importe=-1234.56"
        ));
    }
}
