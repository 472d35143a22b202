//! Conditional modifiers' results into the flag register, shared by the ALU and the IEEE macros.

use crate::program::Inst;
use crate::regfile::Thread;

/// Sets the flag bits of the lanes in `mask` to `bits` (lane i = bit i).
pub fn write_flags(t: &mut Thread, inst: &Inst, mask: u32, bits: u32) {
    let rot = u32::from(inst.flag_base) + u32::from(inst.chan_off);
    let m = u64::from(mask).rotate_left(rot);
    let v = u64::from(bits).rotate_left(rot);
    let f = t.flags();
    t.set_flags((f & !m) | (v & m));
}
