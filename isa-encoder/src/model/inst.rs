//! One EU instruction, independent of its binary encoding.

use super::opcode::Opcode;
use super::operand::{Operand, Region};
use super::reg::FlagReg;
use super::swsb::Swsb;

/// Execution size: number of channels, 1..=32.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExecSize {
    S1 = 1,
    S2 = 2,
    S4 = 4,
    S8 = 8,
    S16 = 16,
    S32 = 32,
}

impl ExecSize {
    /// All sizes in encoding order (encoded value = index).
    pub const ALL: [ExecSize; 6] = [
        ExecSize::S1,
        ExecSize::S2,
        ExecSize::S4,
        ExecSize::S8,
        ExecSize::S16,
        ExecSize::S32,
    ];

    /// Channel count.
    pub fn channels(self) -> u32 {
        self as u32
    }

    /// The 3-bit field value (log2 of the channel count).
    pub fn encoding(self) -> u8 {
        (self as u32).trailing_zeros() as u8
    }

    /// From the 3-bit field value.
    pub fn from_encoding(v: u8) -> Option<ExecSize> {
        Self::ALL.get(v as usize).copied()
    }

    /// From a channel count.
    pub fn from_channels(n: u32) -> Option<ExecSize> {
        // By index: `ALL` is in encoding order, the log2 of the channel count.
        let e = Self::ALL.get(n.trailing_zeros() as usize).copied()?;
        (e.channels() == n).then_some(e)
    }
}

/// Conditional modifier `(eq)`, `(ne)`, …; the value is its 4-bit encoding, except `Eo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CondMod {
    Eq = 1,
    Ne = 2,
    Gt = 3,
    Ge = 4,
    Lt = 5,
    Le = 6,
    Ov = 8,
    Un = 9,
    /// `(eo)`, early out: implied by the math macros `math.invm` / `math.rsqtm`, whose
    /// function code fills the condition-modifier field. It has no encoding of its own.
    Eo = 0x10,
}

const COND_MODS: [(CondMod, &str); 9] = [
    (CondMod::Eq, "eq"),
    (CondMod::Ne, "ne"),
    (CondMod::Gt, "gt"),
    (CondMod::Ge, "ge"),
    (CondMod::Lt, "lt"),
    (CondMod::Le, "le"),
    (CondMod::Ov, "ov"),
    (CondMod::Un, "un"),
    (CondMod::Eo, "eo"),
];

impl CondMod {
    /// IGA spelling.
    pub fn syntax(self) -> &'static str {
        COND_MODS.iter().find(|c| c.0 == self).map_or("?", |c| c.1)
    }
    /// From IGA spelling.
    pub fn from_syntax(s: &str) -> Option<CondMod> {
        const KEYS: [u64; COND_MODS.len()] = super::name_keys!(COND_MODS, |c| c.1);
        let k = super::name_key(s)?;
        KEYS.iter().position(|&x| x == k).map(|i| COND_MODS[i].0)
    }
    /// From the 4-bit field (0 = none is not a CondMod).
    pub fn from_encoding(v: u8) -> Option<CondMod> {
        COND_MODS
            .iter()
            .find(|c| c.0.encoding() == Some(v))
            .map(|c| c.0)
    }
    /// The 4-bit field value; `None` for `Eo`, which only math macros carry (implicitly).
    pub fn encoding(self) -> Option<u8> {
        (self != CondMod::Eo).then_some(self as u8)
    }
}

/// Align1 predicate control; the value is its 4-bit encoding. `Normal` prints as `(f0.0)`,
/// the others as a suffix `(f0.0.any16h)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PredCtrl {
    Normal = 1,
    AnyV = 2,
    AllV = 3,
    Any2h = 4,
    All2h = 5,
    Any4h = 6,
    All4h = 7,
    Any8h = 8,
    All8h = 9,
    Any16h = 10,
    All16h = 11,
    Any32h = 12,
    All32h = 13,
}

const PRED_CTRLS: [(PredCtrl, &str); 13] = [
    (PredCtrl::Normal, ""),
    (PredCtrl::AnyV, ".anyv"),
    (PredCtrl::AllV, ".allv"),
    (PredCtrl::Any2h, ".any2h"),
    (PredCtrl::All2h, ".all2h"),
    (PredCtrl::Any4h, ".any4h"),
    (PredCtrl::All4h, ".all4h"),
    (PredCtrl::Any8h, ".any8h"),
    (PredCtrl::All8h, ".all8h"),
    (PredCtrl::Any16h, ".any16h"),
    (PredCtrl::All16h, ".all16h"),
    (PredCtrl::Any32h, ".any32h"),
    (PredCtrl::All32h, ".all32h"),
];

