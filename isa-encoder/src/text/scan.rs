//! Splits assembly text into lines of whitespace-separated tokens, 64 bytes at a time.
//!
//! iga64 pads its columns with long runs of spaces and its tokens are short, so the scanner
//! classifies a 64-byte window at once into bit masks (SSE2 compares on x86_64): each token's
//! start and end are then the lowest set bit of a mask. The rare tokens that need a closer
//! look (`{...}`, a '/') are read a 64-bit word per step (SWAR).

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

/// The bytes of a 64-byte window of the text, as bit masks (bit `i` for byte `i`).
struct Window {
    /// Whitespace other than newline: ' ', '\t', '\x0C', '\r' (and padding past the end).
    blank: u64,
    /// '\n'.
    newline: u64,
    /// '{' and '/', which start tokens of their own or comments.
    special: u64,
}

/// Per byte of `w`: (is it at most ' ', is it ' ', is it '{' or '/'), as bit masks.
#[cfg(target_arch = "x86_64")]
fn classify(w: &[u8; 64]) -> (u64, u64, u64) {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    let (mut low, mut space, mut special) = (0u64, 0u64, 0u64);
    for (k, part) in w.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always
        // available; the load reads the 16 bytes of `part` (an unaligned load is allowed).
        let (l, s, x) = unsafe {
            let v = _mm_loadu_si128(part.as_ptr().cast::<__m128i>());
            let sp = _mm_set1_epi8(b' ' as i8);
            let l = _mm_cmpeq_epi8(_mm_min_epu8(v, sp), v);
            let s = _mm_cmpeq_epi8(v, sp);
            let x = _mm_or_si128(
                _mm_cmpeq_epi8(v, _mm_set1_epi8(b'{' as i8)),
                _mm_cmpeq_epi8(v, _mm_set1_epi8(b'/' as i8)),
            );
            (
                _mm_movemask_epi8(l) as u16,
                _mm_movemask_epi8(s) as u16,
                _mm_movemask_epi8(x) as u16,
            )
        };
        low |= u64::from(l) << (16 * k);
        space |= u64::from(s) << (16 * k);
        special |= u64::from(x) << (16 * k);
    }
    (low, space, special)
}

/// Per byte of `w`: (is it at most ' ', is it ' ', is it '{' or '/'), as bit masks.
#[cfg(not(target_arch = "x86_64"))]
fn classify(w: &[u8; 64]) -> (u64, u64, u64) {
    let (mut low, mut space, mut special) = (0u64, 0u64, 0u64);
    for (k, &c) in w.iter().enumerate() {
        low |= u64::from(c <= b' ') << k;
        space |= u64::from(c == b' ') << k;
        special |= u64::from(c == b'{' || c == b'/') << k;
    }
    (low, space, special)
}

impl Window {
    /// The 64 bytes from `k`; past the end of `b` the window holds spaces.
    fn at(b: &[u8], k: usize) -> Window {
        let (low, space, special) = match b.get(k..k + 64) {
            Some(w) => classify(w.try_into().unwrap_or(&[b' '; 64])),
            None => {
                let mut w = [b' '; 64];
                let rest = b.get(k..).unwrap_or_default();
                w[..rest.len()].copy_from_slice(rest);
                classify(&w)
            }
        };
        let mut w = Window {
            blank: space,
            newline: 0,
            special,
        };
        // Control bytes are rare (a newline a line): sort them by the byte class table.
        let mut other = low & !space;
        while other != 0 {
            let i = other.trailing_zeros() as usize;
            other &= other - 1;
            match b.get(k + i).map(|&c| CLASS[usize::from(c)]) {
                Some(SPACE) => w.blank |= 1 << i,
                Some(NEWLINE) => w.newline |= 1 << i,
                _ => {}
            }
        }
        w
    }
}

/// Where the line starting at `k` ends: its '\n', or the end of `b`.
pub(super) fn line_end(b: &[u8], mut k: usize) -> usize {
    while let Some(w) = b.get(k..k + 64) {
        let (low, space, _) = classify(w.try_into().unwrap_or(&[b' '; 64]));
        // Control bytes other than spaces are few (a newline a line): check each.
        let mut c = low & !space;
        while c != 0 {
            let i = c.trailing_zeros() as usize;
            if w.get(i) == Some(&b'\n') {
                return k + i;
            }
            c &= c - 1;
        }
        k += 64;
    }
    let k = k.min(b.len());
    b[k..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |n| k + n)
}

/// The bits at and above `i` (none for `i` >= 64).
fn from_bit(i: u32) -> u64 {
    u64::MAX.checked_shl(i).unwrap_or(0)
}

