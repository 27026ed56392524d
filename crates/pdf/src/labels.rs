//! The words on an invoice, in each language folio renders: one table, one column a language.

use serde_json::{Map, Value};

/// Languages with a column in [`LABELS`], in its column order.
pub const LOCALES: [&str; 7] = ["en", "es", "de", "fr", "it", "pt", "nl"];

/// `(key, [en, es, de, fr, it, pt, nl])`.
const LABELS: &[(&str, [&str; 7])] = &[
    (
        "invoice",
        [
            "Invoice", "Factura", "Rechnung", "Facture", "Fattura", "Fatura", "Factuur",
        ],
    ),
    (
        "credit-note",
        [
            "Credit note",
            "Nota de crédito",
            "Gutschrift",
            "Avoir",
            "Nota di credito",
            "Nota de crédito",
            "Creditnota",
        ],
    ),
    (
        "corrective",
        [
            "Corrective invoice",
            "Factura rectificativa",
            "Rechnungskorrektur",
            "Facture rectificative",
            "Fattura correttiva",
            "Fatura retificativa",
            "Correctiefactuur",
        ],
    ),
    (
        "debit-note",
        [
            "Debit note",
            "Nota de débito",
            "Belastungsanzeige",
            "Note de débit",
            "Nota di debito",
            "Nota de débito",
            "Debetnota",
        ],
    ),
    (
        "proforma",
        [
            "Proforma invoice",
            "Factura proforma",
            "Proformarechnung",
            "Facture proforma",
            "Fattura proforma",
            "Fatura pró-forma",
            "Proformafactuur",
        ],
    ),
    (
        "number",
        [
            "Number", "Número", "Nummer", "Numéro", "Numero", "Número", "Nummer",
        ],
    ),
    (
        "issue-date",
        [
            "Issue date",
            "Fecha de emisión",
            "Rechnungsdatum",
            "Date d'émission",
            "Data di emissione",
            "Data de emissão",
            "Factuurdatum",
        ],
    ),
    (
        "op-date",
        [
            "Operation date",
            "Fecha de operación",
            "Leistungsdatum",
            "Date de l'opération",
            "Data dell'operazione",
            "Data da operação",
            "Leveringsdatum",
        ],
    ),
    (
        "due-date",
        [
            "Due date",
            "Vencimiento",
            "Fällig am",
            "Échéance",
            "Scadenza",
            "Vencimento",
            "Vervaldatum",
        ],
    ),
    (
        "preceding",
        [
            "Corrects",
            "Rectifica",
            "Korrigiert",
            "Rectifie",
            "Rettifica",
            "Retifica",
            "Corrigeert",
        ],
    ),
    (
        "supplier",
        [
            "From",
            "Emisor",
            "Von",
            "Émetteur",
            "Fornitore",
            "Emitente",
            "Van",
        ],
    ),
    (
        "customer",
        [
            "Bill to", "Cliente", "An", "Client", "Cliente", "Cliente", "Aan",
        ],
    ),
    (
        "tax-id",
        [
            "Tax ID",
            "NIF",
            "USt-IdNr.",
            "N° TVA",
            "P. IVA",
            "NIF",
            "Btw-nr.",
        ],
    ),
    (
        "description",
        [
            "Description",
            "Concepto",
            "Beschreibung",
            "Désignation",
            "Descrizione",
            "Descrição",
            "Omschrijving",
        ],
    ),
    (
        "quantity",
        ["Qty", "Cant.", "Menge", "Qté", "Q.tà", "Qtd.", "Aantal"],
    ),
    (
        "price",
        [
            "Unit price",
            "Precio",
            "Einzelpreis",
            "Prix unitaire",
            "Prezzo",
            "Preço",
            "Prijs",
        ],
    ),
    (
        "discount",
        [
            "Discount",
            "Descuento",
            "Rabatt",
            "Remise",
            "Sconto",
            "Desconto",
            "Korting",
        ],
    ),
    (
        "taxes",
        [
            "Taxes",
            "Impuestos",
            "Steuern",
            "Taxes",
            "Imposte",
            "Impostos",
            "Belastingen",
        ],
    ),
    (
        "amount",
        [
            "Amount", "Importe", "Betrag", "Montant", "Importo", "Montante", "Bedrag",
        ],
    ),
    (
        "tax-breakdown",
        [
            "Tax breakdown",
            "Desglose de impuestos",
            "Steueraufstellung",
            "Détail des taxes",
            "Riepilogo imposte",
            "Resumo de impostos",
            "Belastingoverzicht",
        ],
    ),
    (
        "base",
        [
            "Base",
            "Base imponible",
            "Bemessungsgrundlage",
            "Base HT",
            "Imponibile",
            "Base tributável",
            "Grondslag",
        ],
    ),
    (
        "rate",
        ["Rate", "Tipo", "Satz", "Taux", "Aliquota", "Taxa", "Tarief"],
    ),
    (
        "sum",
        [
            "Subtotal",
            "Suma",
            "Zwischensumme",
            "Sous-total",
            "Subtotale",
            "Subtotal",
            "Subtotaal",
        ],
    ),
    (
        "discounts",
        [
            "Discounts",
            "Descuentos",
            "Rabatte",
            "Remises",
            "Sconti",
            "Descontos",
            "Kortingen",
        ],
    ),
    (
        "charges",
        [
            "Charges",
            "Cargos",
            "Zuschläge",
            "Frais",
            "Maggiorazioni",
            "Encargos",
            "Toeslagen",
        ],
    ),
    (
        "total",
        [
            "Total without tax",
            "Base imponible",
            "Nettobetrag",
            "Total HT",
            "Totale imponibile",
            "Total sem impostos",
            "Totaal excl. btw",
        ],
    ),
    (
        "tax",
        [
            "Tax",
            "Impuestos",
            "Steuer",
            "Taxes",
            "Imposte",
            "Impostos",
            "Btw",
        ],
    ),
    (
        "total-with-tax",
        [
            "Total",
            "Total",
            "Gesamtbetrag",
            "Total TTC",
            "Totale",
            "Total",
            "Totaal",
        ],
    ),
    (
        "advances",
        [
            "Paid in advance",
            "Anticipos",
            "Anzahlungen",
            "Acomptes",
            "Acconti",
            "Adiantamentos",
            "Vooruitbetaald",
        ],
    ),
    (
        "payable",
        [
            "Amount due",
            "Total a pagar",
            "Zahlbetrag",
            "Net à payer",
            "Totale da pagare",
            "Total a pagar",
            "Te betalen",
        ],
    ),
    (
        "payment",
        [
            "Payment",
            "Pago",
            "Zahlung",
            "Paiement",
            "Pagamento",
            "Pagamento",
            "Betaling",
        ],
    ),
    (
        "terms",
        [
            "Terms",
            "Condiciones",
            "Bedingungen",
            "Conditions",
            "Condizioni",
            "Condições",
            "Voorwaarden",
        ],
    ),
    (
        "account-holder",
        [
            "Account holder",
            "Titular",
            "Kontoinhaber",
            "Titulaire",
            "Intestatario",
            "Titular",
            "Rekeninghouder",
        ],
    ),
    (
        "notes",
        [
            "Notes",
            "Notas",
            "Hinweise",
            "Notes",
            "Note",
            "Notas",
            "Opmerkingen",
        ],
    ),
    (
        "page",
        [
            "Page", "Página", "Seite", "Page", "Pagina", "Página", "Pagina",
        ],
    ),
    ("of", ["of", "de", "von", "sur", "di", "de", "van"]),
    (
        "digest",
        [
            "Digest",
            "Huella",
            "Prüfsumme",
            "Empreinte",
            "Impronta",
            "Resumo",
            "Digest",
        ],
    ),
    (
        "signed",
        [
            "Signed",
            "Firmado",
            "Signiert",
            "Signé",
            "Firmato",
            "Assinado",
            "Ondertekend",
        ],
    ),
    (
        "not-signed",
        [
            "Not signed",
            "Sin firmar",
            "Nicht signiert",
            "Non signé",
            "Non firmato",
            "Não assinado",
            "Niet ondertekend",
        ],
    ),
    (
        "duplicate",
        [
            "Duplicate",
            "Duplicado",
            "Duplikat",
            "Duplicata",
            "Duplicato",
            "Duplicado",
            "Duplicaat",
        ],
    ),
];

/// The column of a language (English when folio has none for it).
pub fn column(locale: &str) -> usize {
    let lang = locale.split(['-', '_']).next().unwrap_or("en");
    LOCALES.iter().position(|l| *l == lang).unwrap_or(0)
}

/// Every label in one language, as the template reads them (`labels.<key>`).
pub fn all(locale: &str) -> Value {
    let col = column(locale);
    let map: Map<String, Value> = LABELS
        .iter()
        .map(|(key, words)| (key.to_string(), Value::String(words[col].to_string())))
        .collect();
    Value::Object(map)
}

/// One label in one language; the key itself when there is none.
pub fn get(locale: &str, key: &str) -> String {
    let col = column(locale);
    LABELS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or_else(|| key.to_string(), |(_, words)| words[col].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_every_label_and_unknown_ones_fall_back_to_english() {
        for (key, words) in LABELS {
            assert!(words.iter().all(|w| !w.is_empty()), "{key}");
        }
        assert_eq!(get("de", "invoice"), "Rechnung");
        assert_eq!(get("pt-BR", "payable"), "Total a pagar");
        assert_eq!(get("sv", "invoice"), "Invoice");
    }
}
