//! Invoices of our own for the import tests: a small XRechnung-shaped UBL invoice built from
//! its lines, with every total computed here (so a test states only what it is about), and
//! the same invoice in CII, written by the `en16931-formats` writer from the UBL read back.

#![allow(dead_code)]

use std::str::FromStr;

use rust_decimal::Decimal;

/// One invoice line: quantity, net price, line allowances and charges, VAT category and rate.
#[derive(Clone)]
pub struct Line {
    pub qty: String,
    pub price: String,
    pub base_qty: Option<String>,
    pub allowances: Vec<String>,
    pub charges: Vec<String>,
    pub cat: String,
    pub rate: Option<String>,
    /// The line net amount to state; computed when `None`.
    pub net: Option<String>,
}

impl Line {
    pub fn new(qty: &str, price: &str, cat: &str, rate: Option<&str>) -> Line {
        Line {
            qty: qty.into(),
            price: price.into(),
            base_qty: None,
            allowances: Vec::new(),
            charges: Vec::new(),
            cat: cat.into(),
            rate: rate.map(Into::into),
            net: None,
        }
    }

    pub fn net(&self) -> Decimal {
        if let Some(n) = &self.net {
            return dec(n);
        }
        let base = self.base_qty.as_deref().map(dec).unwrap_or(Decimal::ONE);
        let gross = half_up(dec(&self.qty) * dec(&self.price) / base);
        gross - self.allowances.iter().map(|a| dec(a)).sum::<Decimal>()
            + self.charges.iter().map(|c| dec(c)).sum::<Decimal>()
    }
}

/// Rounded to the cent, half away from zero, as EN 16931 amounts are.
pub fn half_up(d: Decimal) -> Decimal {
    d.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
}

