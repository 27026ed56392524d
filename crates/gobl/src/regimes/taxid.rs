//! Tax identity code checks for folio's regimes (codes already normalised: upper-case,
//! no symbols, no country prefix).

/// Check a normalised tax code for `country`. Unknown countries are accepted.
pub fn check(country: &str, code: &str) -> Result<(), String> {
    if code.is_empty() {
        return Ok(());
    }
    let Some(regime) = super::get(country).and_then(|r| r.hooks.tax_id) else {
        return Ok(());
    };
    // Every known format is [A-Z0-9] (Mexico's RFC also takes Ñ and &); the integer parsing
    // below would also take a sign.
    let rfc = country == "MX";
    if !code
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || (rfc && matches!(c, 'Ñ' | '&')))
    {
        return bad("format");
    }
    regime(code)
}

pub(crate) fn digits(s: &str) -> Option<Vec<u32>> {
    s.chars().map(|c| c.to_digit(10)).collect()
}

pub(crate) fn bad(what: &str) -> Result<(), String> {
    Err(format!("invalid {what}"))
}

const NIF_LETTERS: &[u8; 23] = b"TRWAGMYFPDXBNJZSQVHLCKE";

/// Spain: NIF (DNI), NIE and CIF.
pub(crate) fn es(code: &str) -> Result<(), String> {
    if code.len() != 9 || !code.is_ascii() {
        return bad("format");
    }
    let b = code.as_bytes();
    let first = b[0];
    let last = b[8];
    let mid = &code[1..8];
    if first.is_ascii_digit() || matches!(first, b'X' | b'Y' | b'Z' | b'K' | b'L' | b'M') {
        // NIF / NIE: a number and a control letter.
        let num = match first {
            b'X' => format!("0{mid}"),
            b'Y' => format!("1{mid}"),
            b'Z' => format!("2{mid}"),
            b'K' | b'L' | b'M' => mid.to_string(),
            _ => code[..8].to_string(),
        };
        let n: u64 = num.parse().map_err(|_| "invalid format".to_string())?;
        return if NIF_LETTERS[(n % 23) as usize] == last {
            Ok(())
        } else {
            bad("check letter")
        };
    }
    // CIF: an organisation letter, seven digits and a control digit or letter.
    if !b"ABCDEFGHJNPQRSUVW".contains(&first) {
        return bad("format");
    }
    let d = digits(mid).ok_or("invalid format")?;
    let mut sum = 0;
    for (i, x) in d.iter().enumerate() {
        if i % 2 == 0 {
            let y = x * 2;
            sum += y / 10 + y % 10;
        } else {
            sum += x;
        }
    }
    let control = (10 - sum % 10) % 10;
    let as_digit = char::from_digit(control, 10).unwrap_or('0') as u8;
    let as_letter = b"JABCDEFGHI"[control as usize];
    let ok = match first {
        b'P' | b'Q' | b'R' | b'S' | b'W' | b'N' => last == as_letter,
        b'A' | b'B' | b'E' | b'H' => last == as_digit,
        _ => last == as_digit || last == as_letter,
    };
    if ok { Ok(()) } else { bad("check digit") }
}

/// Germany: USt-IdNr, nine digits with an ISO 7064 MOD 11,10 check digit.
pub(crate) fn de(code: &str) -> Result<(), String> {
    let d = digits(code)
        .filter(|d| d.len() == 9 && d[0] != 0)
        .ok_or("invalid format")?;
    let mut product = 10;
    for x in &d[..8] {
        let mut sum = (x + product) % 10;
        if sum == 0 {
            sum = 10;
        }
        product = (2 * sum) % 11;
    }
    let mut check = 11 - product;
    if check == 10 {
        check = 0;
    }
    if check == d[8] {
        Ok(())
    } else {
        bad("check digit")
    }
}

pub(crate) fn luhn(d: &[u32]) -> bool {
    let mut sum = 0;
    for (i, x) in d.iter().rev().enumerate() {
        if i % 2 == 1 {
            let y = x * 2;
            sum += if y > 9 { y - 9 } else { y };
        } else {
            sum += x;
        }
    }
    sum % 10 == 0
}

