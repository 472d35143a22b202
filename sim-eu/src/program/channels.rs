//! Which channels of an instruction take part: its width and first channel, NoMask and its
//! predicate. Pre-decoded forms ([`super::fast::Fast`], [`super::simple::Simple`]) keep one,
//! with the width's mask worked out once; the executor turns it into lane masks
//! (`exec::masks`).

use isa_encoder::model::Predicate;

use super::Inst;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Channels {
    /// Channels (1..=32).
    pub n: u8,
    /// The low `n` bits set.
    pub lanes: u32,
    /// The first channel (`M0`..`M28`).
    pub chan_off: u8,
    pub no_mask: bool,
    /// The flag register's first bit in the flag file.
    pub flag_base: u8,
    pub pred: Option<Predicate>,
}

impl Channels {
    pub fn of(inst: &Inst) -> Self {
        Channels {
            n: inst.n,
            lanes: lane_bits(inst.n),
            chan_off: inst.chan_off,
            no_mask: inst.no_mask,
            flag_base: inst.flag_base,
            pred: inst.pred,
        }
    }

    /// Where channel 0's flag bit sits in the flag file.
    #[inline(always)]
    pub fn flag_rot(&self) -> u32 {
        u32::from(self.flag_base) + u32::from(self.chan_off)
    }
}

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
