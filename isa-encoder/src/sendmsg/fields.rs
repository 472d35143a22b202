//! Bit-field access shared by the message families.

/// `len` bits of `word` starting at bit `off` (len in 1..=32).
pub const fn bits(word: u32, off: u32, len: u32) -> u32 {
    let shifted = word >> off;
    if len >= 32 {
        shifted
    } else {
        shifted & ((1u32 << len) - 1)
    }
}

/// `word` with `len` bits at `off` set to `value` (which must fit; checked by builders).
pub const fn with_bits(word: u32, off: u32, len: u32, value: u32) -> u32 {
    let mask = if len >= 32 {
        u32::MAX
    } else {
        ((1u32 << len) - 1) << off
    };
    (word & !mask) | ((value << off) & mask)
}
