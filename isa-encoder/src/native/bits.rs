//! A 128-bit instruction word with field access by bit range, shared by the native codecs.

/// A value wider than the field it was to be written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldOverflow;

/// The low `w` bits set, for 1 <= `w` <= 64.
#[inline(always)]
fn ones(w: u32) -> u64 {
    u64::MAX >> (64 - w)
}

/// 128 instruction bits, little-endian as stored in a kernel (bit 0 = byte 0 bit 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bits(pub u128);

impl Bits {
    /// From the 16 bytes of a native instruction.
    pub fn from_bytes(b: &[u8; 16]) -> Bits {
        Bits(u128::from_le_bytes(*b))
    }

    /// The 16 bytes of a native instruction.
    pub fn to_bytes(self) -> [u8; 16] {
        self.0.to_le_bytes()
    }

    /// Bits `lo..=hi` (inclusive, as the PRM and IGA write field positions).
    // Inlined: field positions are constants at nearly every call, which then fold away.
    #[inline(always)]
    pub fn get(&self, lo: u32, hi: u32) -> u64 {
        // Most fields lie in one 64-bit half, where a shift is one instruction instead of the
        // several a variable 128-bit shift takes.
        let w = hi - lo + 1;
        if hi < 64 {
            ((self.0 as u64) >> lo) & ones(w)
        } else if lo >= 64 {
            ((self.0 >> 64) as u64 >> (lo - 64)) & ones(w)
        } else {
            ((self.0 >> lo) & ((1u128 << w) - 1)) as u64
        }
    }

    /// One bit.
    #[inline(always)]
    pub fn bit(&self, b: u32) -> bool {
        self.get(b, b) != 0
    }

    /// Sets bits `lo..=hi` to `v`; an error if `v` does not fit (nothing is written then).
    #[inline(always)]
    pub fn set(&mut self, lo: u32, hi: u32, v: u64) -> Result<(), FieldOverflow> {
        let w = hi - lo + 1;
        if w < 64 && v >> w != 0 {
            return Err(FieldOverflow);
        }
        // As in `get`: within one half, 64-bit shifts.
        if hi < 64 {
            let half = ((self.0 as u64) & !(ones(w) << lo)) | (v << lo);
            self.0 = (self.0 & !u128::from(u64::MAX)) | u128::from(half);
        } else if lo >= 64 {
            let at = lo - 64;
            let half = (((self.0 >> 64) as u64) & !(ones(w) << at)) | (v << at);
            self.0 = (self.0 & u128::from(u64::MAX)) | (u128::from(half) << 64);
        } else {
            let mask = (1u128 << w) - 1;
            self.0 = (self.0 & !(mask << lo)) | ((v as u128) << lo);
        }
        Ok(())
    }

    /// Sets one bit.
    #[inline(always)]
    pub fn set_bit(&mut self, b: u32, v: bool) {
        // A one-bit field always fits.
        let _ = self.set(b, b, u64::from(v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 128-bit definitions the half-word forms must agree with.
    fn get_ref(b: u128, lo: u32, hi: u32) -> u64 {
        ((b >> lo) & ((1u128 << (hi - lo + 1)) - 1)) as u64
    }

    #[test]
    fn halves_agree_with_128_bit_shifts() {
        let words = [0u128, u128::MAX, 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210];
        for lo in 0..128 {
            for hi in lo..128.min(lo + 64) {
                let w = hi - lo + 1;
                for word in words {
                    let b = Bits(word);
                    assert_eq!(b.get(lo, hi), get_ref(word, lo, hi), "{lo}..{hi}");
                    for v in [0u64, 1, 0x5a5a_5a5a_5a5a_5a5a, u64::MAX] {
                        let mut b = Bits(word);
                        let fits = w == 64 || v >> w == 0;
                        assert_eq!(b.set(lo, hi, v).is_ok(), fits, "{lo}..{hi}");
                        let mask = ((1u128 << w) - 1) << lo;
                        let want = if fits {
                            (word & !mask) | (u128::from(v) << lo)
                        } else {
                            word
                        };
                        assert_eq!(b.0, want, "{lo}..{hi} {v:#x}");
                    }
                }
            }
        }
    }

    #[test]
    fn fields_round_trip() {
        let mut b = Bits::default();
        b.set(29, 29, 1).unwrap();
        b.set(96, 127, 0xDEAD_BEEF).unwrap();
        assert_eq!(b.get(96, 127), 0xDEAD_BEEF);
        assert!(b.bit(29));
        assert_eq!(b.to_bytes()[3], 0x20);
        assert!(b.set(0, 6, 0x80).is_err());
    }
}
