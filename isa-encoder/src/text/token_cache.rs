//! Results of parsing single tokens, remembered by the tokens' bytes.
//!
//! Lines of IGC's kernels differ, but their tokens repeat: on the bench's files of distinct
//! lines, 5–6 k distinct operand texts make up 30–40 k operands, and a few hundred mnemonics
//! and execution sizes make up 11–15 k lines. A token of up to 16 bytes is read as two
//! words, and its parse (a pure function of its bytes and a kind) is kept in a direct-mapped
//! table: a hit is a hash, a compare and a copy. A collision only replaces an entry, so text
//! chosen to collide costs at most the parse it would have cost anyway (no chains, no seed).
//! Only successful parses are kept; errors always come from the full path.

/// A token's bytes (at most 16, zero-padded) with its length and what it was parsed as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TokenKey {
    bytes: [u64; 2],
    /// Length in the low byte, the kind above it.
    tag: u16,
}

impl TokenKey {
    /// The key of `token`, parsed as `kind`, read from `text`, the whole text it is a slice
    /// of; `None` if it is longer than 16 bytes, or too close to the text's end to read 16.
    #[inline]
    pub(super) fn new(text: &[u8], token: &str, kind: u8) -> Option<TokenKey> {
        let len = token.len();
        if len == 0 || len > 16 {
            return None;
        }
        // The token is a slice of `text`: its offset there. A token from elsewhere gives an
        // offset whose bytes in `text` are not at the token's address: no key.
        let at = (token.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
        let w: &[u8; 16] = text.get(at..at.checked_add(16)?)?.try_into().ok()?;
        if !std::ptr::eq(w.as_ptr(), token.as_ptr()) {
            return None;
        }
        // The token's `len` bytes (1 to 16), the rest zero, a 64-bit half at a time (a
        // variable 128-bit shift is a branchy sequence).
        let (a, b) = w.split_at(8);
        let a = u64::from_le_bytes(a.try_into().ok()?) & (u64::MAX >> (64 - 8 * len.min(8)));
        let b_mask = if len > 8 {
            u64::MAX >> (128 - 8 * len)
        } else {
            0
        };
        let b = u64::from_le_bytes(b.try_into().ok()?) & b_mask;
        Some(TokenKey {
            bytes: [a, b],
            tag: len as u16 | u16::from(kind) << 8,
        })
    }

    #[inline]
    fn slot(&self, bits: u32) -> usize {
        let h = (self.bytes[0] ^ self.bytes[1].rotate_left(29) ^ u64::from(self.tag))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - bits)) as usize
    }
}

/// A direct-mapped table of `2^bits` parsed tokens.
pub(super) struct TokenCache<V> {
    bits: u32,
    slots: Vec<Option<(TokenKey, V)>>,
}

impl<V: Copy> TokenCache<V> {
    /// A table of `2^bits` slots (`bits` from 1 to 16).
    pub(super) fn new(bits: u32) -> TokenCache<V> {
        let bits = bits.clamp(1, 16);
        TokenCache {
            bits,
            slots: vec![None; 1 << bits],
        }
    }

    /// A table for a text of `len` bytes: about one slot per `bytes_per_slot` bytes, from
    /// `2^min_bits` to `2^max_bits` slots.
    pub(super) fn for_text(
        len: usize,
        bytes_per_slot: usize,
        min_bits: u32,
        max_bits: u32,
    ) -> Self {
        let want = (len / bytes_per_slot.max(1)).max(1);
        let bits = usize::BITS - (want - 1).leading_zeros();
        TokenCache::new(bits.clamp(min_bits, max_bits))
    }

    #[inline]
    pub(super) fn get(&self, key: &TokenKey) -> Option<V> {
        match self.slots.get(key.slot(self.bits)) {
            Some(Some((k, v))) if k == key => Some(*v),
            _ => None,
        }
    }

    pub(super) fn put(&mut self, key: TokenKey, v: V) {
        if let Some(slot) = self.slots.get_mut(key.slot(self.bits)) {
            *slot = Some((key, v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_tokens_bytes() {
        let text = "r1.0<1>:f  r1.0<1>:ud r1.0<1>:f                   tail-of-text";
        let tok = |from: usize, len: usize| &text[from..from + len];
        let a = TokenKey::new(text.as_bytes(), tok(0, 9), 0);
        let b = TokenKey::new(text.as_bytes(), tok(22, 9), 0);
        assert!(a.is_some() && a == b);
        // Different bytes (here the ninth), length or kind: different keys.
        assert!(a != TokenKey::new(text.as_bytes(), tok(11, 9), 0));
        assert!(a != TokenKey::new(text.as_bytes(), tok(0, 8), 0));
        assert!(a != TokenKey::new(text.as_bytes(), tok(0, 9), 1));
        // Short tokens ignore the bytes after them.
        assert_eq!(
            TokenKey::new(text.as_bytes(), tok(0, 2), 0),
            TokenKey::new(text.as_bytes(), tok(22, 2), 0)
        );
        // Too long, too near the end, or not a slice of the text: no key.
        assert!(TokenKey::new(text.as_bytes(), tok(0, 17), 0).is_none());
        assert!(TokenKey::new(text.as_bytes(), tok(text.len() - 4, 4), 0).is_none());
        let elsewhere = String::from("r1.0<1>:f");
        assert!(TokenKey::new(text.as_bytes(), &elsewhere, 0).is_none());
    }

    #[test]
    fn a_table_gives_back_what_was_put() {
        let text = "abc abd abc                 ";
        let key = |from| TokenKey::new(text.as_bytes(), &text[from..from + 3], 0).unwrap();
        let mut t: TokenCache<u32> = TokenCache::new(4);
        assert_eq!(t.get(&key(0)), None);
        t.put(key(0), 7);
        assert_eq!(t.get(&key(8)), Some(7));
        assert_eq!(t.get(&key(4)), None);
    }
}
