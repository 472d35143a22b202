//! Kernels from ocloc's device binaries, in both of its formats:
//! - the patch-token format (ocloc's default in Debian's 22.43): [`patchtokens`];
//! - zebin, an ELF with a `.ze_info` YAML description (`--format zebin`): [`zebin`].
//!
//! Both become the same [`Program`] of [`Kernel`]s. Malformed input gives a [`ProgramError`]
//! naming the structure, its file offset and the problem; nothing here panics on input.

mod bytes;
pub mod debug_lines;
mod elf;
mod error;
mod hw;
mod kernel;
pub mod patchtokens;
mod queries;
mod targets;
pub mod zebin;

pub use debug_lines::{LineRow, SourceLines};
pub use error::{ProgramError, Result};
pub use kernel::*;
pub use queries::QueryError;

use platform::Platform;

/// Which of ocloc's formats a binary uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    PatchTokens,
    Zebin,
}

/// A program-scope data segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    /// `global` variables (`.data.global`).
    Global,
    /// `constant` data (`.data.const`).
    Constant,
    /// String literals, e.g. printf formats (zebin's `.data.const.string`; patch-token binaries
    /// keep them in the constant data).
    ConstString,
}

impl Segment {
    /// The segment a zebin section holds.
    pub(crate) fn of_section(name: &str) -> Option<Segment> {
        match name {
            ".data.global" => Some(Segment::Global),
            ".data.const" => Some(Segment::Constant),
            ".data.const.string" => Some(Segment::ConstString),
            _ => None,
        }
    }
}

/// A pointer stored in a data segment: the 64-bit value at `offset` of `segment` becomes
/// `target`'s GPU base address plus `addend`. The addend includes what the binary stored there
/// (ELF REL semantics: patch tokens and zebin's `.rel.data.*` keep the offset into `target`
/// in place, e.g. 8 for `global int *p = &a[2];`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataRelocation {
    pub segment: Segment,
    pub offset: u64,
    pub target: Segment,
    pub addend: u64,
}

/// Everything one ocloc output holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub format: Format,
    /// The target, when the binary names one of ours.
    pub platform: Option<Platform>,
    pub kernels: Vec<Kernel>,
    /// Initial contents of the constant surface.
    pub constant_data: Vec<u8>,
    /// Initial contents of the global-variable surface.
    pub global_data: Vec<u8>,
    /// String literals (zebin only; empty for patch tokens, which put them in `constant_data`).
    pub string_data: Vec<u8>,
    pub data_relocations: Vec<DataRelocation>,
}

impl Program {
    /// The initial bytes of `segment`.
    pub fn segment(&self, segment: Segment) -> &[u8] {
        match segment {
            Segment::Global => &self.global_data,
            Segment::Constant => &self.constant_data,
            Segment::ConstString => &self.string_data,
        }
    }

    /// The little-endian u64 a relocation at `offset` of `segment` finds in place (its
    /// implicit addend), or why there is none.
    pub(crate) fn stored_pointer(&self, segment: Segment, offset: u64) -> Result<u64> {
        let data = self.segment(segment);
        usize::try_from(offset)
            .ok()
            .and_then(|o| data.get(o..o.checked_add(8)?))
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map(u64::from_le_bytes)
            .ok_or_else(|| ProgramError::Invalid {
                structure: format!("pointer in the {segment:?} data"),
                offset: 0,
                problem: format!(
                    "8 bytes at {offset:#x} are outside the segment's {} bytes",
                    data.len()
                ),
            })
    }

    /// The kernel called `name`.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// Which format `file` is in, from its first bytes.
pub fn detect(file: &[u8]) -> Result<Format> {
    if file.starts_with(&patchtokens::tokens::MAGIC_CL.to_le_bytes()) {
        return Ok(Format::PatchTokens);
    }
    if !elf::is_elf(file) {
        return Err(ProgramError::UnknownFormat(
            "neither an ELF file nor a patch-token program (no \\x7fELF or CTNI magic)".into(),
        ));
    }
    let view = elf::ElfView::parse(file)?;
    if view.e_type == patchtokens::ET_OPENCL_EXECUTABLE {
        Ok(Format::PatchTokens)
    } else if view.e_machine == zebin::EM_INTELGT {
        Ok(Format::Zebin)
    } else {
        Err(ProgramError::UnknownFormat(format!(
            "ELF type {:#06x}, machine {} is neither ocloc's container nor zebin",
            view.e_type, view.e_machine
        )))
    }
}

/// Parses an ocloc output in either format.
pub fn parse(file: &[u8]) -> Result<Program> {
    match detect(file)? {
        Format::PatchTokens => patchtokens::parse(file),
        Format::Zebin => zebin::parse(file),
    }
}
