//! Which channels of an instruction take part: its width and first channel, NoMask and its
//! predicate. Pre-decoded forms ([`super::fast::Fast`], [`super::simple::Simple`]) keep one,
//! with the width's mask worked out once; the executor turns it into lane masks
//! (`exec::masks`).

use isa_encoder::model::Predicate;

use super::Inst;
use crate::lane_mask::lane_bits;

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
