//! Facturae code lists: person and residence types from the tax code and country, tax
//! types per GOBL category, payment means, correction reasons and methods, and the ISO
//! alpha-3 country codes the schema uses.

/// EU member states (residence type `U`).
const EU: &[&str] = &[
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT",
    "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
];

/// `F` (natural person) when a Spanish-style tax code starts with a digit or one of the
/// letters of personal codes (NIE `X`/`Y`/`Z`, `K`, `L`, `M`), else `J` (legal entity).
pub(crate) fn person_type(code: &str) -> &'static str {
    match code.chars().next() {
        Some(c) if c.is_ascii_digit() || "KLMXYZ".contains(c) => "F",
        _ => "J",
    }
}

/// `R` resident in Spain, `U` in another EU state, `E` elsewhere.
pub(crate) fn residence_type(country: &str) -> &'static str {
    match country {
        "ES" => "R",
        c if EU.contains(&c) => "U",
        _ => "E",
    }
}

/// `TaxTypeCode` of a GOBL tax category; others are `05` ("otro").
pub(crate) fn tax_type(category: &str) -> &'static str {
    match category {
        "VAT" => "01",
        "IPSI" => "02",
        "IGIC" => "03",
        "IRPF" => "04",
        _ => "05",
    }
}

/// `PaymentMeans` of a GOBL means key (its base, before any `+`); `13` ("especiales")
/// for means Facturae has no code for, or none given.
pub(crate) fn payment_means(key: Option<&str>) -> &'static str {
    match key.map(|k| k.split('+').next().unwrap_or(k)) {
        Some("cash") => "01",
        Some("direct-debit") => "02",
        Some("credit-transfer") => "04",
        Some("online") => "13",
        Some("card") => "19",
        _ => "13",
    }
}

/// The Spanish description of an `es-facturae-correction` reason code.
pub(crate) fn correction_reason(code: &str) -> Option<&'static str> {
    Some(match code {
        "01" => "Número de la factura",
        "02" => "Serie de la factura",
        "03" => "Fecha expedición",
        "04" => "Nombre y apellidos/Razón Social-Emisor",
        "05" => "Nombre y apellidos/Razón Social-Receptor",
        "06" => "Identificación fiscal Emisor/obligado",
        "07" => "Identificación fiscal Receptor",
        "08" => "Domicilio Emisor/Obligado",
        "09" => "Domicilio Receptor",
        "10" => "Detalle Operación",
        "11" => "Porcentaje impositivo a aplicar",
        "12" => "Cuota tributaria a aplicar",
        "13" => "Fecha/Periodo a aplicar",
        "14" => "Clase de factura",
        "15" => "Literales legales",
        "16" => "Base imponible",
        "80" => "Cálculo de cuotas repercutidas",
        "81" => "Cálculo de cuotas retenidas",
        "82" => "Base imponible modificada por devolución de envases / embalajes",
        "83" => "Base imponible modificada por descuentos y bonificaciones",
        "84" => "Base imponible modificada por resolución firme, judicial o administrativa",
        "85" => {
            "Base imponible modificada cuotas repercutidas no satisfechas. Auto de declaración de concurso"
        }
        _ => return None,
    })
}

/// `CorrectionMethod` and its description for a GOBL invoice type: a corrective invoice
/// restates every item, a credit or debit note only the differences, anything else is
/// taken as authorised by the tax agency.
pub(crate) fn correction_method(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "corrective" => ("01", "Rectificación íntegra"),
        "credit-note" | "debit-note" => ("02", "Rectificación por diferencias"),
        _ => ("04", "Autorizadas por la Agencia Tributaria"),
    }
}

/// The ISO 3166 alpha-3 code of an alpha-2 country code.
pub(crate) fn alpha3(country: &str) -> Option<&'static str> {
    COUNTRIES
        .iter()
        .find(|(a2, _)| *a2 == country)
        .map(|(_, a3)| *a3)
}

