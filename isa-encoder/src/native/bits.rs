//! A 128-bit instruction word with field access by bit range, shared by the native codecs.

/// A value wider than the field it was to be written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldOverflow;

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
    pub fn get(&self, lo: u32, hi: u32) -> u64 {
        let w = hi - lo + 1;
        ((self.0 >> lo) & ((1u128 << w) - 1)) as u64
    }

    /// One bit.
    pub fn bit(&self, b: u32) -> bool {
        self.get(b, b) != 0
    }

    /// Sets bits `lo..=hi` to `v`; an error if `v` does not fit (nothing is written then).
    pub fn set(&mut self, lo: u32, hi: u32, v: u64) -> Result<(), FieldOverflow> {
        let w = hi - lo + 1;
        let mask = (1u128 << w) - 1;
        if (v as u128) & !mask != 0 {
            return Err(FieldOverflow);
        }
        self.0 = (self.0 & !(mask << lo)) | ((v as u128) << lo);
        Ok(())
    }

    /// Sets one bit.
    pub fn set_bit(&mut self, b: u32, v: bool) {
        self.0 = (self.0 & !(1u128 << b)) | ((v as u128) << b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