impl PredCtrl {
    /// IGA suffix after the flag register (empty for `Normal`).
    pub fn syntax(self) -> &'static str {
        PRED_CTRLS.iter().find(|c| c.0 == self).map_or("?", |c| c.1)
    }
    /// From the suffix (including the leading '.', or empty).
    pub fn from_syntax(s: &str) -> Option<PredCtrl> {
        PRED_CTRLS
            .iter()
            .find(|c| super::name_eq(c.1, s))
            .map(|c| c.0)
    }
    /// From the 4-bit field (0 = no predication is not a PredCtrl).
    pub fn from_encoding(v: u8) -> Option<PredCtrl> {
        PRED_CTRLS.iter().find(|c| c.0 as u8 == v).map(|c| c.0)
    }
    /// A horizontal group predicate's channels per group and whether a group is on only when
    /// all of its flag bits are set (`.all8h`) rather than any (`.any8h`); `None` for the
    /// per-channel and the vertical ones.
    pub fn horizontal_group(self) -> Option<(u32, bool)> {
        match self {
            PredCtrl::Normal | PredCtrl::AnyV | PredCtrl::AllV => None,
            PredCtrl::Any2h => Some((2, false)),
            PredCtrl::All2h => Some((2, true)),
            PredCtrl::Any4h => Some((4, false)),
            PredCtrl::All4h => Some((4, true)),
            PredCtrl::Any8h => Some((8, false)),
            PredCtrl::All8h => Some((8, true)),
            PredCtrl::Any16h => Some((16, false)),
            PredCtrl::All16h => Some((16, true)),
            PredCtrl::Any32h => Some((32, false)),
            PredCtrl::All32h => Some((32, true)),
        }
    }
}

/// Predication: `(f0.1)`, `(~f0.0.any16h)`. The flag register is [`Instruction::flag`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Predicate {
    pub ctrl: PredCtrl,
    pub invert: bool,
}

/// Extended math function (`math.inv` …); the value is its 4-bit encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MathFn {
    Inv = 1,
    Log = 2,
    Exp = 3,
    Sqt = 4,
    Rsqt = 5,
    Sin = 6,
    Cos = 7,
    Fdiv = 9,
    Pow = 10,
    Idiv = 11,
    Iqot = 12,
    Irem = 13,
    Invm = 14,
    Rsqtm = 15,
}

const MATH_FNS: [(MathFn, &str); 14] = [
    (MathFn::Inv, "inv"),
    (MathFn::Log, "log"),
    (MathFn::Exp, "exp"),
    (MathFn::Sqt, "sqt"),
    (MathFn::Rsqt, "rsqt"),
    (MathFn::Sin, "sin"),
    (MathFn::Cos, "cos"),
    (MathFn::Fdiv, "fdiv"),
    (MathFn::Pow, "pow"),
    (MathFn::Idiv, "idiv"),
    (MathFn::Iqot, "iqot"),
    (MathFn::Irem, "irem"),
    (MathFn::Invm, "invm"),
    (MathFn::Rsqtm, "rsqtm"),
];

impl MathFn {
    /// IGA spelling after `math.`.
    pub fn syntax(self) -> &'static str {
        MATH_FNS.iter().find(|c| c.0 == self).map_or("?", |c| c.1)
    }
    /// From the spelling after `math.`.
    pub fn from_syntax(s: &str) -> Option<MathFn> {
        MATH_FNS
            .iter()
            .find(|c| super::name_eq(c.1, s))
            .map(|c| c.0)
    }
    /// From the 4-bit field.
    pub fn from_encoding(v: u8) -> Option<MathFn> {
        MATH_FNS.iter().find(|c| c.0 as u8 == v).map(|c| c.0)
    }
    /// Functions taking two sources (`fdiv`, `pow`, integer division).
    pub fn is_binary(self) -> bool {
        matches!(
            self,
            MathFn::Fdiv | MathFn::Pow | MathFn::Idiv | MathFn::Iqot | MathFn::Irem | MathFn::Invm
        )
    }
}

