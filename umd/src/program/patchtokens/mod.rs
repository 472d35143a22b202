//! The patch-token format: ocloc's ELF container holding `SProgramBinaryHeader`, kernel binary
//! headers, heaps and patch tokens.

mod decode;
mod function_tables;
pub mod raw;
pub mod tokens;

use super::elf::{is_elf, ElfView};
use super::error::{invalid, ProgramError, Result};
use super::{targets, DataRelocation, Format, Program, Segment};

pub use tokens::{ET_OPENCL_EXECUTABLE, SHT_OPENCL_DEV_BINARY, SHT_OPENCL_DEV_DEBUG};

/// The patch-token program inside ocloc's ELF container, with its file offset.
/// A bare program (starting with the "CTNI" magic) is accepted as is.
pub fn device_binary(file: &[u8]) -> Result<(&[u8], usize)> {
    if !is_elf(file) {
        return Ok((file, 0));
    }
    let elf = ElfView::parse(file)?;
    if elf.e_type != ET_OPENCL_EXECUTABLE {
        return Err(ProgramError::UnknownFormat(format!(
            "ELF type {:#06x} is not ocloc's container ({ET_OPENCL_EXECUTABLE:#06x})",
            elf.e_type
        )));
    }
    let mut bins = elf.by_type(SHT_OPENCL_DEV_BINARY);
    let sec = bins.next().ok_or_else(|| ProgramError::Elf {
        context: "ocloc container".into(),
        message: "no device binary section (type 0xff000005)".into(),
    })?;
    Ok((sec.data, sec.offset))
}

/// Parses a patch-token binary (in ocloc's container or bare).
pub fn parse(file: &[u8]) -> Result<Program> {
    let (bin, base) = device_binary(file)?;
    let raw = raw::parse(bin, base)?;
    let mut program = Program {
        format: Format::PatchTokens,
        platform: targets::from_gfx_core_family(raw.header.device),
        kernels: Vec::with_capacity(raw.kernels.len()),
        constant_data: Vec::new(),
        global_data: Vec::new(),
        string_data: Vec::new(),
        data_relocations: Vec::new(),
    };
    for tok in &raw.tokens {
        match tok.id {
            tokens::ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO => {
                one_surface(&program.constant_data, tok)?;
                program.constant_data = tok.trailing.to_vec();
            }
            tokens::ALLOCATE_GLOBAL_MEMORY_SURFACE_PROGRAM_BINARY_INFO => {
                one_surface(&program.global_data, tok)?;
                program.global_data = tok.trailing.to_vec();
            }
            tokens::GLOBAL_POINTER_PROGRAM_BINARY_INFO
            | tokens::CONSTANT_POINTER_PROGRAM_BINARY_INFO => {
                let in_segment = if tok.id == tokens::GLOBAL_POINTER_PROGRAM_BINARY_INFO {
                    Segment::Global
                } else {
                    Segment::Constant
                };
                // BufferType: PROGRAM_SCOPE_GLOBAL_BUFFER (0) or PROGRAM_SCOPE_CONSTANT_BUFFER (1).
                let target = match tok.field(3)? {
                    0 => Segment::Global,
                    1 => Segment::Constant,
                    other => {
                        return Err(invalid(
                            tokens::name(tok.id),
                            tok.offset,
                            format!("BufferType {other} is neither global (0) nor constant (1)"),
                        ))
                    }
                };
                program.data_relocations.push(DataRelocation {
                    segment: in_segment,
                    offset: tok.field64_at(4)?,
                    target,
                    addend: 0,
                });
            }
            _ => {}
        }
    }
    // The pointer's offset into its target is stored in place.
    for k in 0..program.data_relocations.len() {
        let r = program.data_relocations[k];
        program.data_relocations[k].addend = program.stored_pointer(r.segment, r.offset)?;
    }
    for k in &raw.kernels {
        program.kernels.push(decode::kernel(k)?);
    }
    // A relocation's symbol is defined when some kernel's symbol table names it.
    let mut defined = std::collections::HashSet::new();
    for tok in raw.kernels.iter().flat_map(|k| &k.tokens) {
        if tok.id == tokens::PROGRAM_SYMBOL_TABLE {
            defined.extend(function_tables::defined_symbols(tok)?);
        }
    }
    for r in program
        .kernels
        .iter_mut()
        .flat_map(|k| &mut k.isa_relocations)
    {
        r.defined = defined.contains(&r.symbol);
    }
    // Source lines (`-g`): malformed debug data leaves the kernels without them.
    for (name, lines) in super::debug_lines::of_container(file).unwrap_or_default() {
        if let Some(k) = program.kernels.iter_mut().find(|k| k.name == name) {
            k.source_lines = lines;
        }
    }
    Ok(program)
}

/// These platforms' runtimes take one constant and one global surface per program.
fn one_surface(existing: &[u8], tok: &raw::RawToken<'_>) -> Result<()> {
    if existing.is_empty() {
        Ok(())
    } else {
        Err(invalid(
            tokens::name(tok.id),
            tok.offset,
            "a second program-scope surface",
        ))
    }
}
