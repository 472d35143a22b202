//! Bit-range access on the little-endian 128-bit native and 64-bit compacted words.
//! Ranges are `(high, low)`, inclusive, numbered as the hardware documentation numbers them.

/// A bit range `high..=low` of an instruction word.
pub(super) type Range = (u8, u8);

pub(super) fn mask(r: Range) -> u128 {
    // Shifting all-ones right leaves `width` ones without a branch for the 128-bit case.
    (u128::MAX >> (127 - (r.0 - r.1))) << r.1
}

pub(super) fn get(word: u128, r: Range) -> u128 {
    (word & mask(r)) >> r.1
}

pub(super) fn set(word: u128, r: Range, value: u128) -> u128 {
    (word & !mask(r)) | ((value << r.1) & mask(r))
}

/// Width of a range in bits.
pub(super) fn width(r: Range) -> u8 {
    r.0 - r.1 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

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
