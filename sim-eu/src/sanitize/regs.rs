//! initcheck's shadow of a thread's registers: which bytes hold a value derived from memory
//! nobody wrote, followed through the ALU lane by lane so that only a *use* of such a value is
//! reported (Valgrind's and Oclgrind's rule), never the read that brought it in.
//!
//! Registers start defined (the dispatch payload, and whatever the thread writes from defined
//! values); the register bytes a thread never wrote are not tracked. The flag file has one
//! shadow bit per flag bit. The accumulator bits an instruction writes implicitly (`mac`,
//! `mach`, `addc`) and `dpas` results keep the shadow they had.
//!
//! memcheck keeps a second shadow of the same kind for bytes loaded from past a buffer's end
//! ([`crate::sanitize::past_end`]); its bytes hold a tag (1 to 255) naming the read they came
//! from, which an instruction's result takes from the first tagged byte it reads. initcheck's
//! bytes are all tagged 1.

use isa_encoder::model::{Opcode, PredCtrl, Predicate, SrcMod};

use crate::exec::lanes::lane_offsets;
use crate::program::operand::Loc;
use crate::program::{type_bytes, Inst, Opnd};
use crate::regfile::{Thread, A0, FILE_BYTES, FLAG};

/// Bytes of the flag file (f0, f1).
const FLAG_BYTES: usize = 8;

/// A use of an undefined value an ALU or branch instruction makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// An indirect operand's address register (a0) holds undefined bits, in these lanes; the
    /// tag of the first such byte.
    IndirectAddress(u32, u8),
    /// A branch's direction is decided by undefined flag bits (or an undefined register
    /// target), in these lanes; their tag.
    Branch(u32, u8),
}

/// One thread's register shadow.
#[derive(Debug, Clone)]
pub struct RegShadow {
    /// Per byte of the thread's register file: its tag (not 0) when it holds an undefined
    /// value.
    bytes: Box<[u8]>,
    /// How many of `bytes` are tagged: propagation is skipped while it and `flags` are zero.
    undefined: usize,
    /// Per bit of the flag file: set when undefined.
    flags: u64,
    /// The tag of the undefined flag bits (the last set).
    flag_tag: u8,
}

impl Default for RegShadow {
    fn default() -> Self {
        RegShadow {
            bytes: vec![0u8; FILE_BYTES].into_boxed_slice(),
            undefined: 0,
            flags: 0,
            flag_tag: 0,
        }
    }
}

impl RegShadow {
    /// Every register defined (a thread starts).
    pub fn clear(&mut self) {
        if self.undefined != 0 {
            self.bytes.fill(0);
            self.undefined = 0;
        }
        self.flags = 0;
    }

    /// Nothing undefined: the common case, in which nothing needs following.
    pub fn is_clean(&self) -> bool {
        self.undefined == 0 && self.flags == 0
    }

    /// How many register bytes are undefined (flags apart).
    pub fn undefined_bytes(&self) -> usize {
        self.undefined
    }

    /// The undefined flag bits.
    pub fn flags(&self) -> u64 {
        self.flags
    }

    /// Whether any of `len` bytes from file byte `at` is undefined.
    pub fn any(&self, at: usize, len: usize) -> bool {
        self.tag(at, len) != 0
    }

    /// The tag of the first undefined byte of `len` bytes from file byte `at` (0: none).
    pub fn tag(&self, at: usize, len: usize) -> u8 {
        if (FLAG..FLAG + FLAG_BYTES).contains(&at) {
            return if self.flags & flag_bits(at, len) != 0 {
                self.flag_tag
            } else {
                0
            };
        }
        self.bytes
            .get(at..at + len)
            .and_then(|b| b.iter().copied().find(|&x| x != 0))
            .unwrap_or(0)
    }

    /// Marks `len` bytes from file byte `at` undefined (`u`, tag 1) or defined.
    pub fn set(&mut self, at: usize, len: usize, u: bool) {
        self.set_tag(at, len, u8::from(u));
    }

