//! synccheck of sub-group functions: cl_khr_subgroups and cl_intel_subgroups require every
//! work-item of a sub-group to encounter them (converged control flow). A thread's control
//! flow has disabled some of its dispatched lanes when `active & live != live`; two of the
//! forms IGC (Debian ocloc 22.43) gives the built-ins are recognized then:
//!
//! - Block writes and media block reads and writes (`intel_sub_group_block_write*`, the
//!   image and media block built-ins): HDC OWord block writes, the media block messages and
//!   transposed LSC stores. IGC uses none of them for anything else but register spills
//!   (scratch messages, left out); a uniform store in divergent code is a `(W)` scattered
//!   write, or on Xe-HPG a transposed store of fewer bytes than the walker has lanes (`d32x1t`,
//!   `d32x2t` at SIMD16: not a block, `rules::classify`). Buffer block *reads* are not checked:
//!   IGC loads uniform values with the same
//!   OWord block read, legitimately inside divergent code.
//! - Shuffles (`intel_sub_group_shuffle*`, `sub_group_shuffle*` with a per-lane index): a
//!   per-lane indirect register read (`mov (16|M0) r22 r[a0.0]<1,0>:d`) whose address
//!   register IGC set just before as `add a0.0 index_bytes base` and whose `base` register a
//!   per-lane (not `(W)`) instruction wrote. A lane reading another lane's slot of that
//!   variable where that lane is dispatched but disabled reads a value it never computed.
//!   IGC indexes private arrays it keeps in registers the same way, but each lane reads its
//!   own slot there; a uniform table (written under `(W)`) is left out.

use isa_encoder::model::Opcode;
use isa_encoder::sendmsg::{lsc, Sfid};
use platform::Platform;

use super::rules::Kind;
use crate::program::operand::{type_bytes, Loc};
use crate::program::{Inst, Program};
use crate::regfile::{Thread, A0, REG_BYTES};

/// A message `kind` that only sub-group block built-ins use; `spill` for scratch messages.
pub fn is_block_collective(kind: Kind, spill: bool) -> bool {
    !spill
        && matches!(
            kind,
            Kind::BlockWrite | Kind::BlockWriteOwords { .. } | Kind::MediaRead | Kind::MediaWrite
        )
}

/// Whether the message with `sfid` and descriptor `desc` on `p` is an LSC access through a
/// surface state (`ss`/`bss`: IGC's scratch space, its spills).
pub fn is_surface_state_lsc(p: Platform, sfid: u8, desc: u32) -> bool {
    Sfid::decode(p, sfid) == Some(Sfid::Ugm)
        && matches!(
            lsc::field(desc, lsc::ADDR_TYPE),
            lsc::ADDR_SS | lsc::ADDR_BSS
        )
}

/// The lanes of `t` its control flow disabled (dispatched, not active); 0 when converged.
pub fn disabled(t: &Thread) -> u32 {
    t.live & !t.active
}

/// The sentence of a block message executed with `disabled` lanes off.
pub fn block_sentence(kind: Kind, thread: u32, active: u32, disabled: u32) -> String {
    let what = match kind {
        Kind::MediaRead => "image or media block read",
        Kind::MediaWrite => "image or media block write",
        _ => "sub-group block write",
    };
    format!(
        "{what} in divergent control flow: lanes {active:#x} of sub-group {thread} execute it, \
         lanes {disabled:#x} do not (cl_intel_subgroups: sub-group functions must be \
         encountered by all work-items in the sub-group)"
    )
}

/// What the shuffle rule knows of a per-lane indirect read: the byte offset in the register
/// file of the variable it reads (IGC's `add a0 ... base`), or None where the read is not a
/// shuffle's form (no such `add`, the variable written under `(W)`: uniform).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    base: u32,
}

/// The per-lane indirect source of `inst`: its index and its address-register subregister and
/// offset.
fn vxh_source(inst: &Inst) -> Option<(usize, u8, i16)> {
    inst.src[..usize::from(inst.nsrc)]
        .iter()
        .enumerate()
        .find_map(|(k, s)| match s.loc {
            Loc::Indirect {
                addr_sub,
                offset,
                vxh_width,
            } if vxh_width > 0 => Some((k, addr_sub, offset)),
            _ => None,
        })
}

