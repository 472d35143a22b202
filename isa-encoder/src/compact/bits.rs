//! Bit-range access on the little-endian 128-bit native and 64-bit compacted words.
//! Ranges are `(high, low)`, inclusive, numbered as the hardware documentation numbers them.

/// A bit range `high..=low` of an instruction word.
pub(super) type Range = (u8, u8);

pub(super) fn mask(r: Range) -> u128 {
    // Shifting all-ones right leaves `width` ones without a branch for the 128-bit case.
    (u128::MAX >> (127 - (r.0 - r.1))) << r.1
}

/// The low `w` bits set, for 1 <= `w` <= 64.
fn ones(w: u8) -> u64 {
    u64::MAX >> (64 - w)
}

// `get` and `set` work on one 64-bit half where the range lies in one (every compacted field
// and most native ones): a 64-bit shift is one instruction, a variable 128-bit one several.

pub(super) fn get(word: u128, r: Range) -> u128 {
    let (hi, lo) = r;
    if hi < 64 {
        u128::from(((word as u64) >> lo) & ones(width(r)))
    } else if lo >= 64 {
        u128::from(((word >> 64) as u64 >> (lo - 64)) & ones(width(r)))
    } else {
        (word & mask(r)) >> lo
    }
}

pub(super) fn set(word: u128, r: Range, value: u128) -> u128 {
    let (hi, lo) = r;
    if hi < 64 {
        let m = ones(width(r)) << lo;
        let half = ((word as u64) & !m) | (((value as u64) << lo) & m);
        (word & !u128::from(u64::MAX)) | u128::from(half)
    } else if lo >= 64 {
        let m = ones(width(r)) << (lo - 64);
        let half = (((word >> 64) as u64) & !m) | (((value as u64) << (lo - 64)) & m);
        (word & u128::from(u64::MAX)) | (u128::from(half) << 64)
    } else {
        (word & !mask(r)) | ((value << lo) & mask(r))
    }
}

/// Width of a range in bits.
pub(super) fn width(r: Range) -> u8 {
    r.0 - r.1 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_agree_with_128_bit_masks() {
        let words = [0u128, u128::MAX, 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210];
        let values = [0u128, 1, 0x5a5a_5a5a_5a5a_5a5a_5a5a, u128::MAX];
        for lo in 0..128u8 {
            for hi in lo..128 {
                let r = (hi, lo);
                for word in words {
                    assert_eq!(get(word, r), (word & mask(r)) >> lo, "{r:?}");
                    for v in values {
                        let want = (word & !mask(r)) | ((v << lo) & mask(r));
                        assert_eq!(set(word, r, v), want, "{r:?} {v:#x}");
                    }
                }
            }
        }
    }

    #[test]
    fn get_set_round_trip() {
        let w = set(0, (39, 35), 0b10110);
        assert_eq!(w, 0b10110u128 << 35);
        assert_eq!(get(w, (39, 35)), 0b10110);
        assert_eq!(get(set(u128::MAX, (7, 0), 0), (15, 0)), 0xff00);
        assert_eq!(get(set(0, (127, 96), 0xffff_ffff), (127, 96)), 0xffff_ffff);
        assert_eq!(width((127, 0)), 128);
        assert_eq!(mask((127, 0)), u128::MAX);
    }
}