/// France: a bare nine-digit SIREN that passes Luhn becomes the VAT code by prefixing its
/// two check digits, `(SIREN × 100 + 12) mod 97`; anything else is returned as it is.
pub fn fr_siren_to_vat(code: &str) -> Option<String> {
    if code.len() != 9 {
        return None;
    }
    let d = digits(code)?;
    if !luhn(&d) {
        return None;
    }
    let n: u64 = code.parse().ok()?;
    Some(format!("{:02}{code}", (n * 100 + 12) % 97))
}

/// France: TVA intracommunautaire, a two-character key and a nine-digit SIREN.
pub(crate) fn fr(code: &str) -> Result<(), String> {
    if code.len() != 11 || !code.is_ascii() {
        return bad("format");
    }
    let siren = digits(&code[2..]).ok_or("invalid format")?;
    let key = &code[..2];
    match key.parse::<u64>() {
        Ok(k) => {
            let n: u64 = code[2..]
                .parse()
                .map_err(|_| "invalid format".to_string())?;
            if (12 + 3 * (n % 97)) % 97 == k {
                Ok(())
            } else {
                bad("check digits")
            }
        }
        // Alphanumeric keys (new-style numbers) carry no arithmetic check; the SIREN must
        // still pass Luhn.
        Err(_) if key.chars().all(|c| c.is_ascii_alphanumeric()) => {
            if luhn(&siren) {
                Ok(())
            } else {
                bad("SIREN")
            }
        }
        Err(_) => bad("format"),
    }
}

/// Italy: partita IVA (11 digits) or codice fiscale (16 characters).
pub(crate) fn it(code: &str) -> Result<(), String> {
    if code.len() == 11 {
        let d = digits(code).ok_or("invalid format")?;
        return if luhn(&d) { Ok(()) } else { bad("check digit") };
    }
    if code.len() == 16 {
        return it_fiscal_code(code);
    }
    bad("format")
}

/// Italian codice fiscale check character.
pub fn it_fiscal_code(code: &str) -> Result<(), String> {
    const ODD: [u32; 36] = [
        1, 0, 5, 7, 9, 13, 15, 17, 19, 21, // 0-9
        1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24,
        23, // A-Z
    ];
    let b = code.as_bytes();
    if b.len() != 16
        || !b
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    {
        return bad("format");
    }
    let val = |c: u8| -> usize {
        if c.is_ascii_digit() {
            (c - b'0') as usize
        } else {
            (c - b'A') as usize + 10
        }
    };
    let mut sum = 0;
    for (i, &c) in b[..15].iter().enumerate() {
        if i % 2 == 0 {
            sum += ODD[val(c)];
        } else {
            // Even positions: digits count as their value, letters as A=0..Z=25.
            sum += if c.is_ascii_digit() {
                u32::from(c - b'0')
            } else {
                u32::from(c - b'A')
            };
        }
    }
    if b[15] == b'A' + (sum % 26) as u8 {
        Ok(())
    } else {
        bad("check character")
    }
}

/// Portugal: NIF, nine digits with a mod-11 check digit.
pub(crate) fn pt(code: &str) -> Result<(), String> {
    let d = digits(code)
        .filter(|d| d.len() == 9)
        .ok_or("invalid format")?;
    let sum: u32 = d[..8]
        .iter()
        .enumerate()
        .map(|(i, x)| x * (9 - i as u32))
        .sum();
    let mut check = 11 - sum % 11;
    if check >= 10 {
        check = 0;
    }
    if check == d[8] {
        Ok(())
    } else {
        bad("check digit")
    }
}

/// Netherlands: BTW-id `123456789B01`, elfproef or the mod-97 check.
pub(crate) fn nl(code: &str) -> Result<(), String> {
    if code.len() != 12 || code.as_bytes()[9] != b'B' {
        return bad("format");
    }
    let d = digits(&code[..9]).ok_or("invalid format")?;
    digits(&code[10..]).ok_or("invalid format")?;
    let sum: u32 = d[..8]
        .iter()
        .enumerate()
        .map(|(i, x)| x * (9 - i as u32))
        .sum();
    if sum % 11 == d[8] {
        return Ok(());
    }
    // Mod 97 over "NL" + code with letters as numbers (A=10 … Z=35).
    let mut rem: u64 = 0;
    for c in format!("NL{code}").chars() {
        let v = c.to_digit(36).unwrap_or(0) as u64;
        rem = if v >= 10 {
            (rem * 100 + v) % 97
        } else {
            (rem * 10 + v) % 97
        };
    }
    if rem == 1 {
        Ok(())
    } else {
        bad("check digits")
    }
}