/// Whether `inst` reads a source through per-lane address registers without `(W)`: the
/// interpreter asks the sanitizer about these only.
#[inline]
pub fn reads_lanes_indirectly(inst: &Inst) -> bool {
    !inst.no_mask && vxh_source(inst).is_some()
}

/// Whether `inst` writes the register-file byte `at` (directly; sends: their response).
fn writes(inst: &Inst, at: usize) -> bool {
    if let Some(plan) = &inst.send {
        let Some(r) = plan.dst_reg else { return false };
        let rlen = match plan.desc {
            isa_encoder::model::SendDesc::Imm(d) => isa_encoder::sendmsg::response_len(d) as usize,
            isa_encoder::model::SendDesc::Reg(_) => 31,
        };
        let first = usize::from(r) * REG_BYTES;
        return (first..first + rlen * REG_BYTES).contains(&at);
    }
    if inst.dst.loc != Loc::File {
        return false;
    }
    let size = type_bytes(inst.dst.ty);
    inst.dst.offs[..usize::from(inst.n.max(1))]
        .iter()
        .any(|&o| (usize::from(o)..usize::from(o) + size).contains(&at))
}

/// Works out [`Source`] of the per-lane indirect read at instruction `ip` from the code
/// before it (straight-line, as IGC places the address computation next to the read).
pub fn source(prog: &Program, ip: usize) -> Option<Source> {
    let inst = prog.insts.get(ip)?;
    let (_, sub, offset) = vxh_source(inst)?;
    let a0 = A0 + usize::from(sub) * 2;
    let before = prog.insts.get(..ip)?;
    // The address: the nearest write of the subregister, `add a0 index imm`.
    let set = before.iter().rev().find(|i| writes(i, a0))?;
    if set.opcode != Opcode::Add || set.src[1].loc != Loc::Imm || !set.src[1].scalar {
        return None;
    }
    let imm = u16::from_le_bytes([set.src[1].imm[0], set.src[1].imm[1]]);
    let base = i64::from(imm) + i64::from(offset);
    let base = usize::try_from(base).ok()?;
    // The variable: its nearest writer must be per lane (SIMD8 or wider, not `(W)`).
    let writer = before.iter().rev().find(|i| writes(i, base))?;
    (!writer.no_mask && writer.n >= 8).then_some(Source { base: base as u32 })
}

/// The first lane of `mask` (relative to `inst`'s first channel) that reads the slot of a
/// disabled lane of `t` through `src`, with that lane (both absolute): None when every lane
/// reads its own slot or an enabled lane's.
pub fn reads_disabled_lane(t: &Thread, inst: &Inst, src: Source, mask: u32) -> Option<(u32, u32)> {
    let (k, sub, offset) = vxh_source(inst)?;
    let o = &inst.src[k];
    let size = type_bytes(o.ty) as u32;
    let n = u32::from(inst.n.max(1));
    let width = match o.loc {
        Loc::Indirect { vxh_width, .. } => u32::from(vxh_width.max(1)),
        _ => return None,
    };
    let off = disabled(t);
    for i in (0..n).filter(|i| mask >> i & 1 != 0) {
        let s = usize::from(sub) + (i / width) as usize;
        let at = A0 + s * 2;
        let a = u16::from_le_bytes([*t.file.get(at)?, *t.file.get(at + 1)?]);
        let addr = i64::from(a) + i64::from(offset) + i64::from(o.offs[i as usize]);
        let Some(rel) = addr
            .checked_sub(i64::from(src.base))
            .filter(|r| *r >= 0 && *r % i64::from(size) == 0)
        else {
            continue;
        };
        // A private array's element: each lane its own slot (SIMD-wide rows from the base).
        let slot = rel / i64::from(size);
        if slot % i64::from(n) == i64::from(i) || slot >= 32 {
            continue;
        }
        // A shuffle's source variable starts at lane 0 of the sub-group.
        let lane = slot as u32;
        if off >> lane & 1 != 0 {
            return Some((u32::from(inst.chan_off) + i, lane));
        }
    }
    None
}

