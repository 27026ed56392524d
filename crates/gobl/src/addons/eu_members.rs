//! The member states of the European Union today (Greece under both its ISO code and its
//! tax code), for add-ons that tell EU from non-EU parties.

const EU: &[&str] = &[
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "EL", "HR", "HU", "IE",
    "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
];

/// Whether `country` is an EU member state.
pub(crate) fn is_eu(country: &str) -> bool {
    EU.contains(&country)
}
