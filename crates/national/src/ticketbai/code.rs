//! What is printed on a TicketBAI invoice: the TBAI identifier
//! `TBAI-<NIF>-<ddmmyy>-<first 13 characters of the SignatureValue>-<CRC-8>` and the
//! province's QR URL (`id`, `s` when there is a series, `nf`, `i`, each URL-encoded, then
//! `cr`, the CRC-8 of the URL before it). The CRC-8 is the one the TicketBAI specification
//! defines: polynomial 0x07, initial value 0, no reflection, no final XOR, written as three
//! decimal digits.

use super::{Error, Region};

/// The CRC-8 of the bytes.
pub fn crc8(bytes: &[u8]) -> u8 {
    let mut crc = 0u8;
    for b in bytes {
        crc ^= b;
        for _ in 0..8 {
            crc = if crc & 0x80 != 0 {
                (crc << 1) ^ 0x07
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// The TBAI identifier of a file issued by `nif` on `issue_date` (`dd-mm-yyyy`), whose
/// signature value is `signature_value`.
pub fn tbai_id(nif: &str, issue_date: &str, signature_value: &str) -> Result<String, Error> {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let date = match issue_date.split('-').collect::<Vec<_>>()[..] {
        [d, m, y] if digits(d, 2) && digits(m, 2) && digits(y, 4) => format!("{d}{m}{}", &y[2..]),
        _ => {
            return Err(Error::Unsupported(format!(
                "issue date '{issue_date}' (dd-mm-yyyy)"
            )));
        }
    };
    let start: String = signature_value.chars().take(13).collect();
    if start.chars().count() < 13 {
        return Err(Error::Signature(
            "the signature value is shorter than 13 characters".into(),
        ));
    }
    let head = format!("TBAI-{nif}-{date}-{start}-");
    Ok(format!("{head}{:03}", crc8(head.as_bytes())))
}

/// The province's QR URL of an invoice.
pub fn qr_url(region: Region, tbai_id: &str, series: &str, number: &str, total: &str) -> String {
    let mut url = format!("{}?id={}", qr_base(region), query_escape(tbai_id));
    if !series.is_empty() {
        url.push_str(&format!("&s={}", query_escape(series)));
    }
    url.push_str(&format!(
        "&nf={}&i={}",
        query_escape(number),
        query_escape(total)
    ));
    let cr = crc8(url.as_bytes());
    format!("{url}&cr={cr:03}")
}

/// Where each province checks a printed invoice.
fn qr_base(region: Region) -> &'static str {
    match region {
        Region::Araba => "https://ticketbai.araba.eus/tbai/qrtbai/",
        Region::Bizkaia => "https://batuz.eus/QRTBAI/",
        Region::Gipuzkoa => "https://tbai.egoitza.gipuzkoa.eus/qr/",
    }
}

/// Form encoding of a query value, as the reference writes it: RFC 3986's unreserved
/// characters stay, a space becomes `+`, every other byte `%XX`.
fn query_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc8_check_value() {
        // CRC-8 (poly 0x07, init 0): the catalogue's check value over "123456789".
        assert_eq!(crc8(b"123456789"), 0xF4);
        assert_eq!(crc8(b""), 0);
    }

    /// invopop/gobl.ticketbai's QR tests (facts: inputs and expected codes): a Bizkaia
    /// invoice TEST-001 of S7836107H issued on 02-02-2022, 1089.00 in total, whose
    /// signature value starts `f5Rn+qgOvh9Kr`.
    #[test]
    fn reference_identifier_and_qr_codes_recompute() {
        let id = tbai_id("S7836107H", "02-02-2022", "f5Rn+qgOvh9Kr5WfZ...").unwrap();
        assert_eq!(id, "TBAI-S7836107H-020222-f5Rn+qgOvh9Kr-238");
        assert_eq!(id.len(), 39);
        let url = qr_url(Region::Bizkaia, &id, "TEST", "001", "1089.00");
        assert_eq!(
            url,
            "https://batuz.eus/QRTBAI/?id=TBAI-S7836107H-020222-f5Rn%2BqgOvh9Kr-238&s=TEST&nf=001&i=1089.00&cr=174"
        );
        let no_series = qr_url(Region::Bizkaia, &id, "", "001", "1089.00");
        assert!(
            no_series.ends_with("&nf=001&i=1089.00&cr=133"),
            "{no_series}"
        );
        assert!(!no_series.contains("&s="));
    }

    #[test]
    fn each_province_has_its_host_and_values_are_encoded() {
        let id = "TBAI-B98602642-210524-ABCDEFGHIJKLM-000";
        let gi = qr_url(Region::Gipuzkoa, id, "A B", "1/2&3", "-10.50");
        assert!(gi.starts_with("https://tbai.egoitza.gipuzkoa.eus/qr/?id="));
        assert!(gi.contains("&s=A+B&nf=1%2F2%263&i=-10.50&cr="));
        let cr: u8 = gi.rsplit("&cr=").next().unwrap().parse().unwrap();
        assert_eq!(cr, crc8(gi.rsplit_once("&cr=").unwrap().0.as_bytes()));
        let vi = qr_url(Region::Araba, id, "", "1", "1.00");
        assert!(vi.starts_with("https://ticketbai.araba.eus/tbai/qrtbai/?id="));
    }

    #[test]
    fn short_signatures_and_bad_dates_are_refused() {
        assert!(matches!(
            tbai_id("S7836107H", "02-02-2022", "short"),
            Err(Error::Signature(_))
        ));
        assert!(matches!(
            tbai_id("S7836107H", "2022-02-02", "f5Rn+qgOvh9Kr"),
            Err(Error::Unsupported(_))
        ));
    }
}
