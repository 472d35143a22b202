//! Splits assembly text into lines of whitespace-separated tokens, eight bytes at a time.
//!
//! iga64 pads its columns with long runs of spaces and its tokens are short, so the scanner
//! looks at a 64-bit word per step (SWAR): the first byte that is not a space, or the first
//! byte that may end a token, is found with a few word operations instead of a test per byte.

/// A whitespace-separated token with its 1-based column.
#[derive(Debug, Clone, Copy)]
pub(super) struct Tok<'a> {
    pub text: &'a str,
    pub col: usize,
}

/// Byte classes: one table look-up per byte where the word-wise search needs confirming.
const OTHER: u8 = 0;
const SPACE: u8 = 1;
const NEWLINE: u8 = 2;
const SLASH: u8 = 3;
const BRACE: u8 = 4;
/// Whitespace as `u8::is_ascii_whitespace` has it.
const CLASS: [u8; 256] = {
    let mut c = [OTHER; 256];
    c[b' ' as usize] = SPACE;
    c[b'\t' as usize] = SPACE;
    c[0x0C] = SPACE;
    c[b'\r' as usize] = SPACE;
    c[b'\n' as usize] = NEWLINE;
    c[b'{' as usize] = BRACE;
    c[b'/' as usize] = SLASH;
    c
};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` below `n` (`n` <= 128). Borrows may flag bytes above the
/// first one found, never below it, so only the lowest flag is exact — the one used here.
fn bytes_below(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * u64::from(n)) & !x & HIGHS
}

/// The high bit of each byte of `x` equal to `c` (lowest flag exact, as above).
fn bytes_equal(x: u64, c: u8) -> u64 {
    bytes_below(x ^ (ONES * u64::from(c)), 1)
}

/// The eight bytes at `k`, if there are eight.
fn word(b: &[u8], k: usize) -> Option<u64> {
    let w: [u8; 8] = b.get(k..k + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

/// The first byte at or after `k` that `hit_byte` accepts, and its value (`None` past the
/// end). `hit_word` flags such bytes in a word, exactly for the lowest one it flags. The byte
/// comes out of the word already loaded: reading it again from the text would put another
/// load on the path from one token to the next.
fn find(
    b: &[u8],
    mut k: usize,
    hit_word: impl Fn(u64) -> u64,
    hit_byte: impl Fn(u8) -> bool,
) -> (usize, Option<u8>) {
    while let Some(w) = word(b, k) {
        let hit = hit_word(w);
        if hit != 0 {
            let bit = hit.trailing_zeros() & !7;
            return (k + (bit / 8) as usize, Some((w >> bit) as u8));
        }
        k += 8;
    }
    while let Some(&c) = b.get(k) {
        if hit_byte(c) {
            return (k, Some(c));
        }
        k += 1;
    }
    (k, None)
}

/// The first byte at or after `k` that is not a space (' '; other whitespace is left to the
/// caller's class test).
fn skip_spaces(b: &[u8], k: usize) -> (usize, Option<u8>) {
    find(b, k, |w| w ^ (ONES * u64::from(b' ')), |c| c != b' ')
}

/// The first byte at or after `k` that may end a plain token: whitespace or another control
/// byte, '{' or '/'. The caller confirms it with [`CLASS`].
fn token_end_candidate(b: &[u8], k: usize) -> (usize, Option<u8>) {
    find(
        b,
        k,
        |w| bytes_below(w, b' ' + 1) | bytes_equal(w, b'{') | bytes_equal(w, b'/'),
        |c| c <= b' ' || c == b'{' || c == b'/',
    )
}

/// The first byte at or after `k` that may end a `{...}` token: '}', a newline, or a '/'
/// (which the caller checks for a comment).
fn brace_end_candidate(b: &[u8], k: usize) -> (usize, Option<u8>) {
    find(
        b,
        k,
        |w| bytes_equal(w, b'}') | bytes_equal(w, b'\n') | bytes_equal(w, b'/'),
        |c| c == b'}' || c == b'\n' || c == b'/',
    )
}

/// Splits the line of `text` starting at byte `k` into `toks` (cleared first), up to a `//`
/// comment, and returns where the next line starts. `{...}` is one token even with spaces
/// inside. One pass over the bytes finds both the tokens and the line's end.
pub(super) fn next_line<'a>(text: &'a str, mut k: usize, toks: &mut Vec<Tok<'a>>) -> usize {
    toks.clear();
    let b = text.as_bytes();
    let line_start = k;
    let comment = |k: usize| b.get(k + 1) == Some(&b'/');
    loop {
        let (at, c) = skip_spaces(b, k);
        k = at;
        let Some(c) = c else {
            return k;
        };
        let start = k;
        match CLASS[usize::from(c)] {
            SPACE => {
                k += 1;
                continue;
            }
            NEWLINE => return k + 1,
            SLASH if comment(k) => {
                return b[k..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |n| k + n + 1);
            }
            BRACE => loop {
                let (at, c) = brace_end_candidate(b, k + 1);
                k = at;
                match c {
                    Some(b'}') => {
                        k += 1;
                        break;
                    }
                    Some(b'/') if !comment(k) => {}
                    _ => break,
                }
            },
            _ => loop {
                let (at, c) = token_end_candidate(b, k + 1);
                k = at;
                // Control bytes other than whitespace, and a '/' not starting a comment,
                // belong to the token.
                match c.map(|c| CLASS[usize::from(c)]) {
                    Some(OTHER) => {}
                    Some(SLASH) if !comment(k) => {}
                    _ => break,
                }
            },
        }
        if let Some(t) = text.get(start..k) {
            toks.push(Tok {
                text: t,
                col: start - line_start + 1,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition the word-wise scanner must agree with.
    fn reference(text: &str) -> Vec<Vec<(String, usize)>> {
        let mut lines = Vec::new();
        for line in text.split('\n') {
            let line = match line.find("//") {
                Some(c) => &line[..c],
                None => line,
            };
            let b = line.as_bytes();
            let mut toks = Vec::new();
            let mut k = 0;
            while k < b.len() {
                if b[k].is_ascii_whitespace() {
                    k += 1;
                    continue;
                }
                let start = k;
                if b[k] == b'{' {
                    k = line[k..].find('}').map_or(b.len(), |e| k + e + 1);
                } else {
                    k += 1;
                    while k < b.len() && !b[k].is_ascii_whitespace() && b[k] != b'{' {
                        k += 1;
                    }
                }
                toks.push((line[start..k].to_string(), start + 1));
            }
            lines.push(toks);
        }
        lines
    }

    fn scanned(text: &str) -> Vec<Vec<(String, usize)>> {
        let mut lines = Vec::new();
        let mut toks = Vec::new();
        let mut at = 0;
        while at < text.len() {
            at = next_line(text, at, &mut toks);
            lines.push(toks.iter().map(|t| (t.text.to_string(), t.col)).collect());
        }
        // A text ending in '\n' has no further (empty) line.
        if text.is_empty() || text.ends_with('\n') {
            lines.push(Vec::new());
        }
        lines
    }

    #[test]
    fn agrees_with_the_plain_definition() {
        let samples = [
            "",
            "        mov (16|M0)              r10.0<1>:f    r2.0<1;1,0>:f                    {Compacted}\n",
            "(W)     send.dc0 (1|M0)  null r3 null 0x0 0x2000 {$1}   // a comment\nL16:\n",
            "a/b c//d\n\t\tx\x01y {A, B} z{q}\r\n{unterminated",
            "                                        x",
            "       \t   tab   after   spaces          \x0c  formfeed/",
            "é ünïcode  r1 // é\nnext",
        ];
        for s in samples {
            assert_eq!(scanned(s), reference(s), "{s:?}");
        }
    }

    #[test]
    fn agrees_with_the_plain_definition_on_random_text() {
        let alphabet = [
            " ", " ", " ", "        ", "\t", "\n", "\r", "\x0c", "{", "}", "/", "//", "a", "r1",
            ":f", "\x01", "é", "(W)", ",",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..3000 {
            let mut text = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for _ in 0..seed % 40 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            assert_eq!(scanned(&text), reference(&text), "{text:?}");
        }
    }

    #[test]
    fn word_searches_find_the_first_byte() {
        let w = u64::from_le_bytes(*b"ab{d/ \nh");
        assert_eq!(bytes_equal(w, b'{').trailing_zeros() / 8, 2);
        assert_eq!(bytes_equal(w, b'/').trailing_zeros() / 8, 4);
        assert_eq!(bytes_below(w, b' ' + 1).trailing_zeros() / 8, 5);
        assert_eq!(bytes_equal(w, b'z'), 0);
    }
}
