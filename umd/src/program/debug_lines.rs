//! Source lines of `-g` builds. ocloc's patch-token container then has an `Intel(R) OpenCL
//! Device Debug` section (type 0xff000008; ocloc also writes its bytes as the `.dbg` file):
//! a header (NEO's `SProgramDebugDataHeaderIGC`: magic "CTNI", version, size, device, stepping,
//! pointer size, kernel count) and per kernel its name and an ELF whose `.text` is the kernel's
//! ISA and whose DWARF `.debug_line` maps the ISA's byte offsets to source lines
//! (`SKernelDebugDataHeaderIGC`: name size, vISA debug size (that ELF), Gen ISA debug size).
//! ocloc 22.43's zebin output has no debug sections, with `-g` or without.
//!
//! Malformed debug data is an error here and no lines for the kernels: it never stops a
//! kernel from loading.

use gimli::{AttributeValue, DebugLine, DebugLineOffset, EndianSlice, LittleEndian};

use super::bytes::{c_string, Bytes};
use super::elf::{is_elf, ElfView};
use super::error::{invalid, ProgramError, Result};
use super::patchtokens::tokens::{MAGIC_CL, SHT_OPENCL_DEV_DEBUG};

/// Bytes of `SProgramDebugDataHeaderIGC` (seven u32) and of `SKernelDebugDataHeaderIGC`
/// (three u32).
const PROGRAM_HEADER: usize = 28;
const KERNEL_HEADER: usize = 12;

/// ELF relocation type of a 64-bit absolute address (R_X86_64_64, the type IGC's debug ELF
/// uses for `DW_LNE_set_address`).
const R_ABS64: u32 = 1;

/// One row of a kernel's line table: from byte `offset` of the kernel's ISA up to the next
/// row's, instructions belong to `line` of `files[file]` (0: no line, as DWARF's line 0 and
/// the end of a sequence).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRow {
    pub offset: u32,
    pub file: u32,
    pub line: u32,
}

/// A kernel's line table, rows in the line programs' order (the simulator's
/// `sanitize::SourceLines` orders them by offset for its lookups).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceLines {
    /// The source files, as the line table names them (with their directory where it is not
    /// the compilation's).
    pub files: Vec<String>,
    pub rows: Vec<LineRow>,
}

