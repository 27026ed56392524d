//! Dates and times as VERI*FACTU writes them: dates `dd-mm-yyyy`, the record's generation
//! time as an `xs:dateTime` with the offset of Spain's peninsular time (CET, CEST in
//! summer), the zone AEAT's examples and the reference use.

use chrono::{DateTime, Datelike, Duration, FixedOffset, NaiveDate, TimeZone, Utc, Weekday};

/// `dd-mm-yyyy`.
pub(crate) fn date(d: NaiveDate) -> String {
    d.format("%d-%m-%Y").to_string()
}

/// The instant in Spain's peninsular time, `yyyy-mm-ddThh:mm:ss+hh:mm` (whole seconds).
pub fn spain_time(at: DateTime<Utc>) -> String {
    let offset = if summer_time(at) { 2 } else { 1 };
    let zone = FixedOffset::east_opt(offset * 3600).expect("a valid offset");
    zone.from_utc_datetime(&at.naive_utc())
        .format("%Y-%m-%dT%H:%M:%S%:z")
        .to_string()
}

/// EU summer time: from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last
/// Sunday of October (Directive 2000/84/EC).
fn summer_time(at: DateTime<Utc>) -> bool {
    let year = at.year();
    let start = last_sunday(year, 3).and_hms_opt(1, 0, 0).expect("a time");
    let end = last_sunday(year, 10).and_hms_opt(1, 0, 0).expect("a time");
    let t = at.naive_utc();
    t >= start && t < end
}

fn last_sunday(year: i32, month: u32) -> NaiveDate {
    let first_next = NaiveDate::from_ymd_opt(year, month + 1, 1).expect("a date");
    let mut d = first_next - Duration::days(1);
    while d.weekday() != Weekday::Sun {
        d -= Duration::days(1);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn winter_is_cet_and_summer_cest() {
        assert_eq!(
            spain_time(utc("2024-11-26T04:00:00Z")),
            "2024-11-26T05:00:00+01:00"
        );
        assert_eq!(
            spain_time(utc("2025-07-10T10:30:15Z")),
            "2025-07-10T12:30:15+02:00"
        );
    }

    #[test]
    fn the_changes_happen_at_one_utc_on_the_last_sundays() {
        // 2025: summer time from 30 March to 26 October.
        assert_eq!(
            spain_time(utc("2025-03-30T00:59:59Z")),
            "2025-03-30T01:59:59+01:00"
        );
        assert_eq!(
            spain_time(utc("2025-03-30T01:00:00Z")),
            "2025-03-30T03:00:00+02:00"
        );
        assert_eq!(
            spain_time(utc("2025-10-26T00:59:59Z")),
            "2025-10-26T02:59:59+02:00"
        );
        assert_eq!(
            spain_time(utc("2025-10-26T01:00:00Z")),
            "2025-10-26T02:00:00+01:00"
        );
    }

    #[test]
    fn dates_are_day_month_year() {
        assert_eq!(
            date(NaiveDate::from_ymd_opt(2024, 1, 9).unwrap()),
            "09-01-2024"
        );
    }
}
