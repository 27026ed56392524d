//! Parties: supplier, customer, payee, payer.

use serde::Deserialize;

use super::Ext;
use crate::num::Amount;

/// A party of the document (`org.Party`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Party {
    /// The regime the party belongs to (`$regime`), when it differs from the document's.
    #[serde(rename = "$regime")]
    pub regime: Option<String>,
    /// Legal name.
    pub name: Option<String>,
    /// Trading name.
    pub alias: Option<String>,
    /// Tax identity.
    pub tax_id: Option<TaxId>,
    /// Other identities (fiscal codes, registry numbers, …).
    pub identities: Vec<Identity>,
    /// People who represent or are the party.
    pub people: Vec<Person>,
    /// Electronic inboxes (SDI code, PEC, Peppol id, …).
    pub inboxes: Vec<Inbox>,
    /// Postal addresses, the first is the main one.
    pub addresses: Vec<Address>,
    /// Email addresses.
    pub emails: Vec<Email>,
    /// Telephone numbers.
    pub telephones: Vec<Telephone>,
    /// Company registration details.
    pub registration: Option<Registration>,
    /// Extension codes.
    pub ext: Ext,
}

impl Party {
    /// The first identity with this key (`it-fiscal-code`).
    pub fn identity_by_key(&self, key: &str) -> Option<&Identity> {
        self.identities
            .iter()
            .find(|i| i.key.as_deref() == Some(key))
    }

    /// The first inbox with this key (`it-sdi-code`).
    pub fn inbox_by_key(&self, key: &str) -> Option<&Inbox> {
        self.inboxes.iter().find(|i| i.key.as_deref() == Some(key))
    }

    /// The country of the tax identity, if any.
    pub fn tax_country(&self) -> Option<&str> {
        self.tax_id.as_ref().map(|t| t.country.as_str())
    }
}

/// A tax identity (`tax.Identity`): country and code, the code possibly empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct TaxId {
    /// ISO country code.
    pub country: String,
    /// The normalised code, without the country prefix.
    pub code: Option<String>,
    /// Tax scheme or type, where the regime uses one.
    pub scheme: Option<String>,
}

/// An identity code (`org.Identity`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Identity {
    /// Key from a list (`it-fiscal-code`).
    pub key: Option<String>,
    /// Free type code (`CIG`, `CUP`, …).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Country of issue.
    pub country: Option<String>,
    /// Label shown beside the code.
    pub label: Option<String>,
    /// What the identity is for (`tax`, `legal`).
    pub scope: Option<String>,
    /// The code.
    pub code: String,
    /// Extension codes.
    pub ext: Ext,
}

/// A person (`org.Person`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Person {
    /// The person's name.
    pub name: Name,
    /// Role in the organisation.
    pub role: Option<String>,
    /// Email addresses.
    pub emails: Vec<Email>,
    /// Telephone numbers.
    pub telephones: Vec<Telephone>,
}

/// A person's name (`org.Name`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Name {
    /// Title before the name (`Dott.`).
    pub prefix: Option<String>,
    /// Given name.
    pub given: Option<String>,
    /// Middle name.
    pub middle: Option<String>,
    /// Surname.
    pub surname: Option<String>,
    /// Second surname.
    pub surname2: Option<String>,
    /// Suffix (`Jr.`).
    pub suffix: Option<String>,
}

/// An electronic inbox (`org.Inbox`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Inbox {
    /// Key (`it-sdi-code`, `it-sdi-pec`, `peppol`).
    pub key: Option<String>,
    /// Scheme of the code (Peppol's `0088`).
    pub scheme: Option<String>,
    /// The inbox code.
    pub code: Option<String>,
    /// An inbox that is an email address (PEC).
    pub email: Option<String>,
    /// An inbox that is a URL.
    pub url: Option<String>,
}

/// A postal address (`org.Address`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Address {
    /// Post office box.
    pub po_box: Option<String>,
    /// House number.
    pub num: Option<String>,
    /// Floor.
    pub floor: Option<String>,
    /// Block.
    pub block: Option<String>,
    /// Door.
    pub door: Option<String>,
    /// Street.
    pub street: Option<String>,
    /// Second street line.
    pub street_extra: Option<String>,
    /// Town or city.
    pub locality: Option<String>,
    /// Province or region.
    pub region: Option<String>,
    /// State code.
    pub state: Option<String>,
    /// Post code.
    pub code: Option<String>,
    /// ISO country code.
    pub country: Option<String>,
}

/// An email address (`org.Email`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Email {
    /// Label.
    pub label: Option<String>,
    /// The address.
    pub addr: String,
}

/// A telephone number (`org.Telephone`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Telephone {
    /// Label.
    pub label: Option<String>,
    /// The number.
    pub num: String,
}

/// Company registration (`org.Registration`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Registration {
    /// Share capital.
    pub capital: Option<Amount>,
    /// Currency of the capital.
    pub currency: Option<String>,
    /// Registry office.
    pub office: Option<String>,
    /// Book.
    pub book: Option<String>,
    /// Volume.
    pub volume: Option<String>,
    /// Sheet.
    pub sheet: Option<String>,
    /// Section.
    pub section: Option<String>,
    /// Page.
    pub page: Option<String>,
    /// Entry number.
    pub entry: Option<String>,
    /// Other details.
    pub other: Option<String>,
    /// Extension codes.
    pub ext: Ext,
}
