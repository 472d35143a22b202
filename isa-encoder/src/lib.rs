//! The EU instruction set of Gen9, Gen11, Gen12LP and Xe-HPG: an instruction model, native and
//! compacted binary codecs per platform, and an IGA-syntax assembler/disassembler whose text
//! equals `iga64 -d`.
//!
//! Layout:
//! - [`model`]: the platform-independent instruction model (opcodes with per-platform numbers,
//!   operands, regions, SWSB, send fields, branch targets).
//! - [`native`]: 128-bit codecs. `native::gen12` (Gen12LP, Xe-HPG) is here; the Gen9/Gen11 codec
//!   plugs in as `native::gen9_11` (see that module's docs for the contract).
//! - [`compact`]: 64-bit compacted <-> 128-bit native, bit to bit, per-platform tables.
//!   The kernel decoder calls `compact::expand(platform, &[u8; 8]) -> Result<[u8; 16], _>` for
//!   every word whose CompactControl bit (29) is set, and the encoder calls
//!   `compact::compact(platform, &[u8; 16]) -> Option<[u8; 8]>` wherever iga64 compacts.
//! - [`sendmsg`]: what a send's descriptors mean. The printer ends every send line with
//!   `// {text}` where `text = sendmsg::describe(&SendDescription { platform, sfid, exec_size,
//!   desc, ex_desc, src1_len })`, exactly as iga64 does; see `text::print`.
//! - `text`: the IGA-syntax printer and parser.

/// Compaction: 64-bit compacted forms <-> 128-bit native forms, bit to bit, per platform tables.
pub mod asm;
pub mod compact;
pub mod error;
pub mod kernel;
pub mod model;
pub mod native;
/// Send-message descriptors: what a send's SFID/descriptor/extended descriptor mean, and builders.
pub mod sendmsg;
pub mod text;

pub use asm::assemble;
pub use error::{AsmError, DecodeError, EncodeError, KernelDecodeError};
pub use model::Instruction;
pub use text::disassemble;