    /// Tags `len` bytes from file byte `at` with `tag` (0: defined).
    pub fn set_tag(&mut self, at: usize, len: usize, tag: u8) {
        if (FLAG..FLAG + FLAG_BYTES).contains(&at) {
            let m = flag_bits(at, len);
            self.set_flags(m, tag);
            return;
        }
        let Some(b) = self.bytes.get_mut(at..at + len) else {
            return;
        };
        for x in b {
            if *x != tag {
                if *x == 0 {
                    self.undefined += 1;
                } else if tag == 0 {
                    self.undefined -= 1;
                }
                *x = tag;
            }
        }
    }

    /// Sets the flag bits `m` undefined with `tag`, or defined (0).
    fn set_flags(&mut self, m: u64, tag: u8) {
        if tag == 0 {
            self.flags &= !m;
        } else {
            self.flags |= m;
            self.flag_tag = tag;
        }
    }

    /// The tag of the first undefined register byte, else of the flags (0: clean).
    pub fn first_tag(&self) -> u8 {
        let first = (self.undefined != 0)
            .then(|| self.bytes.iter().copied().find(|&x| x != 0))
            .flatten();
        first.unwrap_or(if self.flags != 0 { self.flag_tag } else { 0 })
    }

    /// The shadow byte of file byte `at` (its tag; 0: defined).
    pub fn byte(&self, at: usize) -> u8 {
        self.tag(at, 1)
    }

    /// The lanes (bit i: the instruction's channel i) of an `n`-channel instruction whose
    /// predicate `p`, on the flag register starting `rot` bits into the flag file, reads an
    /// undefined flag bit. A horizontal or vertical predicate combines bits: any undefined
    /// bit of the register then makes every lane's predicate undefined.
    pub fn predicate_undefined(&self, p: Predicate, rot: u32, n: u8) -> u32 {
        let lanes = crate::lane_mask::lane_bits(n);
        if p.ctrl == PredCtrl::Normal {
            return self.flags.rotate_right(rot) as u32 & lanes;
        }
        let reg = u64::from(u32::MAX).rotate_left(rot - rot % 32);
        let both = if matches!(p.ctrl, PredCtrl::AnyV | PredCtrl::AllV) {
            u64::MAX
        } else {
            reg
        };
        if self.flags & both != 0 {
            lanes
        } else {
            0
        }
    }

    /// The tag of the address subregisters an indirect operand's lanes in `on` use, where
    /// they hold undefined bits (0: none).
    fn address_undefined(&self, o: &Opnd, n: usize, on: u32) -> u8 {
        let Loc::Indirect {
            addr_sub,
            vxh_width,
            ..
        } = o.loc
        else {
            return 0;
        };
        let rows = if vxh_width == 0 || on == 0 {
            1
        } else {
            let last = 31 - on.leading_zeros() as usize;
            last.min(n.saturating_sub(1)) / vxh_width as usize + 1
        };
        self.tag(A0 + usize::from(addr_sub) * 2, rows * 2)
    }

