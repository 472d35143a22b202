//! Reading the fixed-width hex the kernel prints (`0x%08x`, `0x%016llx`): a value with fewer
//! digits than its format is a cut-off line, not a smaller number.

use super::CaptureError;

/// `digits` hex digits exactly (no prefix).
pub(super) fn hex_digits(s: &str, digits: usize) -> Option<u64> {
    if s.len() != digits || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(s, 16).ok()
}

/// `0x` then exactly `digits` hex digits.
pub(super) fn hex(s: &str, digits: usize) -> Option<u64> {
    hex_digits(s.strip_prefix("0x")?, digits)
}

/// A parse failure at 1-based `line`.
pub(super) fn malformed(what: &'static str, line: usize, key: &str, value: &str) -> CaptureError {
    CaptureError::Malformed {
        what,
        line,
        detail: format!("{key} value {value:?} is not what the kernel prints"),
    }
}

/// The first non-blank line and its 1-based number.
pub(super) fn first_line(text: &str) -> Option<(usize, &str)> {
    text.lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_exact() {
        assert_eq!(hex("0x0000abcd", 8), Some(0xabcd));
        assert_eq!(hex("0x0000ab", 8), None);
        assert_eq!(hex("0000abcd", 8), None);
        assert_eq!(hex("0x0000abcg", 8), None);
        assert_eq!(hex("0x+000abcd", 8), None);
        assert_eq!(hex("0xffffffffffffffff", 16), Some(u64::MAX));
    }
}