/// United Kingdom: VAT registration number, mod 97 (or 9755), plus GD/HA numbers.
pub(crate) fn gb(code: &str) -> Result<(), String> {
    if let Some(n) = code.strip_prefix("GD") {
        let v: u32 = n.parse().map_err(|_| "invalid format".to_string())?;
        return if n.len() == 3 && v < 500 {
            Ok(())
        } else {
            bad("format")
        };
    }
    if let Some(n) = code.strip_prefix("HA") {
        let v: u32 = n.parse().map_err(|_| "invalid format".to_string())?;
        return if n.len() == 3 && v >= 500 {
            Ok(())
        } else {
            bad("format")
        };
    }
    let d = digits(code)
        .filter(|d| d.len() == 9 || d.len() == 12)
        .ok_or("invalid format")?;
    let sum: u32 = d[..7]
        .iter()
        .enumerate()
        .map(|(i, x)| x * (8 - i as u32))
        .sum();
    let check = d[7] * 10 + d[8];
    let total = sum + check;
    if total.is_multiple_of(97) || (total + 55).is_multiple_of(97) {
        Ok(())
    } else {
        bad("check digits")
    }
}

/// United States: EIN, nine digits (`XX-XXXXXXX` before normalisation).
pub(crate) fn us(code: &str) -> Result<(), String> {
    if digits(code).is_some_and(|d| d.len() == 9) {
        Ok(())
    } else {
        bad("format")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(cc: &str, codes: &[&str]) {
        for c in codes {
            assert!(
                check(cc, c).is_ok(),
                "{cc} {c} should be valid: {:?}",
                check(cc, c)
            );
        }
    }
    fn ko(cc: &str, codes: &[&str]) {
        for c in codes {
            assert!(check(cc, c).is_err(), "{cc} {c} should be invalid");
        }
    }

    #[test]
    fn spain() {
        ok(
            "ES",
            &[
                "B98602642",
                "58384285G",
                "54387763P",
                "X1234567L",
                "Y1234567X",
                "Z1234567R",
                "A58818501",
                "P2807900B",
                "Q2826000H",
            ],
        );
        ko(
            "ES",
            &[
                "B98602643",
                "58384285H",
                "X1234567A",
                "P2807900C",
                "12345",
                "I12345678",
            ],
        );
    }

    #[test]
    fn germany() {
        ok("DE", &["111111125", "136695976", "282741168"]);
        ko("DE", &["111111124", "012345678", "12345678", "ABCDEFGHI"]);
    }

    #[test]
    fn france() {
        assert_eq!(fr_siren_to_vat("356000000").as_deref(), Some("39356000000"));
        assert_eq!(fr_siren_to_vat("732829320").as_deref(), Some("44732829320"));
        assert_eq!(fr_siren_to_vat("732829321"), None);
        assert_eq!(fr_siren_to_vat("44732829320"), None);
        ok("FR", &[&fr_siren_to_vat("732829320").unwrap()]);
        ok("FR", &["44732829320", "39356000000", "K7399859412"]);
        ko("FR", &["44732829321", "4473282932", "ZZ123456789"]);
    }

    #[test]
    fn italy() {
        ok("IT", &["12345670017", "00743110157", "RSSMRA85T10A562S"]);
        ko("IT", &["12345670018", "1234567001", "RSSMRA85T10A562T"]);
    }

    #[test]
    fn portugal() {
        ok("PT", &["545259045", "501964843"]);
        ko("PT", &["545259046", "12345678"]);
    }

    #[test]
    fn netherlands() {
        ok("NL", &["000099998B57", "123456782B01", "010000446B01"]);
        ko("NL", &["123456789B01", "123456782X01", "12345678B01"]);
    }

    #[test]
    fn united_kingdom() {
        ok(
            "GB",
            &["000472631", "350983637", "GD001", "HA500", "350983637001"],
        );
        ko("GB", &["000472632", "12345678", "GD500", "HA499"]);
    }

    #[test]
    fn signs_and_symbols() {
        // Found by fuzz/taxid: integer parsing took a leading `+`.
        ko("GB", &["GD+61"]);
        ko("ES", &["K+123456S"]);
        ko("FR", &["+1000000061"]);
    }

    #[test]
    fn united_states() {
        ok("US", &["123456789"]);
        ko("US", &["12345678", "12345678A"]);
        ok("ZZ", &["anything"]);
    }
}
