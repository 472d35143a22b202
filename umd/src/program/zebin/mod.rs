//! zebin: an ELF (e_machine EM_INTELGT) with one `.text.<kernel>` per kernel, data sections,
//! symbols, relocations and the `.ze_info` YAML that describes each kernel.

mod decode;
pub mod zeinfo;

use super::elf::{ElfView, Section};
use super::error::{ProgramError, Result};
use super::{targets, DataRelocation, Format, Program, Segment};

/// `e_machine` of zebin (EM_INTELGT).
pub const EM_INTELGT: u16 = 205;
/// Section type of `.ze_info` (SHT_ZEBIN_ZEINFO).
pub const SHT_ZEBIN_ZEINFO: u32 = 0xff00_0011;
/// Note types of `.note.intelgt.compat` naming the target: PRODUCT_FAMILY (what ocloc
/// writes) and GFXCORE_FAMILY (what binaries generated without IGC carry alone, oneDNN's nGEN
/// kernels among them; Intel's runtime accepts a binary naming either).
const NOTE_PRODUCT_FAMILY: u32 = 1;
const NOTE_GFXCORE_FAMILY: u32 = 2;
/// The pseudo-kernel holding a program's non-kernel functions; not a kernel one can launch.
const EXTERNAL_FUNCTIONS: &str = "Intel_Symbol_Table_Void_Program";
/// zebin relocation type R_ZE_SYM_ADDR (a 64-bit address).
pub(crate) const R_ZE_SYM_ADDR: u32 = 1;

/// The YAML text of `.ze_info`, with its file offset.
pub fn ze_info_text(file: &[u8]) -> Result<(&str, usize)> {
    let elf = ElfView::parse(file)?;
    let sec = ze_info_section(&elf)?;
    let text = std::str::from_utf8(sec.data).map_err(|e| ProgramError::ZeInfo {
        offset: sec.offset + e.valid_up_to(),
        message: "not UTF-8".into(),
    })?;
    Ok((text, sec.offset))
}

fn ze_info_section<'e, 'a>(elf: &'e ElfView<'a>) -> Result<&'e Section<'a>> {
    elf.by_type(SHT_ZEBIN_ZEINFO)
        .next()
        .or_else(|| elf.by_name(".ze_info"))
        .ok_or_else(|| ProgramError::Elf {
            context: "zebin".into(),
            message: "no .ze_info section".into(),
        })
}

/// Parses a zebin.
pub fn parse(file: &[u8]) -> Result<Program> {
    let elf = ElfView::parse(file)?;
    let (text, offset) = ze_info_text(file)?;
    let info: zeinfo::ZeInfo = serde_norway::from_str(text).map_err(|e| ProgramError::ZeInfo {
        offset: offset + e.location().map_or(0, |l| l.index()),
        message: e.to_string(),
    })?;
    check_version(info.version.as_deref(), offset)?;
    let symbols = elf.symbols(file)?;
    let mut program = Program {
        format: Format::Zebin,
        platform: note(&elf, NOTE_PRODUCT_FAMILY)
            .and_then(targets::from_product_family)
            .or_else(|| note(&elf, NOTE_GFXCORE_FAMILY).and_then(targets::from_gfx_core_family)),
        kernels: Vec::with_capacity(info.kernels.len()),
        constant_data: data_of(&elf, ".data.const"),
        global_data: data_of(&elf, ".data.global"),
        string_data: data_of(&elf, ".data.const.string"),
        data_relocations: Vec::new(),
    };
    for (segment, name) in [
        (Segment::Global, ".data.global"),
        (Segment::Constant, ".data.const"),
    ] {
        for rel_name in [format!(".rel{name}"), format!(".rela{name}")] {
            let Some(sec) = elf.by_name(&rel_name) else {
                continue;
            };
            for r in elf.relocations(file, sec)? {
                let target = symbols
                    .get(r.symbol)
                    .and_then(|s| elf.sections.get(s.section).map(|sec| (sec, s.value)));
                let Some((target_sec, value)) = target else {
                    return Err(ProgramError::Elf {
                        context: format!("relocation at {:#x} of `{rel_name}`", r.offset),
                        message: format!("symbol {} is not defined in a section", r.symbol),
                    });
                };
                let Some(target) = Segment::of_section(&target_sec.name) else {
                    return Err(ProgramError::Elf {
                        context: format!("relocation at {:#x} of `{rel_name}`", r.offset),
                        message: format!(
                            "target section `{}` is not a data segment",
                            target_sec.name
                        ),
                    });
                };
                if r.r_type != R_ZE_SYM_ADDR {
                    return Err(ProgramError::Elf {
                        context: format!("relocation at {:#x} of `{rel_name}`", r.offset),
                        message: format!(
                            "type {} in a data section (only R_ZE_SYM_ADDR is defined there)",
                            r.r_type
                        ),
                    });
                }
                // REL entries keep their addend in place; RELA ones carry it.
                let addend = if rel_name.starts_with(".rela") {
                    r.addend as u64
                } else {
                    program.stored_pointer(segment, r.offset)?
                };
                program.data_relocations.push(DataRelocation {
                    segment,
                    offset: r.offset,
                    target,
                    addend: value.wrapping_add(addend),
                });
            }
        }
    }
    for zk in info.kernels.iter().filter(|k| k.name != EXTERNAL_FUNCTIONS) {
        let misc = info.kernels_misc_info.iter().find(|m| m.name == zk.name);
        program
            .kernels
            .push(decode::kernel(file, &elf, &symbols, zk, misc)?);
    }
    Ok(program)
}

/// zeinfo versions are `major.minor`; a new major may change meanings we rely on.
const SUPPORTED_MAJOR: &str = "1";

fn check_version(version: Option<&str>, offset: usize) -> Result<()> {
    match version {
        None => Ok(()),
        Some(v) if v.split('.').next() == Some(SUPPORTED_MAJOR) => Ok(()),
        Some(v) => Err(ProgramError::ZeInfo {
            offset,
            message: format!(
                "zeinfo version {v} (this parser reads major version {SUPPORTED_MAJOR})"
            ),
        }),
    }
}

fn data_of(elf: &ElfView<'_>, name: &str) -> Vec<u8> {
    elf.by_name(name)
        .map(|s| s.data.to_vec())
        .unwrap_or_default()
}

/// The value of the IntelGT compatibility note of type `wanted`, if present and well-formed.
fn note(elf: &ElfView<'_>, wanted: u32) -> Option<u32> {
    let note = elf.by_name(".note.intelgt.compat")?;
    let d = note.data;
    let mut pos = 0usize;
    let u32_at = |p: usize| -> Option<u32> {
        d.get(p..p.checked_add(4)?)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    while pos + 12 <= d.len() {
        let namesz = u32_at(pos)? as usize;
        let descsz = u32_at(pos + 4)? as usize;
        let ty = u32_at(pos + 8)?;
        let desc = pos + 12 + namesz.checked_add(3)? / 4 * 4;
        if ty == wanted && descsz >= 4 {
            return u32_at(desc);
        }
        pos = desc.checked_add(descsz.checked_add(3)? / 4 * 4)?;
    }
    None
}