/// Splits the line of `text` starting at byte `k` into `toks` (cleared first), up to a `//`
/// comment, and returns where the next line starts. `{...}` is one token even with spaces
/// inside. One pass over the bytes finds both the tokens and the line's end.
///
/// The bytes are looked at 64 at a time ([`Window`]): the start of each token and its end
/// come from bit masks. Tokens that begin with '{' or '/', or run on past a '/' that starts
/// no comment, are read byte-wise ([`scalar_token`]).
pub(super) fn next_line<'a>(text: &'a str, k: usize, toks: &mut Vec<Tok<'a>>) -> usize {
    toks.clear();
    let b = text.as_bytes();
    let line_start = k;
    // The window's first byte, and the first byte in it not yet consumed.
    let mut base = k;
    let mut w = Window::at(b, base);
    let mut from = 0u32;
    loop {
        let nonblank = !w.blank & from_bit(from);
        if nonblank == 0 {
            base += 64;
            if base >= b.len() {
                return b.len();
            }
            w = Window::at(b, base);
            from = 0;
            continue;
        }
        let s = nonblank.trailing_zeros();
        let start = base + s as usize;
        if start >= b.len() {
            return b.len();
        }
        if w.newline & (1 << s) != 0 {
            return start + 1;
        }
        let end = if w.special & (1 << s) != 0 {
            match scalar_token(b, start) {
                Some(end) => end,
                // A comment: the line ends at the next newline.
                None => {
                    return b[start..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .map_or(b.len(), |n| start + n + 1)
                }
            }
        } else {
            let stop = (w.blank | w.newline | w.special) & from_bit(s + 1);
            if stop == 0 {
                if s == 0 {
                    // Longer than a window.
                    scalar_token(b, start).unwrap_or(b.len())
                } else {
                    // Runs past the window: look again from the token's start.
                    base = start;
                    w = Window::at(b, base);
                    from = 0;
                    continue;
                }
            } else {
                let e = stop.trailing_zeros();
                let end = base + e as usize;
                if w.special & (1 << e) != 0 && b.get(end) == Some(&b'/') && !comment(b, end) {
                    // A '/' inside the token.
                    scalar_token(b, start).unwrap_or(b.len())
                } else {
                    end.min(b.len())
                }
            }
        };
        if let Some(t) = text.get(start..end) {
            toks.push(Tok {
                text: t,
                col: start - line_start + 1,
            });
        }
        if end >= base + 64 {
            base = end;
            w = Window::at(b, base);
            from = 0;
        } else {
            from = (end - base) as u32;
        }
    }
}

/// True if a comment starts at `k` (`b[k]` is '/').
fn comment(b: &[u8], k: usize) -> bool {
    b.get(k + 1) == Some(&b'/')
}

/// The end of the token starting at `k` (not whitespace), byte by byte; `None` if a comment
/// starts there instead.
fn scalar_token(b: &[u8], mut k: usize) -> Option<usize> {
    let c = *b.get(k)?;
    match CLASS[usize::from(c)] {
        SLASH if comment(b, k) => None,
        BRACE => loop {
            let (at, c) = brace_end_candidate(b, k + 1);
            k = at;
            match c {
                Some(b'}') => return Some(k + 1),
                Some(b'/') if !comment(b, k) => {}
                _ => return Some(k),
            }
        },
        _ => loop {
            let (at, c) = token_end_candidate(b, k + 1);
            k = at;
            // Control bytes other than whitespace, and a '/' not starting a comment,
            // belong to the token.
            match c.map(|c| CLASS[usize::from(c)]) {
                Some(OTHER) => {}
                Some(SLASH) if !comment(b, k) => {}
                _ => return Some(k),
            }
        },
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
        agrees_on_random_texts(&alphabet, 0x2545_f491_4f6c_dd1d, 40);
    }

    /// Lines longer than the 64-byte window, tokens across its edges and past the end.
    #[test]
    fn agrees_with_the_plain_definition_on_long_random_lines() {
        let alphabet = [
            " ",
            "                ",
            "                                  ",
            "\n",
            "\t",
            "{",
            "}",
            "/",
            "//",
            "r12.0<8;8,1>:f",
            "(W)",
            "{Compacted, $3.dst}",
            "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789",
            "\x01",
            "\x0b",
            "é",
        ];
        agrees_on_random_texts(&alphabet, 0x9e37_79b9_7f4a_7c15, 60);
    }

    /// 3000 texts of up to `max_pieces` pieces drawn from `alphabet` (xorshift from `seed`)
    /// scan as the plain definition does.
    fn agrees_on_random_texts(alphabet: &[&str], mut seed: u64, max_pieces: u64) {
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..next() % max_pieces {
                text.push_str(alphabet[(next() % alphabet.len() as u64) as usize]);
            }
            assert_eq!(scanned(&text), reference(&text), "{text:?}");
        }
    }

    #[test]
    fn line_ends_are_where_the_scanner_ends_lines() {
        let text = "a b\n\n   x {y z} // c\r\n".repeat(9) + &" ".repeat(70) + "\t\x01q";
        let mut toks = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let end = line_end(text.as_bytes(), at);
            let next = next_line(&text, at, &mut toks);
            assert_eq!((end + 1).min(text.len()), next, "{at}");
            assert!(end == text.len() || text.as_bytes()[end] == b'\n');
            at = next;
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
