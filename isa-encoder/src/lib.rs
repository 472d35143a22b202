//! The EU instruction set: instruction model, native and compacted codecs, IGA-syntax text, send
//! messages.
//! Start reading: `model` (the instruction model), `native` (one file per encoding family),
//! `sendmsg`.
//!
//! The EU instruction set of Gen9, Gen11, Gen12LP and Xe-HPG: an instruction model, native and
//! compacted binary codecs per platform, and an IGA-syntax assembler/disassembler whose text
//! equals `iga64 -d` byte for byte (columns included).
//!
//! Entry points: [`disassemble`] (kernel bytes -> text; [`disassemble_to`] writes it in pieces),
//! [`assemble`] (text -> kernel bytes), [`kernel::decode_kernel`] / [`kernel::encode_kernel`]
//! (bytes <-> model, compaction kept as each instruction's `Compacted` option),
//! [`native::decode`] / [`native::encode`] (one 128-bit instruction).
//!
//! Layout:
//! - [`model`]: the platform-independent instruction model (opcodes with per-platform numbers,
//!   operands, regions, SWSB, send fields, branch targets as offsets from the instruction).
//! - [`native`]: 128-bit codecs: `native::gen12` (Gen12LP, Xe-HPG), `native::gen9_11`.
//! - [`compact`]: 64-bit compacted <-> 128-bit native, bit to bit, per-platform tables.
//!   [`kernel`] calls `compact::expand` for every word whose CompactControl bit (29) is set and
//!   `compact::compact` for every instruction marked `{Compacted}`, as iga64 does.
//! - [`sendmsg`]: what a send's descriptors mean. The printer ends every send line with
//!   `// {text}` where `text = sendmsg::describe(&SendDescription { platform, sfid, exec_size,
//!   desc, ex_desc, src1_len })`, exactly as iga64 does; see `text::print`.
//! - [`text`]: the IGA-syntax printer and parser; [`asm`]: the assembler on top of them.
//! - `src/bin/isa.rs`: the `isa asm|disasm -p P FILE` command.

pub mod asm;
pub mod compact;
pub mod error;
pub mod kernel;
mod memo;
pub mod model;
pub mod native;
/// Send-message descriptors: what a send's SFID/descriptor/extended descriptor mean, and builders.
pub mod sendmsg;
pub mod text;

pub use asm::{assemble, assemble_with, Memos};
pub use error::{AsmError, DecodeError, EncodeError, KernelDecodeError};
pub use model::Instruction;
pub use text::{disassemble, disassemble_to, DisassembleToError};
