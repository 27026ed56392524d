//! The moment of issue as TicketBAI writes it: date `dd-mm-yyyy` and time `hh:mm:ss` in
//! Spain's peninsular time (the Basque Country's), as the reference does.

use chrono::{DateTime, NaiveDate, Utc};

/// The issue date and time, written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Issued {
    /// `dd-mm-yyyy`.
    pub date: String,
    /// `hh:mm:ss`.
    pub time: String,
}

/// The instant in Spanish time.
pub(crate) fn issued(at: DateTime<Utc>) -> Issued {
    // `spain_time` applies the EU summer-time rule; its text carries the local fields.
    let local = crate::verifactu::spain_time(at);
    let local = DateTime::parse_from_rfc3339(&local).expect("spain_time writes RFC 3339");
    Issued {
        date: local.format("%d-%m-%Y").to_string(),
        time: local.format("%H:%M:%S").to_string(),
    }
}

/// `dd-mm-yyyy`.
pub(crate) fn date(d: NaiveDate) -> String {
    d.format("%d-%m-%Y").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spanish_winter_and_summer_time() {
        let winter = issued("2022-02-01T04:00:00Z".parse().unwrap());
        assert_eq!(
            (winter.date.as_str(), winter.time.as_str()),
            ("01-02-2022", "05:00:00")
        );
        let summer = issued("2024-07-19T22:30:05Z".parse().unwrap());
        assert_eq!(
            (summer.date.as_str(), summer.time.as_str()),
            ("20-07-2024", "00:30:05")
        );
    }
}