/// `sync` function (Gen12+); the value is its 4-bit encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SyncFn {
    Nop = 0,
    Allrd = 2,
    Allwr = 3,
    Bar = 14,
    Host = 15,
}

const SYNC_FNS: [(SyncFn, &str); 5] = [
    (SyncFn::Nop, "nop"),
    (SyncFn::Allrd, "allrd"),
    (SyncFn::Allwr, "allwr"),
    (SyncFn::Bar, "bar"),
    (SyncFn::Host, "host"),
];

impl SyncFn {
    /// IGA spelling after `sync.`.
    pub fn syntax(self) -> &'static str {
        SYNC_FNS.iter().find(|c| c.0 == self).map_or("?", |c| c.1)
    }
    /// From the spelling after `sync.`.
    pub fn from_syntax(s: &str) -> Option<SyncFn> {
        SYNC_FNS
            .iter()
            .find(|c| super::name_eq(c.1, s))
            .map(|c| c.0)
    }
    /// From the 4-bit field.
    pub fn from_encoding(v: u8) -> Option<SyncFn> {
        SYNC_FNS.iter().find(|c| c.0 as u8 == v).map(|c| c.0)
    }
}

/// The subfunction an opcode carries in its mnemonic (`math.inv`, `sync.nop`, `goto.b`…).
/// Send SFIDs live in [`SendInfo`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Subfunction {
    #[default]
    None,
    Math(MathFn),
    Sync(SyncFn),
    /// Branch control bit on `goto`/`join`/`else`… (printed as `.b`).
    BranchCtrl,
    /// `bfn` boolean function table (Xe-HPG).
    Bfn(u8),
    /// `dpas.{systolic depth}x{repeat count}` (Xe-HPG).
    Dpas {
        depth: u8,
        repeat: u8,
    },
}

/// The region every `dpas`/`dpasw` operand holds in the model: dpas operands have no region
/// in the encoding or in IGA syntax (`r10:f`, src2 `r40.2:hf`).
pub const DPAS_OPERAND_REGION: Region = Region::h(1);

/// A send descriptor: an immediate or address register `a0.{sub}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SendDesc {
    Imm(u32),
    /// `a0.{sub}`.
    Reg(u8),
}

/// The fields only sends have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SendInfo {
    /// Shared function ID (4 bits). On Gen9/Gen11 it is also `ex_desc[3:0]` (they must agree).
    pub sfid: u8,
    /// Message descriptor.
    pub desc: SendDesc,
    /// Extended message descriptor, as IGA prints it.
    pub ex_desc: SendDesc,
    /// Source-1 payload length in registers when it is not inside `ex_desc` (Xe-HPG immediate
    /// extended descriptors, printed `r12:2`); `None` where `ex_desc` carries it.
    pub src1_len: Option<u8>,
}

bitflags::bitflags! {
    /// Instruction options printed in `{...}` (besides SWSB, printed after them).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub struct InstOpts: u32 {
        /// Binary form was / should be the 64-bit compacted form.
        const COMPACTED = 1 << 0;
        const BREAKPOINT = 1 << 1;
        const NO_DD_CLR = 1 << 2;
        const NO_DD_CHK = 1 << 3;
        const ATOMIC = 1 << 4;
        const SWITCH = 1 << 5;
        const NO_PREEMPT = 1 << 6;
        const ACC_WR_EN = 1 << 7;
        const EOT = 1 << 8;
        const NO_SRC_DEP_SET = 1 << 9;
        const SERIALIZE = 1 << 10;
        /// Xe-HPG send: extended bindless surface offset; src1's length then is its own field
        /// even with an `a0` extended descriptor.
        const EX_BSO = 1 << 11;
    }
}

/// IGA spellings of the options, in the order IGA prints them.
pub const INST_OPT_NAMES: &[(InstOpts, &str)] = &[
    (InstOpts::ACC_WR_EN, "AccWrEn"),
    (InstOpts::ATOMIC, "Atomic"),
    (InstOpts::BREAKPOINT, "Breakpoint"),
    (InstOpts::COMPACTED, "Compacted"),
    (InstOpts::EOT, "EOT"),
    (InstOpts::EX_BSO, "ExBSO"),
    (InstOpts::NO_DD_CHK, "NoDDChk"),
    (InstOpts::NO_DD_CLR, "NoDDClr"),
    (InstOpts::NO_PREEMPT, "NoPreempt"),
    (InstOpts::NO_SRC_DEP_SET, "NoSrcDepSet"),
    (InstOpts::SERIALIZE, "Serialize"),
    (InstOpts::SWITCH, "Switch"),
];

