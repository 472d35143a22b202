//! Channel masks: bit i stands for channel i.

/// The low `n` bits set (`n` ≤ 32 channels).
#[inline]
pub fn lane_bits(n: u8) -> u32 {
    u32::MAX
        .checked_shr(32u32.saturating_sub(u32::from(n)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::lane_bits;

    #[test]
    fn lane_bits_sets_the_low_n_bits() {
        assert_eq!(lane_bits(0), 0);
        assert_eq!(lane_bits(1), 1);
        assert_eq!(lane_bits(8), 0xff);
        assert_eq!(lane_bits(16), 0xffff);
        assert_eq!(lane_bits(31), 0x7fff_ffff);
        assert_eq!(lane_bits(32), u32::MAX);
    }
}
