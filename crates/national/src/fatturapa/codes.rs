//! FatturaPA code lists and the text rules of its schema.

/// `Natura` code → `RiferimentoNormativo`: the legal reference written in the VAT summary
/// (the Italian names of the `it-sdi-exempt` codes).
#[rustfmt::skip]
const EXEMPT_REFERENCES: &[(&str, &str)] = &[
    ("N1", "Escluse ex. art. 15 del D.P.R. 633/1972"),
    ("N2.1", "Non soggette ex. art. 7 del D.P.R. 633/72"),
    ("N2.2", "Non soggette - altri casi"),
    ("N3.1", "Non imponibili - esportazioni"),
    ("N3.2", "Non imponibili - cessioni intracomunitarie"),
    ("N3.3", "Non imponibili - cessioni verso San Marino"),
    ("N3.4", "Non Imponibili - operazioni assimilate alle cessioni all'esportazione"),
    ("N3.5", "Non imponibili - dichiarazioni d'intento"),
    ("N3.6", "Non imponibili - altre operazioni che non concorrono alla formazione del plafond"),
    ("N4", "Esenti"),
    ("N5", "Regime del margine/IVA non esposta in fattura"),
    ("N6.1", "Inversione contabile - cessione di rottami e altri materiali di recupero"),
    ("N6.2", "Inversione contabile - cessione di oro e argento ai sensi della legge 7/2000 nonché di oreficeria usata ad OPO"),
    ("N6.3", "Inversione contabile - subappalto nel settore edile"),
    ("N6.4", "Inversione contabile - cessione di fabbricati"),
    ("N6.5", "Inversione contabile - cessione di telefoni cellulari"),
    ("N6.6", "Inversione contabile - cessione di prodotti elettronici"),
    ("N6.7", "Inversione contabile - prestazioni comparto edile e settori connessi"),
    ("N6.8", "Inversione contabile - operazioni settore energetico"),
    ("N6.9", "Inversione contabile - altri casi"),
    ("N7", "IVA assolta in altro stato UE (prestazione di servizi di telecomunicazioni, tele-radiodiffusione ed elettronici ex art. 7-octies lett. a, b, art. 74-sexies DPR 633/72)"),
];

/// The legal reference of an exemption nature, cut to the schema's 100 characters.
pub(crate) fn exempt_reference(nature: &str) -> Option<String> {
    EXEMPT_REFERENCES
        .iter()
        .find(|(c, _)| *c == nature)
        .map(|(_, text)| latin(text, 100))
}

/// `TipoRitenuta` of a retained tax category.
pub(crate) fn retained_type(cat: &str) -> Option<&'static str> {
    Some(match cat {
        "IRPEF" => "RT01",
        "IRES" => "RT02",
        "INPS" => "RT03",
        "ENASARCO" => "RT04",
        "ENPAM" => "RT05",
        _ => return None,
    })
}

/// Member states of the EU: a tax code from outside it is written as the schema's
/// placeholder for non-EU businesses.
const EU: &[&str] = &[
    "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV",
    "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
];

/// Whether a country is an EU member state.
pub(crate) fn is_eu(country: &str) -> bool {
    EU.contains(&country)
}

/// Text the schema's Latin types accept (Basic Latin and Latin-1), at most `max`
/// characters: common typographic marks become their ASCII form, anything else `?`.
pub(crate) fn latin(s: &str, max: usize) -> String {
    s.chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{201A}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' => '"',
            '\u{2013}' | '\u{2014}' => '-',
            c if (c as u32) < 0x100 && !c.is_control() => c,
            '\n' | '\t' => ' ',
            _ => '?',
        })
        .take(max)
        .collect()
}

/// Text the schema's Basic Latin types accept: [`latin`] without Latin-1 letters.
pub(crate) fn ascii(s: &str, max: usize) -> String {
    latin(s, max)
        .chars()
        .map(|c| if c.is_ascii() { c } else { '?' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_fit_the_schema() {
        assert_eq!(
            exempt_reference("N2.2").as_deref(),
            Some("Non soggette - altri casi")
        );
        assert_eq!(exempt_reference("N7").unwrap().chars().count(), 100);
        assert_eq!(exempt_reference("N9"), None);
    }

    #[test]
    fn text_is_latin_1() {
        assert_eq!(latin("MªF. l’ufficio – €5", 100), "MªF. l'ufficio - ?5");
        assert_eq!(latin("abcdef", 3), "abc");
        assert_eq!(ascii("12/bis città", 8), "12/bis c");
        assert_eq!(ascii("Dottè", 10), "Dott?");
    }
}