pub fn dec(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

/// A UBL invoice (XRechnung 3.0, German seller and buyer) around `lines`.
#[derive(Clone)]
pub struct Doc {
    pub lines: Vec<Line>,
    pub prepaid: Option<String>,
    pub terms: String,
    /// BT-120 per category.
    pub exemption: Vec<(String, String, Option<String>)>,
    /// Extra UBL after the buyer (delivery, tax representative ...).
    pub after_buyer: String,
    /// Replaces the seller's `cac:Party` body when set.
    pub seller_party: Option<String>,
    pub payment_means: String,
    pub customization: String,
}

/// A seller without a VAT identifier, registered for tax (BT-32): what "not subject to VAT"
/// needs (BR-O-02).
pub const SELLER_PARTY_FC: &str = r#"<cbc:EndpointID schemeID="EM">billing@seller.example</cbc:EndpointID>
      <cac:PostalAddress><cbc:StreetName>Hauptstraße 1</cbc:StreetName><cbc:CityName>Berlin</cbc:CityName><cbc:PostalZone>10115</cbc:PostalZone><cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
      <cac:PartyTaxScheme><cbc:CompanyID>201/113/40209</cbc:CompanyID><cac:TaxScheme><cbc:ID>FC</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
      <cac:PartyLegalEntity><cbc:RegistrationName>Verein e.V.</cbc:RegistrationName><cbc:CompanyID>VR 12345</cbc:CompanyID></cac:PartyLegalEntity>
      <cac:Contact><cbc:Name>Erika Muster</cbc:Name><cbc:Telephone>+49 30 1234</cbc:Telephone><cbc:ElectronicMail>erika@seller.example</cbc:ElectronicMail></cac:Contact>"#;

pub const SELLER_PARTY: &str = r#"<cbc:EndpointID schemeID="EM">billing@seller.example</cbc:EndpointID>
      <cac:PartyName><cbc:Name>Seller Trading</cbc:Name></cac:PartyName>
      <cac:PostalAddress><cbc:StreetName>Hauptstraße 1</cbc:StreetName><cbc:CityName>Berlin</cbc:CityName><cbc:PostalZone>10115</cbc:PostalZone><cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
      <cac:PartyTaxScheme><cbc:CompanyID>DE111111125</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
      <cac:PartyLegalEntity><cbc:RegistrationName>Seller GmbH</cbc:RegistrationName></cac:PartyLegalEntity>
      <cac:Contact><cbc:Name>Erika Muster</cbc:Name><cbc:Telephone>+49 30 1234</cbc:Telephone><cbc:ElectronicMail>erika@seller.example</cbc:ElectronicMail></cac:Contact>"#;

impl Doc {
    pub fn new(lines: Vec<Line>) -> Doc {
        Doc {
            lines,
            prepaid: None,
            terms: "Zahlbar innerhalb von 30 Tagen".into(),
            exemption: Vec::new(),
            after_buyer: String::new(),
            seller_party: None,
            payment_means: r#"<cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>DE75512108001245126199</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>"#.into(),
            customization: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
                .into(),
        }
    }

    pub fn line_total(&self) -> Decimal {
        self.lines.iter().map(Line::net).sum()
    }

    /// `(category, rate, base, tax)` per category and rate, in first-seen order.
    pub fn breakdown(&self) -> Vec<(String, Option<String>, Decimal, Decimal)> {
        let mut out: Vec<(String, Option<String>, Decimal, Decimal)> = Vec::new();
        for l in &self.lines {
            match out
                .iter_mut()
                .find(|(c, r, _, _)| *c == l.cat && *r == l.rate)
            {
                Some(b) => b.2 += l.net(),
                None => out.push((l.cat.clone(), l.rate.clone(), l.net(), Decimal::ZERO)),
            }
        }
        for b in &mut out {
            let rate = b.1.as_deref().map(dec).unwrap_or_default();
            b.3 = half_up(b.2 * rate / Decimal::ONE_HUNDRED);
        }
        out
    }

    pub fn tax_total(&self) -> Decimal {
        self.breakdown().iter().map(|b| b.3).sum()
    }

    pub fn gross(&self) -> Decimal {
        self.line_total() + self.tax_total()
    }

    pub fn due(&self) -> Decimal {
        self.gross() - self.prepaid.as_deref().map(dec).unwrap_or_default()
    }

    pub fn ubl(&self) -> String {
        let mut lines = String::new();
        for (i, l) in self.lines.iter().enumerate() {
            let mut ac = String::new();
            for (charge, amounts) in [(false, &l.allowances), (true, &l.charges)] {
                for a in amounts.iter() {
                    ac.push_str(&format!(
                        r#"<cac:AllowanceCharge><cbc:ChargeIndicator>{charge}</cbc:ChargeIndicator><cbc:AllowanceChargeReason>{}</cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">{a}</cbc:Amount></cac:AllowanceCharge>"#,
                        if charge { "Fracht" } else { "Rabatt" }
                    ));
                }
            }
            let rate = l
                .rate
                .as_ref()
                .map(|r| format!("<cbc:Percent>{r}</cbc:Percent>"))
                .unwrap_or_default();
            let base = l
                .base_qty
                .as_ref()
                .map(|b| format!(r#"<cbc:BaseQuantity unitCode="H87">{b}</cbc:BaseQuantity>"#))
                .unwrap_or_default();
            lines.push_str(&format!(
                r#"
  <cac:InvoiceLine>
    <cbc:ID>{n}</cbc:ID>
    <cbc:InvoicedQuantity unitCode="H87">{qty}</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="EUR">{net}</cbc:LineExtensionAmount>
    {ac}
    <cac:Item><cbc:Name>Artikel {n}</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>{cat}</cbc:ID>{rate}<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="EUR">{price}</cbc:PriceAmount>{base}</cac:Price>
  </cac:InvoiceLine>"#,
                n = i + 1,
                qty = l.qty,
                net = l.net(),
                cat = l.cat,
                price = l.price,
            ));
        }
        let mut subtotals = String::new();
        for (cat, rate, base, tax) in self.breakdown() {
            let percent = match (&rate, cat.as_str()) {
                (Some(r), _) => format!("<cbc:Percent>{r}</cbc:Percent>"),
                // XRechnung wants BT-119 on every breakdown (BR-DE-14)
                (None, "O") => "<cbc:Percent>0</cbc:Percent>".into(),
                _ => String::new(),
            };
            let reason = self
                .exemption
                .iter()
                .find(|(c, _, _)| *c == cat)
                .map(|(_, text, code)| {
                    let code = code
                        .as_ref()
                        .map(|c| {
                            format!("<cbc:TaxExemptionReasonCode>{c}</cbc:TaxExemptionReasonCode>")
                        })
                        .unwrap_or_default();
                    format!("{code}<cbc:TaxExemptionReason>{text}</cbc:TaxExemptionReason>")
                })
                .unwrap_or_default();
            subtotals.push_str(&format!(
                r#"<cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">{base}</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">{tax}</cbc:TaxAmount><cac:TaxCategory><cbc:ID>{cat}</cbc:ID>{percent}{reason}<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>"#
            ));
        }
        let prepaid = self
            .prepaid
            .as_ref()
            .map(|p| format!(r#"<cbc:PrepaidAmount currencyID="EUR">{p}</cbc:PrepaidAmount>"#))
            .unwrap_or_default();
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>{custom}</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
  <cbc:ID>F-2026-0042</cbc:ID>
  <cbc:IssueDate>2026-03-02</cbc:IssueDate>
  <cbc:DueDate>2026-04-01</cbc:DueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cbc:BuyerReference>04011000-12345-03</cbc:BuyerReference>
  <cac:AccountingSupplierParty>
    <cac:Party>
      {seller}
    </cac:Party>
  </cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty>
    <cac:Party>
      <cbc:EndpointID schemeID="EM">invoices@buyer.example</cbc:EndpointID>
      <cac:PostalAddress><cbc:StreetName>Marktplatz 5</cbc:StreetName><cbc:CityName>München</cbc:CityName><cbc:PostalZone>80331</cbc:PostalZone><cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
      <cac:PartyLegalEntity><cbc:RegistrationName>Buyer AG</cbc:RegistrationName></cac:PartyLegalEntity>
    </cac:Party>
  </cac:AccountingCustomerParty>
  {after_buyer}
  {means}
  <cac:PaymentTerms><cbc:Note>{terms}</cbc:Note></cac:PaymentTerms>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">{tax}</cbc:TaxAmount>{subtotals}</cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">{line_total}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">{line_total}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">{gross}</cbc:TaxInclusiveAmount>
    {prepaid}
    <cbc:PayableAmount currencyID="EUR">{due}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>{lines}
</Invoice>
"#,
            custom = self.customization,
            seller = self.seller_party.as_deref().unwrap_or(SELLER_PARTY),
            after_buyer = self.after_buyer,
            means = self.payment_means,
            terms = self.terms,
            tax = self.tax_total(),
            line_total = self.line_total(),
            gross = self.gross(),
            due = self.due(),
        )
    }

    /// The same invoice in CII, as the `en16931-formats` writer writes the model read from
    /// the UBL.
    pub fn cii(&self) -> String {
        to_cii(self.ubl().as_bytes())
    }
}

/// Any UBL invoice rewritten in CII by the `en16931-formats` reader and writer.
pub fn to_cii(ubl: &[u8]) -> String {
    let model = en16931_formats::read(ubl).expect("readable").invoice;
    en16931_formats::write_unchecked(&model, en16931_formats::Syntax::Cii)
        .expect("writable")
        .xml
}

/// A plain standard-rated invoice of two lines.
pub fn plain() -> Doc {
    Doc::new(vec![
        Line::new("3", "100.00", "S", Some("19")),
        Line::new("2", "12.50", "S", Some("7")),
    ])
}

/// An import with its envelope as a `serde_json` value, which these checks read.
#[derive(Debug)]
pub struct Import {
    pub syntax: folio_einvoice::Syntax,
    pub envelope: serde_json::Value,
    pub notes: Vec<folio_einvoice::Finding>,
}

/// [`folio_einvoice::import`], the envelope read out of the builder's tree.
pub fn import(xml: &[u8]) -> Result<Import, folio_einvoice::Error> {
    folio_einvoice::import(xml).map(|i| Import {
        syntax: i.syntax,
        envelope: i.envelope.to_serde().expect("numbers serde_json holds"),
        notes: i.notes,
    })
}
