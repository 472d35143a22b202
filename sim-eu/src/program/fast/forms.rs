//! The fast path's instruction forms ([`Fast`]) and the executor a form is pre-decoded to
//! ([`Kernel`]): what classification (`program::fast`) produces and the fast-path executor
//! (`exec::fast`) consumes, below both.

use std::fmt;

use isa_encoder::model::{CondMod, SrcMod};

use crate::program::channels::Channels;
use crate::regfile::Thread;

/// What a fast instruction computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FastOp {
    Mov,
    Add,
    Mul,
    Mad,
    /// `add3`: the sum of three integer sources (Xe-HPG's address arithmetic).
    Add3,
    And,
    Or,
    Xor,
    Not,
    Shl,
    Shr,
    Asr,
    /// `cmp`, or `cmpn` (`nan_true`: a NaN second source compares true).
    Cmp {
        nan_true: bool,
    },
    Sel,
    /// `csel`: src2 tested by the condition picks src0 or src1 (no flag write).
    Csel,
    /// Leaves registers and flags as they are: an integer `csel` whose two value sources are
    /// its destination's own region (IGC's `csel (4|M0) (eq)f0.0 r0.0<1>:w r0.0<4;1>:w
    /// r0.0<4;1>:w r0.0<1>:w`, a dependency marker in every loop), so either pick stores the
    /// bytes already there; or an operation to `null` without a condition (IGC's `mov (8|M0)
    /// null<1>:ud r23.0<8;8,1>:ud` that waits for a fence's response).
    Keep,
    /// `math.iqot`, or `math.irem` (`rem`): 32-bit integer division, `unsigned` when src0 is
    /// `:ud` (the general path's rules, `exec::alu::int_div_unsigned` and `int_div32`).
    IntDiv {
        rem: bool,
        unsigned: bool,
    },
}

/// The lane domain: integers computed modulo 2^32 (every destination is at most 32 bits
/// wide, so the low bits are all the general path's 64-bit results keep), f32, or half
/// results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Num {
    Int,
    F32,
    /// A `:hf` destination of `mov`, `add`, `mul` or `mad` from `:hf` (2-byte elements) or
    /// `:f` (4-byte) sources, widened exactly: as the general path, `mov`, `add` and `mul`
    /// compute in f32 and `mad` in f64, each result rounded once to half (nearest even).
    Half,
}

/// An element in the register file: its size in bytes and whether it sign-extends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Elem {
    pub size: u8,
    pub signed: bool,
}

/// Where a source's lanes come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Src {
    /// Lane i at byte `base + i * stride` of the register file (`stride` 0: a scalar).
    Region { base: u16, stride: u16 },
    /// Irregular lane offsets: the instruction's own `offs` for this source.
    Gather,
    /// A scalar immediate, already extended to 32 bits.
    Imm(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FastSrc {
    pub at: Src,
    pub elem: Elem,
    /// The source modifier: an `:f` source's, or an integer's negation where the fast form
    /// takes it (see [`Sign::INT_NEG`]).
    pub sign: Sign,
}

/// A source modifier as what it does to the value's bits, `((v & and) ^ xor) + add` (modulo
/// 2^32). On `:f`: negation flips the sign bit, `(abs)` clears it, `-(abs)` sets it (NaNs
/// included, as the general path's `-x`, `x.abs()` and `-x.abs()` do). On an integer:
/// negation, two's complement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sign {
    pub and: u32,
    pub xor: u32,
    pub add: u32,
}

impl Sign {
    pub const NONE: Sign = Sign {
        and: u32::MAX,
        xor: 0,
        add: 0,
    };

    /// An integer source's negation on 32-bit lanes. The general path negates the 64-bit
    /// value (a signed source's in the execution width); the two agree modulo 2^32 except on a
    /// signed byte or word, which the fast form leaves to the general path, and it takes the
    /// rest only where nothing but the low 32 bits of the result matters (`add`, `mul`, `mad`,
    /// `mov`, `sel` without a condition modifier, to a destination of at most 32 bits).
    pub const INT_NEG: Sign = Sign {
        and: u32::MAX,
        xor: u32::MAX,
        add: 1,
    };

    /// The modifier of an `:f` source.
    pub fn of(m: SrcMod) -> Sign {
        const SIGN: u32 = 0x8000_0000;
        let (and, xor) = match m {
            SrcMod::None => return Sign::NONE,
            SrcMod::Neg => (u32::MAX, SIGN),
            SrcMod::Abs => (!SIGN, 0),
            SrcMod::NegAbs => (!SIGN, SIGN),
        };
        Sign { and, xor, add: 0 }
    }

    #[inline(always)]
    pub fn apply(self, v: u32) -> u32 {
        ((v & self.and) ^ self.xor).wrapping_add(self.add)
    }
}

/// A destination region: lane i at `base + i * stride`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FastDst {
    pub base: u16,
    pub stride: u16,
}

/// One instruction on the fast path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fast {
    pub op: FastOp,
    pub num: Num,
    /// The channels it runs on; predication is the flag bits of its flag register, per
    /// channel or per group of channels (`.any32h` ...), as the general path computes it.
    pub ch: Channels,
    pub cond: Option<CondMod>,
    /// `None`: a `null` destination (flags only).
    pub dst: Option<FastDst>,
    /// The destination type's element (for `null` too: conditions test the value as it).
    pub dst_elem: Elem,
    pub src: [FastSrc; 3],
    /// The word form: a `null` destination (any type for `cmp`, 32-bit otherwise) or one of
    /// consecutive DWords (one DWord for a one-channel instruction), and each source
    /// consecutive DWords or one value of any size (a scalar region or an immediate, read
    /// once and extended); not `csel`, and integer `cmp`/conditional `sel` only on sources
    /// of the same signedness. The executor computes it straight from the register file's
    /// rows, condition flags included.
    pub word: bool,
    /// The pre-decoded executor of a plain word-form instruction (`exec::fast::kernel::select`).
    pub kernel: Option<Kernel>,
}

/// An element's bits (zero above its size) extended to 32 bits.
#[inline(always)]
pub fn extend(v: u32, e: Elem) -> u32 {
    match (e.size, e.signed) {
        (1, true) => v as u8 as i8 as i32 as u32,
        (1, false) => u32::from(v as u8),
        (2, true) => v as u16 as i16 as i32 as u32,
        (2, false) => u32::from(v as u16),
        _ => v,
    }
}

/// A kernel: runs its instruction on the thread with its enabled channels and its predicate
/// (all ones without one); false when it does not apply (a region outside the register file).
pub type KernelFn = unsafe fn(&mut Thread, &Fast, u32, u32) -> bool;

/// [`KernelFn`], comparable by address so that [`Fast`] stays comparable.
#[derive(Clone, Copy)]
pub struct Kernel(pub KernelFn);

impl PartialEq for Kernel {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0)
    }
}

impl Eq for Kernel {}

impl fmt::Debug for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Kernel")
    }
}