impl SourceLines {
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// The line tables of the kernels of ocloc container `file`, by kernel name; empty when it
/// has no debug section. A kernel whose debug ELF or DWARF is malformed has an empty table.
pub fn of_container(file: &[u8]) -> Result<Vec<(String, SourceLines)>> {
    if !is_elf(file) {
        return Ok(Vec::new());
    }
    let elf = ElfView::parse(file)?;
    let Some(sec) = elf.by_type(SHT_OPENCL_DEV_DEBUG).next() else {
        return Ok(Vec::new());
    };
    of_debug_data(Bytes::new(sec.data, sec.offset))
}

/// The kernels of one debug data blob (the `.dbg` file's bytes).
fn of_debug_data(data: Bytes<'_>) -> Result<Vec<(String, SourceLines)>> {
    let hdr = || "debug data header".to_string();
    let magic = data.u32_at(0, &hdr)?;
    if magic != MAGIC_CL {
        return Err(invalid(
            hdr(),
            data.base,
            format!("magic {magic:#010x} is not CTNI"),
        ));
    }
    let count = data.u32_at(24, &hdr)?;
    let mut at = PROGRAM_HEADER;
    let mut out = Vec::new();
    for k in 0..count {
        let what = || format!("debug data of kernel {k}");
        let name_size = data.u32_at(at, &what)? as usize;
        let elf_size = data.u32_at(at + 4, &what)? as usize;
        let gen_size = data.u32_at(at + 8, &what)? as usize;
        at += KERNEL_HEADER;
        let name = c_string(data.slice(at, name_size, &what)?.data);
        at += name_size;
        let elf = data.slice(at, elf_size, &what)?;
        at = at
            .checked_add(elf_size)
            .and_then(|a| a.checked_add(gen_size))
            .ok_or_else(|| invalid(what(), data.base + at, "sizes overflow"))?;
        out.push((name, of_kernel_elf(elf.data).unwrap_or_default()));
    }
    Ok(out)
}

/// The line table of one kernel's debug ELF: its `.debug_line`, with the relocations of
/// `.rela.debug_line` against `.text` applied (addresses are then offsets in the kernel).
pub fn of_kernel_elf(file: &[u8]) -> Result<SourceLines> {
    let elf = ElfView::parse(file)?;
    let Some(line_sec) = elf.by_name(".debug_line") else {
        return Ok(SourceLines::default());
    };
    let mut bytes = line_sec.data.to_vec();
    if let Some(rela) = elf.by_name(".rela.debug_line") {
        let text = elf.by_name(".text").map(|t| t.index);
        let symbols = elf.symbols(file)?;
        for r in elf.relocations(file, rela)? {
            let bad = |p: &str| invalid(".rela.debug_line", rela.offset, p.to_string());
            let sym = symbols
                .get(r.symbol)
                .ok_or_else(|| bad("relocation names no symbol"))?;
            if r.r_type != R_ABS64 || Some(sym.section) != text {
                return Err(bad("relocation other than a 64-bit address in .text"));
            }
            let value = sym.value.wrapping_add_signed(r.addend);
            let at = usize::try_from(r.offset)
                .ok()
                .and_then(|o| bytes.get_mut(o..o.checked_add(8)?))
                .ok_or_else(|| bad("relocation outside .debug_line"))?;
            at.copy_from_slice(&value.to_le_bytes());
        }
    }
    line_table(&bytes).map_err(|e| ProgramError::Invalid {
        structure: ".debug_line".into(),
        offset: line_sec.offset,
        problem: e.to_string(),
    })
}

/// Runs every line program of a `.debug_line` section.
fn line_table(section: &[u8]) -> gimli::Result<SourceLines> {
    let debug_line = DebugLine::new(section, LittleEndian);
    let mut out = SourceLines::default();
    let mut offset = 0usize;
    while offset < section.len() {
        let program = debug_line.program(DebugLineOffset(offset), 8, None, None)?;
        let header = program.header();
        let next = offset
            .checked_add(header.unit_length())
            .and_then(|o| o.checked_add(header.format().initial_length_size().into()))
            .ok_or(gimli::Error::OffsetOutOfBounds(offset as u64))?;
        // This program's file indices, as indices into `out.files`.
        let base = out.files.len() as u64;
        let version = header.version();
        let count = header.file_names().len() as u64;
        for i in 0..count {
            // DWARF 5 counts files from 0, earlier versions from 1.
            let index = if version >= 5 { i } else { i + 1 };
            out.files.push(file_name(header, index).unwrap_or_default());
        }
        let mut rows = program.rows();
        while let Some((_, row)) = rows.next_row()? {
            let Ok(at) = u32::try_from(row.address()) else {
                continue;
            };
            let file = if version >= 5 {
                row.file_index()
            } else {
                row.file_index().wrapping_sub(1)
            };
            let named = file < count && !out.files[(base + file) as usize].is_empty();
            let line = match row.line() {
                Some(l) if named && !row.end_sequence() => u32::try_from(l.get()).unwrap_or(0),
                _ => 0,
            };
            out.rows.push(LineRow {
                offset: at,
                file: if named { (base + file) as u32 } else { 0 },
                line,
            });
        }
        offset = next;
    }
    Ok(out)
}

/// File `index`'s name in a line program's header, with its include directory unless that is
/// the compilation's; None where the name is not an inline string.
fn file_name(
    header: &gimli::LineProgramHeader<EndianSlice<'_, LittleEndian>>,
    index: u64,
) -> Option<String> {
    let entry = header.file(index)?;
    let text = |v: AttributeValue<EndianSlice<'_, LittleEndian>>| match v {
        AttributeValue::String(s) => Some(s.to_string_lossy().into_owned()),
        _ => None,
    };
    let name = text(entry.path_name())?;
    let dir = if entry.directory_index() == 0 {
        None
    } else {
        entry.directory(header).and_then(text)
    };
    Some(match dir {
        Some(d) if !d.is_empty() && !name.starts_with('/') => format!("{d}/{name}"),
        _ => name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_an_error_or_no_lines_never_a_panic() {
        // Not an ELF: no debug section.
        assert_eq!(of_container(b"CTNI....").unwrap(), vec![]);
        // A debug blob cut anywhere, or with a huge kernel count: an error, not a panic.
        let mut blob = MAGIC_CL.to_le_bytes().to_vec();
        blob.extend([0u8; 20]);
        blob.extend(1000u32.to_le_bytes());
        blob.extend([4, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]);
        blob.extend(b"k\0\0\0");
        blob.extend(b"\x7fELFjunk");
        for cut in 0..blob.len() {
            let _ = of_debug_data(Bytes::new(&blob[..cut], 0));
        }
        assert!(of_debug_data(Bytes::new(&blob, 0)).is_err());
        // One kernel whose ELF is garbage: the kernel is listed with no lines.
        blob[24..28].copy_from_slice(&1u32.to_le_bytes());
        let k = of_debug_data(Bytes::new(&blob, 0)).unwrap();
        assert_eq!(k, vec![("k".to_string(), SourceLines::default())]);
        // A line program that is garbage: an error.
        assert!(line_table(&[0xff; 40]).is_err());
        assert!(line_table(&[]).unwrap().is_empty());
    }
}
