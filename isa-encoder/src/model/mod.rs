//! The instruction model shared by every codec, the printer and the parser.
//!
//! It describes instructions the way IGA's syntax does (element-unit subregisters, regions as
//! written, raw immediate bits), so that text <-> model <-> bits are all lossless. Platform
//! differences live in the tables next to each enum ([`opcode::OPCODES`], [`sfid`]) and in the
//! native codecs' field tables, never in this model's types.

pub mod bfn;
pub mod inst;
pub mod opcode;
pub mod operand;
pub mod reg;
pub mod sfid;
pub mod swsb;
pub mod types;

pub use inst::{
    BranchTargets, CondMod, ExecSize, InstOpts, Instruction, MathFn, PredCtrl, Predicate, SendDesc,
    SendInfo, Subfunction, SyncFn, DPAS_OPERAND_REGION, INST_OPT_NAMES,
};
pub use opcode::{Opcode, Shape, OPCODES};
pub use operand::{
    Addressing, Immediate, MacroOperand, MathMacroAcc, Operand, RegOperand, Region, SrcMod,
};
pub use reg::{FlagReg, Reg, RegFile, ARFS};
pub use swsb::{DistPipe, Swsb, TokenMode};
pub use types::DataType;

/// `a == b` for the short names of the model's tables, compared byte by byte in line: the
/// assembler looks names up for every operand, and `==` on `str` calls `memcmp` for each row of
/// equal length.
pub(crate) fn name_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}
