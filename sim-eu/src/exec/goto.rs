//! Which channels a `goto` sends to its UIP, per generation.
//!
//! On Gen9 a forward `goto` sends the enabled channels whose predicate is FALSE (the same way
//! an `if` sends its false channels to JIP); from Gen11 on, and for a backward `goto` on every
//! generation, the channels whose predicate is TRUE jump. IGC's CFG structurizer relies on
//! this: for BDW/SKL it inverts a forward goto's predicate, and makes an unconditional forward
//! goto `(f) goto` after `mov f = 0` (ocloc's skl output shows both; its icllp, tgllp and
//! acm-g10 output for the same kernel uses the predicate as written and a plain `goto`).

use platform::Platform;

/// Per platform (in [`Platform`] order): a forward goto's jumping channels are those whose
/// predicate is false.
const FORWARD_JUMPS_ON_FALSE: [bool; 4] = [
    true,  // Skl
    false, // Icllp
    false, // Tgllp
    false, // Dg2
];

/// The channels of `active` (with predicate `pred`, already shifted like `active`) that a
/// `goto` at instruction `at` with UIP `to` sends to `to`.
pub fn jumping(p: Platform, at: u32, to: u32, active: u32, pred: u32) -> u32 {
    if to > at && FORWARD_JUMPS_ON_FALSE[p as usize] {
        active & !pred
    } else {
        pred & active
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gen9_forward_goto_sends_false_channels() {
        assert_eq!(jumping(Platform::Skl, 3, 9, 0xff, 0x0f), 0xf0);
        // Backward: the true channels, as on the later generations.
        assert_eq!(jumping(Platform::Skl, 9, 3, 0xff, 0x0f), 0x0f);
        for p in [Platform::Icllp, Platform::Tgllp, Platform::Dg2] {
            assert_eq!(jumping(p, 3, 9, 0xff, 0x0f), 0x0f);
        }
    }
}