    /// Follows the ALU instruction `inst` about to execute on `t` (its enabled channels and
    /// predicate as the interpreter has them): each written lane's destination element is
    /// undefined when a source element that lane reads is (a predicate with undefined bits
    /// makes the lanes it decides undefined; `sel` takes the chosen source's). Returns the
    /// use it makes of an undefined value, if any: an undefined indirect address.
    pub fn alu(&mut self, t: &Thread, inst: &Inst, enabled: u32, pred: u32) -> Option<Use> {
        let n = usize::from(inst.n);
        let rot = u32::from(inst.flag_base) + u32::from(inst.chan_off);
        let pred_u = inst
            .pred
            .map_or(0, |p| self.predicate_undefined(p, rot, inst.n));
        let picks = matches!(inst.opcode, Opcode::Sel | Opcode::Csel);
        let lanes = if picks {
            enabled
        } else {
            enabled & (pred | pred_u)
        } & crate::lane_mask::lane_bits(inst.n);
        if lanes == 0 {
            return None;
        }
        let nsrc = usize::from(inst.nsrc).min(3);
        let mut used = None;
        let address = (inst.src[..nsrc].iter().chain([&inst.dst]))
            .map(|o| self.address_undefined(o, n, lanes))
            .find(|&t| t != 0);
        if let Some(tag) = address {
            used = Some(Use::IndirectAddress(lanes, tag));
        }
        // `sel` by predicate reads only the source it picks; by a condition (min/max), both.
        let by_pred = inst.opcode == Opcode::Sel && inst.cond.is_none() && inst.pred.is_some();
        let mut src = [None; 3];
        for (k, o) in inst.src[..nsrc].iter().enumerate() {
            src[k] = lane_offsets(t, o, n, lanes).ok().flatten();
        }
        let dst = match inst.dst.loc {
            Loc::Null | Loc::Imm => None,
            _ => lane_offsets(t, &inst.dst, n, lanes).ok().flatten(),
        };
        let dsize = type_bytes(inst.dst.ty);
        // `and`/`or` byte by byte: a defined zero (`and`) or all-ones (`or`) byte of one
        // source decides the result's byte whatever the other holds. IGC selects with them
        // (`v & (k < n ? ~0 : 0)`).
        let logic = matches!(inst.opcode, Opcode::And | Opcode::Or)
            && nsrc == 2
            && inst.src[..2]
                .iter()
                .all(|o| o.modifier == SrcMod::None && type_bytes(o.ty) == dsize);
        for i in 0..n {
            if lanes >> i & 1 == 0 {
                continue;
            }
            if logic && pred_u >> i & 1 == 0 {
                if let Some(d) = &dst {
                    let decides = if inst.opcode == Opcode::And { 0 } else { 0xff };
                    for j in 0..dsize {
                        let mut u = [0u8; 2];
                        let mut v = [0u8; 2];
                        for k in 0..2 {
                            let o = &inst.src[k];
                            (u[k], v[k]) = match &src[k] {
                                Some(offs) => {
                                    let at = usize::from(offs[i]) + j;
                                    (self.byte(at), t.file.get(at).copied().unwrap_or(0))
                                }
                                None => (
                                    0,
                                    o.imm.get(usize::from(o.offs[i]) + j).copied().unwrap_or(0),
                                ),
                            };
                        }
                        let tag = if u[0] != 0 && (u[1] != 0 || v[1] != decides) {
                            u[0]
                        } else if u[1] != 0 && v[0] != decides {
                            u[1]
                        } else {
                            0
                        };
                        self.set_tag(usize::from(d[i]) + j, 1, tag);
                    }
                }
                if inst.cond.is_none() {
                    continue;
                }
            }
            let mut tag = if pred_u >> i & 1 != 0 {
                self.flag_tag
            } else {
                0
            };
            for (k, offs) in src.iter().enumerate() {
                let Some(offs) = offs else { continue };
                if tag != 0 || (by_pred && k < 2 && k != usize::from(pred >> i & 1 == 0)) {
                    continue;
                }
                tag = self.tag(usize::from(offs[i]), type_bytes(inst.src[k].ty));
            }
            if let Some(d) = &dst {
                self.set_tag(usize::from(d[i]), dsize, tag);
            }
            if inst.cond.is_some() {
                self.set_flags(1u64.rotate_left(rot + i as u32), tag);
            }
        }
        used
    }