/// The sentence of a shuffle in divergent control flow.
pub fn shuffle_sentence(thread: u32, active: u32, disabled: u32, reader: u32, read: u32) -> String {
    format!(
        "sub-group shuffle in divergent control flow: lanes {active:#x} of sub-group {thread} \
         execute it, lanes {disabled:#x} do not, and lane {reader} reads the value of disabled \
         lane {read} (cl_intel_subgroups: data may only be shuffled among work items \
         encountering the shuffle; shuffling from one that does not gives undefined results)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` (iga64 syntax) decoded for Gen12LP.
    fn program(text: &str) -> Program {
        let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect(text);
        Program::decode(Platform::Tgllp, &bytes)
    }

    /// A SIMD16 thread whose lanes 0..4 are active, its a0 holding `addr(lane)`.
    fn thread(addr: impl Fn(usize) -> u16) -> Thread {
        let mut t = Thread::new(0xffff);
        t.active = 0xf;
        for i in 0..16 {
            t.file[A0 + i * 2..A0 + i * 2 + 2].copy_from_slice(&addr(i).to_le_bytes());
        }
        t
    }

    // ocloc 22.43's tgllp code for `intel_sub_group_shuffle(x, (lid + 1) & 7)`, x loaded
    // per lane into r13 (byte 0x1A0).
    const SHUFFLE: &str = "send.dc1 (16|M0) r13 r11 null 0x0 0x04205E00
        add (16|M0) a0.0<1>:uw r19.0<16;16,1>:uw 0x1A0:uw
        mov (16|M0) r22.0<1>:d r[a0.0]<1,0>:d";

    #[test]
    fn a_shuffle_reading_a_disabled_lane_is_found_own_slots_are_not() {
        let prog = program(SHUFFLE);
        let src = source(&prog, 2).expect("the shuffle's variable");
        let inst = &prog.insts[2];
        let t = thread(|i| 0x1A0 + ((i as u16 + 1) & 7) * 4);
        // Lane 3 reads lane 4, which control flow disabled.
        assert_eq!(reads_disabled_lane(&t, inst, src, 0xf), Some((3, 4)));
        // A private array's row: each lane its own slot.
        let t = thread(|i| 0x1A0 + 64 + i as u16 * 4);
        assert_eq!(reads_disabled_lane(&t, inst, src, 0xf), None);
        // Lanes reading enabled lanes only.
        let t = thread(|i| 0x1A0 + ((i as u16 + 1) & 3) * 4);
        assert_eq!(reads_disabled_lane(&t, inst, src, 0xf), None);
    }

    #[test]
    fn a_uniform_table_is_not_a_shuffle_source() {
        // ocloc's code for `t[(g * 3 + 1) & 7]` of a table loaded under (W) (IGC's uniform load).
        let prog = program(
            "add (16|M0) a0.0<1>:uw r18.0<16;16,1>:uw 0x200:uw
            (W) send.dc0 (8|M0) r16 r17 null 0x0 0x02184200
            mov (16|M0) r34.0<1>:d r[a0.0]<1,0>:d",
        );
        assert!(reads_lanes_indirectly(&prog.insts[2]));
        assert_eq!(source(&prog, 2), None);
        // No `add a0 … base` before the read: not recognized either.
        let prog = program(
            "send.dc1 (16|M0) r13 r11 null 0x0 0x04205E00
            mov (16|M0) a0.0<1>:uw r19.0<16;16,1>:uw
            mov (16|M0) r22.0<1>:d r[a0.0]<1,0>:d",
        );
        assert_eq!(source(&prog, 2), None);
    }

    #[test]
    fn only_block_writes_and_media_messages_are_collectives() {
        assert!(is_block_collective(Kind::BlockWrite, false));
        assert!(is_block_collective(
            Kind::BlockWriteOwords { bti: 1 },
            false
        ));
        assert!(is_block_collective(Kind::MediaRead, false));
        assert!(!is_block_collective(Kind::BlockWrite, true));
        // IGC's uniform loads use the buffer block read too.
        assert!(!is_block_collective(Kind::BlockRead, false));
        assert!(!is_block_collective(Kind::Other, false));
    }
}
