//! A read-only view of a little-endian ELF64 file (ocloc's container and zebin), built on `object`.

use object::elf;
use object::read::elf::{FileHeader, Rel as _, Rela as _, SectionHeader, Sym as _};
use object::LittleEndian as LE;

use super::error::{ProgramError, Result};

type Header = elf::FileHeader64<LE>;

fn elf_err(context: impl Into<String>, e: object::read::Error) -> ProgramError {
    ProgramError::Elf {
        context: context.into(),
        message: e.to_string(),
    }
}

/// One section: its name, type, where it lies in the file, and its bytes (none for NOBITS).
#[derive(Debug, Clone)]
pub(crate) struct Section<'a> {
    pub index: usize,
    pub name: String,
    pub sh_type: u32,
    pub offset: usize,
    pub data: &'a [u8],
}

/// One symbol of `.symtab`.
#[derive(Debug, Clone)]
pub(crate) struct Symbol {
    pub name: String,
    pub section: usize,
    pub value: u64,
    pub size: u64,
}

/// One REL/RELA entry.
#[derive(Debug, Clone)]
pub(crate) struct Reloc {
    pub offset: u64,
    pub symbol: usize,
    pub r_type: u32,
    pub addend: i64,
}

pub(crate) struct ElfView<'a> {
    pub e_type: u16,
    pub e_machine: u16,
    pub sections: Vec<Section<'a>>,
}

/// True when `data` starts with the ELF magic.
pub(crate) fn is_elf(data: &[u8]) -> bool {
    data.starts_with(b"\x7fELF")
}

impl<'a> ElfView<'a> {
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let header = Header::parse(data).map_err(|e| elf_err("file header", e))?;
        let endian = header.endian().map_err(|e| elf_err("file header", e))?;
        let table = header
            .sections(endian, data)
            .map_err(|e| elf_err("section table", e))?;
        let mut sections = Vec::with_capacity(table.len());
        for (i, sh) in table.iter().enumerate() {
            let name = table
                .section_name(endian, sh)
                .map_err(|e| elf_err(format!("name of section {i}"), e))?;
            let sh_type = sh.sh_type(endian).0;
            let data = if sh_type == elf::SHT_NOBITS.0 {
                &[][..]
            } else {
                sh.data(endian, data)
                    .map_err(|e| elf_err(format!("data of section {i}"), e))?
            };
            sections.push(Section {
                index: i,
                name: String::from_utf8_lossy(name).into_owned(),
                sh_type,
                offset: sh.sh_offset(endian) as usize,
                data,
            });
        }
        Ok(ElfView {
            e_type: header.e_type(endian).0,
            e_machine: header.e_machine(endian).0,
            sections,
        })
    }

    pub fn by_type(&self, sh_type: u32) -> impl Iterator<Item = &Section<'a>> {
        self.sections.iter().filter(move |s| s.sh_type == sh_type)
    }

    pub fn by_name(&self, name: &str) -> Option<&Section<'a>> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// The symbols of the `SHT_SYMTAB` section, if there is one.
    pub fn symbols(&self, file: &'a [u8]) -> Result<Vec<Symbol>> {
        let header = Header::parse(file).map_err(|e| elf_err("file header", e))?;
        let endian = header.endian().map_err(|e| elf_err("file header", e))?;
        let table = header
            .sections(endian, file)
            .map_err(|e| elf_err("section table", e))?;
        let symtab = table
            .symbols(endian, file, elf::SHT_SYMTAB)
            .map_err(|e| elf_err("symbol table", e))?;
        let mut out = Vec::with_capacity(symtab.len());
        for (i, sym) in symtab.iter().enumerate() {
            let name = symtab
                .symbol_name(endian, sym)
                .map_err(|e| elf_err(format!("name of symbol {i}"), e))?;
            out.push(Symbol {
                name: String::from_utf8_lossy(name).into_owned(),
                section: sym.st_shndx(endian).0 as usize,
                value: sym.st_value(endian),
                size: sym.st_size(endian),
            });
        }
        Ok(out)
    }

    /// The entries of a REL or RELA section.
    pub fn relocations(&self, file: &'a [u8], section: &Section<'a>) -> Result<Vec<Reloc>> {
        let header = Header::parse(file).map_err(|e| elf_err("file header", e))?;
        let endian = header.endian().map_err(|e| elf_err("file header", e))?;
        let table = header
            .sections(endian, file)
            .map_err(|e| elf_err("section table", e))?;
        let sh = table
            .section(object::SectionIndex(section.index))
            .map_err(|e| elf_err(format!("section {}", section.index), e))?;
        let ctx = || format!("relocations of section `{}`", section.name);
        let mut out = Vec::new();
        if let Some((rels, _)) = sh.rel(endian, file).map_err(|e| elf_err(ctx(), e))? {
            for r in rels {
                out.push(Reloc {
                    offset: r.r_offset(endian),
                    symbol: r.r_sym(endian) as usize,
                    r_type: r.r_type(endian).0,
                    addend: 0,
                });
            }
        }
        if let Some((relas, _)) = sh.rela(endian, file).map_err(|e| elf_err(ctx(), e))? {
            for r in relas {
                out.push(Reloc {
                    offset: r.r_offset(endian),
                    symbol: r.r_sym(endian, false) as usize,
                    r_type: r.r_type(endian, false).0,
                    addend: r.r_addend(endian),
                });
            }
        }
        Ok(out)
    }
}