    /// A branch about to execute: whether its direction depends on undefined bits in its
    /// enabled lanes (its predicate's flags, or a register target's bytes).
    pub fn branch(&self, inst: &Inst, enabled: u32) -> Option<Use> {
        let rot = u32::from(inst.flag_base) + u32::from(inst.chan_off);
        let mut u = inst
            .pred
            .map_or(0, |p| self.predicate_undefined(p, rot, inst.n))
            & enabled;
        let mut tag = self.flag_tag;
        if inst.opcode == Opcode::Jmpi {
            // Scalar: lane 0's predicate moves every channel.
            u &= 1;
        }
        let reads_target = matches!(inst.opcode, Opcode::Ret)
            || (inst.opcode == Opcode::Jmpi && inst.jip.is_none() && inst.nsrc == 1);
        if reads_target && inst.src[0].loc == Loc::File {
            let at = usize::from(inst.src[0].offs[0]);
            let target = self.tag(at, type_bytes(inst.src[0].ty));
            if target != 0 {
                u |= 1;
                tag = target;
            }
        }
        (u != 0).then_some(Use::Branch(u, tag))
    }
}

/// The flag-file bits of `len` bytes from file byte `at` (inside the flag file).
fn flag_bits(at: usize, len: usize) -> u64 {
    let first = (at - FLAG) * 8;
    let bits = (len.min(FLAG_BYTES) * 8).min(64 - first);
    if bits >= 64 {
        u64::MAX
    } else {
        ((1u64 << bits) - 1) << first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::program::Program;
    use platform::Platform;

    const R: usize = crate::regfile::REG_BYTES;

    /// The first instruction of `text`, assembled for Gen12LP.
    fn inst(text: &str) -> Inst {
        let bytes = isa_encoder::assemble(Platform::Tgllp, &format!("{text}\nnop\n")).unwrap();
        Program::decode(Platform::Tgllp, &bytes).insts[0].clone()
    }

    /// Runs `text` through the shadow on eight enabled lanes with predicate `pred`.
    fn follow(s: &mut RegShadow, t: &Thread, text: &str, pred: u32) -> Option<Use> {
        s.alu(t, &inst(text), 0xff, pred)
    }

    #[test]
    fn a_lane_is_undefined_where_a_source_element_it_reads_is() {
        let t = Thread::new(0xff);
        let mut s = RegShadow::default();
        // Lane 2's DWord of r20 undefined.
        s.set(20 * R + 8, 1, true);
        let used = follow(
            &mut s,
            &t,
            "add (8|M0) r10.0<1>:d r20.0<8;8,1>:d r30.0<8;8,1>:d",
            u32::MAX,
        );
        assert_eq!(used, None);
        for lane in 0..8 {
            assert_eq!(s.any(10 * R + lane * 4, 4), lane == 2, "lane {lane}");
        }
        // A scalar source: every lane reads it.
        follow(&mut s, &t, "mov (8|M0) r11.0<1>:d r20.2<0;1,0>:d", u32::MAX);
        assert!((0..8).all(|l| s.any(11 * R + l * 4, 4)));
        // Overwritten with defined values: defined again, and the count follows.
        follow(&mut s, &t, "mov (8|M0) r11.0<1>:d 5:d", u32::MAX);
        follow(&mut s, &t, "mov (8|M0) r10.0<1>:d 5:d", u32::MAX);
        assert_eq!(s.undefined_bytes(), 1);
    }

    #[test]
    fn sel_takes_the_chosen_source_and_and_with_a_defined_zero_is_defined() {
        let mut t = Thread::new(0xff);
        let mut s = RegShadow::default();
        s.set(20 * R, R, true);
        // The predicate picks src0 (undefined) in lanes 0..3, src1 in 4..7.
        let picked = 0x0f;
        t.set_flags(u64::from(picked));
        follow(
            &mut s,
            &t,
            "(f0.0) sel (8|M0) r10.0<1>:d r20.0<8;8,1>:d r30.0<8;8,1>:d",
            picked,
        );
        for lane in 0..8 {
            assert_eq!(s.any(10 * R + lane * 4, 4), lane < 4, "lane {lane}");
        }
        // r31: lanes 0..3 all ones, 4..7 zero (defined): `and` keeps only 0..3 undefined.
        for lane in 0..4 {
            t.grf_mut()[31 * R + lane * 4..][..4].copy_from_slice(&[0xff; 4]);
        }
        follow(
            &mut s,
            &t,
            "and (8|M0) r12.0<1>:d r20.0<8;8,1>:d r31.0<8;8,1>:d",
            u32::MAX,
        );
        for lane in 0..8 {
            assert_eq!(s.any(12 * R + lane * 4, 4), lane < 4, "lane {lane}");
        }
        // A predicated move: lanes the predicate disables keep their state.
        follow(&mut s, &t, "(f0.0) mov (8|M0) r20.0<1>:d 1:d", picked);
        for lane in 0..8 {
            assert_eq!(s.any(20 * R + lane * 4, 4), lane >= 4, "lane {lane}");
        }
    }

    #[test]
    fn a_comparison_of_undefined_values_makes_its_flags_and_the_branch_undefined() {
        let t = Thread::new(0xff);
        let mut s = RegShadow::default();
        s.set(20 * R + 4, 4, true);
        follow(
            &mut s,
            &t,
            "cmp (8|M0) (lt)f0.0 null<1>:d r20.0<8;8,1>:d r30.0<8;8,1>:d",
            u32::MAX,
        );
        assert_eq!(s.flags(), 0b10);
        // A predicated add: lane 1's result depends on whether it was written.
        follow(
            &mut s,
            &t,
            "(f0.0) add (8|M0) r12.0<1>:d r30.0<8;8,1>:d 1:d",
            0,
        );
        assert!(s.any(12 * R + 4, 4) && !s.any(12 * R, 4) && !s.any(12 * R + 8, 4));
        let branch = inst("(f0.0) jmpi (1|M0) L1\nL1:");
        assert_eq!(
            s.branch(&branch, 0xff),
            None,
            "jmpi reads lane 0's bit only"
        );
        let branch = inst("(f0.0) if (8|M0) L1 L1\nL1:");
        assert_eq!(s.branch(&branch, 0xff), Some(Use::Branch(0b10, 1)));
        assert_eq!(s.branch(&branch, 0xfd), None, "lane 1 disabled");
    }

    #[test]
    fn a_result_takes_the_tag_of_the_first_marked_byte_it_reads() {
        let t = Thread::new(0xff);
        let mut s = RegShadow::default();
        s.set_tag(20 * R, 4, 3);
        s.set_tag(30 * R, R, 5);
        follow(
            &mut s,
            &t,
            "add (8|M0) r10.0<1>:d r20.0<8;8,1>:d r30.0<8;8,1>:d",
            u32::MAX,
        );
        assert_eq!(s.tag(10 * R, 4), 3);
        assert_eq!(s.tag(10 * R + 4, 4), 5);
        // A comparison carries the tag into the flags, and a branch on them names it.
        follow(
            &mut s,
            &t,
            "cmp (8|M0) (lt)f0.0 null<1>:d r30.0<8;8,1>:d 0:d",
            u32::MAX,
        );
        let branch = inst("(f0.0) if (8|M0) L1 L1\nL1:");
        assert_eq!(s.branch(&branch, 0xff), Some(Use::Branch(0xff, 5)));
        assert_eq!(s.first_tag(), 3);
    }

    #[test]
    fn bytes_and_flags_count_and_clear() {
        let mut s = RegShadow::default();
        assert!(s.is_clean());
        s.set(64, 4, true);
        assert_eq!(s.undefined_bytes(), 4);
        assert!(s.any(66, 1) && !s.any(68, 4));
        s.set(64, 2, false);
        assert_eq!(s.undefined_bytes(), 2);
        // f0.1 (bits 16..31) through the file bytes that hold it.
        s.set(FLAG + 2, 2, true);
        assert_eq!(s.flags(), 0xffff_0000);
        assert!(s.any(FLAG, 4) && !s.any(FLAG, 2));
        s.clear();
        assert!(s.is_clean() && !s.any(64, 4));
    }
}
