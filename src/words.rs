//! Numbers in words, for messages and summaries: thousands separators, and a count with the
//! noun that agrees with it.

/// `n` with thousands separators: `1234567` -> `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` with thousands separators and the noun that agrees with it: `1 record`, `0 records`,
/// `1,204 records`.
pub fn count(n: u64, singular: &str, plural: &str) -> String {
    format!(
        "{} {}",
        thousands(n),
        if n == 1 { singular } else { plural }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(count(0, "record", "records"), "0 records");
        assert_eq!(count(1, "record", "records"), "1 record");
        assert_eq!(count(2, "record", "records"), "2 records");
        assert_eq!(count(1001, "record", "records"), "1,001 records");
    }
}