#[rustfmt::skip]
const COUNTRIES: &[(&str, &str)] = &[
    ("AF", "AFG"), ("AX", "ALA"), ("AL", "ALB"), ("DZ", "DZA"), ("AS", "ASM"), ("AD", "AND"),
    ("AO", "AGO"), ("AI", "AIA"), ("AQ", "ATA"), ("AG", "ATG"), ("AR", "ARG"), ("AM", "ARM"),
    ("AW", "ABW"), ("AU", "AUS"), ("AT", "AUT"), ("AZ", "AZE"), ("BS", "BHS"), ("BH", "BHR"),
    ("BD", "BGD"), ("BB", "BRB"), ("BY", "BLR"), ("BE", "BEL"), ("BZ", "BLZ"), ("BJ", "BEN"),
    ("BM", "BMU"), ("BT", "BTN"), ("BO", "BOL"), ("BQ", "BES"), ("BA", "BIH"), ("BW", "BWA"),
    ("BV", "BVT"), ("BR", "BRA"), ("IO", "IOT"), ("BN", "BRN"), ("BG", "BGR"), ("BF", "BFA"),
    ("BI", "BDI"), ("CV", "CPV"), ("KH", "KHM"), ("CM", "CMR"), ("CA", "CAN"), ("KY", "CYM"),
    ("CF", "CAF"), ("TD", "TCD"), ("CL", "CHL"), ("CN", "CHN"), ("CX", "CXR"), ("CC", "CCK"),
    ("CO", "COL"), ("KM", "COM"), ("CG", "COG"), ("CD", "COD"), ("CK", "COK"), ("CR", "CRI"),
    ("CI", "CIV"), ("HR", "HRV"), ("CU", "CUB"), ("CW", "CUW"), ("CY", "CYP"), ("CZ", "CZE"),
    ("DK", "DNK"), ("DJ", "DJI"), ("DM", "DMA"), ("DO", "DOM"), ("EC", "ECU"), ("EG", "EGY"),
    ("SV", "SLV"), ("GQ", "GNQ"), ("ER", "ERI"), ("EE", "EST"), ("SZ", "SWZ"), ("ET", "ETH"),
    ("FK", "FLK"), ("FO", "FRO"), ("FJ", "FJI"), ("FI", "FIN"), ("FR", "FRA"), ("GF", "GUF"),
    ("PF", "PYF"), ("TF", "ATF"), ("GA", "GAB"), ("GM", "GMB"), ("GE", "GEO"), ("DE", "DEU"),
    ("GH", "GHA"), ("GI", "GIB"), ("GR", "GRC"), ("GL", "GRL"), ("GD", "GRD"), ("GP", "GLP"),
    ("GU", "GUM"), ("GT", "GTM"), ("GG", "GGY"), ("GN", "GIN"), ("GW", "GNB"), ("GY", "GUY"),
    ("HT", "HTI"), ("HM", "HMD"), ("VA", "VAT"), ("HN", "HND"), ("HK", "HKG"), ("HU", "HUN"),
    ("IS", "ISL"), ("IN", "IND"), ("ID", "IDN"), ("IR", "IRN"), ("IQ", "IRQ"), ("IE", "IRL"),
    ("IM", "IMN"), ("IL", "ISR"), ("IT", "ITA"), ("JM", "JAM"), ("JP", "JPN"), ("JE", "JEY"),
    ("JO", "JOR"), ("KZ", "KAZ"), ("KE", "KEN"), ("KI", "KIR"), ("KP", "PRK"), ("KR", "KOR"),
    ("KW", "KWT"), ("KG", "KGZ"), ("LA", "LAO"), ("LV", "LVA"), ("LB", "LBN"), ("LS", "LSO"),
    ("LR", "LBR"), ("LY", "LBY"), ("LI", "LIE"), ("LT", "LTU"), ("LU", "LUX"), ("MO", "MAC"),
    ("MK", "MKD"), ("MG", "MDG"), ("MW", "MWI"), ("MY", "MYS"), ("MV", "MDV"), ("ML", "MLI"),
    ("MT", "MLT"), ("MH", "MHL"), ("MQ", "MTQ"), ("MR", "MRT"), ("MU", "MUS"), ("YT", "MYT"),
    ("MX", "MEX"), ("FM", "FSM"), ("MD", "MDA"), ("MC", "MCO"), ("MN", "MNG"), ("ME", "MNE"),
    ("MS", "MSR"), ("MA", "MAR"), ("MZ", "MOZ"), ("MM", "MMR"), ("NA", "NAM"), ("NR", "NRU"),
    ("NP", "NPL"), ("NL", "NLD"), ("NC", "NCL"), ("NZ", "NZL"), ("NI", "NIC"), ("NE", "NER"),
    ("NG", "NGA"), ("NU", "NIU"), ("NF", "NFK"), ("MP", "MNP"), ("NO", "NOR"), ("OM", "OMN"),
    ("PK", "PAK"), ("PW", "PLW"), ("PS", "PSE"), ("PA", "PAN"), ("PG", "PNG"), ("PY", "PRY"),
    ("PE", "PER"), ("PH", "PHL"), ("PN", "PCN"), ("PL", "POL"), ("PT", "PRT"), ("PR", "PRI"),
    ("QA", "QAT"), ("RE", "REU"), ("RO", "ROU"), ("RU", "RUS"), ("RW", "RWA"), ("BL", "BLM"),
    ("SH", "SHN"), ("KN", "KNA"), ("LC", "LCA"), ("MF", "MAF"), ("PM", "SPM"), ("VC", "VCT"),
    ("WS", "WSM"), ("SM", "SMR"), ("ST", "STP"), ("SA", "SAU"), ("SN", "SEN"), ("RS", "SRB"),
    ("SC", "SYC"), ("SL", "SLE"), ("SG", "SGP"), ("SX", "SXM"), ("SK", "SVK"), ("SI", "SVN"),
    ("SB", "SLB"), ("SO", "SOM"), ("ZA", "ZAF"), ("GS", "SGS"), ("SS", "SSD"), ("ES", "ESP"),
    ("LK", "LKA"), ("SD", "SDN"), ("SR", "SUR"), ("SJ", "SJM"), ("SE", "SWE"), ("CH", "CHE"),
    ("SY", "SYR"), ("TW", "TWN"), ("TJ", "TJK"), ("TZ", "TZA"), ("TH", "THA"), ("TL", "TLS"),
    ("TG", "TGO"), ("TK", "TKL"), ("TO", "TON"), ("TT", "TTO"), ("TN", "TUN"), ("TR", "TUR"),
    ("TM", "TKM"), ("TC", "TCA"), ("TV", "TUV"), ("UG", "UGA"), ("UA", "UKR"), ("AE", "ARE"),
    ("GB", "GBR"), ("US", "USA"), ("UM", "UMI"), ("UY", "URY"), ("UZ", "UZB"), ("VU", "VUT"),
    ("VE", "VEN"), ("VN", "VNM"), ("VG", "VGB"), ("VI", "VIR"), ("WF", "WLF"), ("EH", "ESH"),
    ("YE", "YEM"), ("ZM", "ZMB"), ("ZW", "ZWE"), ("EL", "GRC"), ("XI", "GBR"), ("XU", "GBR"),
    ("EU", "EUE"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn person_and_residence_follow_the_code_and_country() {
        assert_eq!(person_type("37221735F"), "F");
        assert_eq!(person_type("X1234567L"), "F");
        assert_eq!(person_type("B23103039"), "J");
        assert_eq!(person_type(""), "J");
        assert_eq!(residence_type("ES"), "R");
        assert_eq!(residence_type("FR"), "U");
        assert_eq!(residence_type("GB"), "E");
    }

    #[test]
    fn codes_map_from_gobl_keys() {
        assert_eq!(tax_type("IRPF"), "04");
        assert_eq!(tax_type("IGIC"), "03");
        assert_eq!(payment_means(Some("credit-transfer+sepa")), "04");
        assert_eq!(payment_means(None), "13");
        assert_eq!(correction_reason("01"), Some("Número de la factura"));
        assert_eq!(correction_reason("99"), None);
        assert_eq!(correction_method("credit-note").0, "02");
        assert_eq!(alpha3("ES"), Some("ESP"));
        assert_eq!(alpha3("FR"), Some("FRA"));
        assert_eq!(alpha3("XX"), None);
    }
}