/// Branch targets as byte offsets relative to this instruction's own address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BranchTargets {
    /// Jump IP (first label).
    pub jip: Option<i32>,
    /// Update IP (second label, for `if`/`else`/`break`/`cont`/`goto`/`halt`).
    pub uip: Option<i32>,
}

/// One EU instruction.
///
/// `dst` and `src` follow the operand shape of [`Opcode::shape`]: unary ops use `src[0]`,
/// binary `src[0..2]`, ternary all three; sends use `dst`, `src[0]` (payload) and, where present,
/// `src[1]` (second payload); branches may carry a register `dst`/`src[0]` (`call`, `ret`,
/// `jmpi r..`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Instruction {
    pub opcode: Opcode,
    pub func: Subfunction,
    pub exec_size: ExecSize,
    /// Channel offset in channels: 0, 4, 8, … 28 (`M0`..`M28`).
    pub chan_offset: u8,
    /// `(W)`: NoMask.
    pub no_mask: bool,
    pub predicate: Option<Predicate>,
    pub cond_mod: Option<CondMod>,
    /// The one flag register an instruction names (predication and conditional modifier share it).
    pub flag: FlagReg,
    /// `(sat)` on the destination.
    pub saturate: bool,
    pub dst: Option<Operand>,
    pub src: [Option<Operand>; 3],
    pub send: Option<SendInfo>,
    pub branch: BranchTargets,
    pub opts: InstOpts,
    /// Gen12+ only; always empty on Gen9/Gen11.
    pub swsb: Swsb,
}

impl Instruction {
    /// A bare instruction: SIMD1, no operands, no options.
    pub fn new(opcode: Opcode) -> Instruction {
        Instruction {
            opcode,
            func: Subfunction::None,
            exec_size: ExecSize::S1,
            chan_offset: 0,
            no_mask: false,
            predicate: None,
            cond_mod: None,
            flag: FlagReg::default(),
            saturate: false,
            dst: None,
            src: [None; 3],
            send: None,
            branch: BranchTargets::default(),
            opts: InstOpts::empty(),
            swsb: Swsb::default(),
        }
    }

    /// Number of sources present.
    pub fn src_count(&self) -> usize {
        self.src.iter().take_while(|s| s.is_some()).count()
    }

    /// True for the math macros `madm`, `math.invm` and `math.rsqtm`, whose operands are all
    /// [`Operand::Macro`].
    pub fn is_math_macro(&self) -> bool {
        self.opcode == Opcode::Madm
            || matches!(self.func, Subfunction::Math(MathFn::Invm | MathFn::Rsqtm))
    }

    /// Checks the math-macro rules every codec shares: macro instructions take only macro
    /// operands and no condition modifier but their implicit `(eo)`; other instructions take
    /// neither.
    pub fn check_math_macro(&self) -> Result<(), &'static str> {
        let ops = self.src.iter().chain(std::iter::once(&self.dst)).flatten();
        if self.is_math_macro() {
            if !ops.clone().all(|o| matches!(o, Operand::Macro(_))) {
                return Err("math-macro operands must all be rN.mmeK / rN.nomme");
            }
            let eo_ok = self.opcode != Opcode::Madm && self.cond_mod == Some(CondMod::Eo);
            if self.cond_mod.is_some() && !eo_ok {
                return Err("the only condition modifier of a math macro is its implicit (eo)");
            }
        } else {
            if ops.clone().any(|o| matches!(o, Operand::Macro(_))) {
                return Err(".mme / .nomme operands belong to madm, math.invm and math.rsqtm");
            }
            if self.cond_mod == Some(CondMod::Eo) {
                return Err("(eo) belongs to math.invm and math.rsqtm");
            }
        }
        Ok(())
    }

    /// True if the binary form is (or is to be) the 64-bit compacted one.
    pub fn is_compacted(&self) -> bool {
        self.opts.contains(InstOpts::COMPACTED)
    }
}
