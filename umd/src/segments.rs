//! Program-scope data of ocloc binaries (`constant` and `global` variables, string literals):
//! placed in their own BOs, pointers between them patched, and the kernel's ISA relocations
//! resolved to their addresses. A program's kernels share one placement per device, so what one
//! kernel writes to a `global` variable the next one reads (OpenCL C 3.0, "Program Scope Global
//! Variables": their storage lives as long as the program).

use std::sync::{Arc, Mutex};

use crate::device::Inner;
use crate::error::{Error, Result};
use crate::memory::Bo;
use crate::program::{DataRelocation, IsaRelocation, RelocKind, RuntimeSymbol, Segment};

/// The segments' initial bytes and the pointers stored in them, and where they were placed on
/// each device the program's kernels ran on.
#[derive(Debug, Default)]
pub struct ProgramData {
    pub constant: Vec<u8>,
    pub global: Vec<u8>,
    pub strings: Vec<u8>,
    pub relocations: Vec<DataRelocation>,
    placements: Mutex<Vec<Arc<Placed>>>,
}

impl ProgramData {
    /// The data of a parsed program, not yet placed anywhere. Give the result to every kernel
    /// of the program ([`crate::kernel::Kernel::from_shared`]) so they share its variables.
    pub fn of(prog: &crate::program::Program) -> Arc<ProgramData> {
        Arc::new(ProgramData {
            constant: prog.constant_data.clone(),
            global: prog.global_data.clone(),
            strings: prog.string_data.clone(),
            relocations: prog.data_relocations.clone(),
            placements: Mutex::default(),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.constant.is_empty() && self.global.is_empty() && self.strings.is_empty()
    }

    fn bytes(&self, s: Segment) -> &[u8] {
        match s {
            Segment::Constant => &self.constant,
            Segment::Global => &self.global,
            Segment::ConstString => &self.strings,
        }
    }
}

/// The segments placed in GPU memory.
#[derive(Debug, Default)]
pub struct Placed {
    bos: Vec<(Segment, Arc<Bo>)>,
}

impl Placed {
    /// GPU address of a segment's first byte (0 when the program has none).
    pub fn base(&self, s: Segment) -> u64 {
        self.bos
            .iter()
            .find(|(t, _)| *t == s)
            .map_or(0, |(_, b)| b.gpu_address)
    }

    /// Bytes of a segment's BO (0 when the program has none).
    pub fn size(&self, s: Segment) -> u64 {
        self.bos
            .iter()
            .find(|(t, _)| *t == s)
            .map_or(0, |(_, b)| b.size)
    }

    pub(crate) fn bos(&self) -> impl Iterator<Item = &Arc<Bo>> {
        self.bos.iter().map(|(_, b)| b)
    }
}

impl Inner {
    /// The program's segments on this device: placed on first use, the same BOs afterwards.
    pub(crate) fn placed(self: &Arc<Self>, data: &ProgramData) -> Result<Arc<Placed>> {
        if data.is_empty() {
            return Ok(Arc::default());
        }
        let mut list = data.placements.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = list.iter().find(|p| p.bos().any(|b| b.on(self))) {
            return Ok(p.clone());
        }
        let p = Arc::new(self.place(data)?);
        list.push(p.clone());
        Ok(p)
    }

    /// Copies each non-empty segment into its own BO and patches the pointers between them.
    fn place(self: &Arc<Self>, data: &ProgramData) -> Result<Placed> {
        let mut placed = Placed::default();
        for s in [Segment::Constant, Segment::Global, Segment::ConstString] {
            let bytes = data.bytes(s);
            if !bytes.is_empty() {
                let bo = self.alloc_bo(bytes.len() as u64)?;
                bo.map.write(0, bytes)?;
                placed.bos.push((s, bo));
            }
        }
        for r in &data.relocations {
            let value = placed.base(r.target).wrapping_add(r.addend);
            let bo = placed
                .bos
                .iter()
                .find(|(t, _)| *t == r.segment)
                .map(|(_, b)| b)
                .ok_or_else(|| {
                    Error::Argument(format!(
                        "data relocation into an empty {:?} segment",
                        r.segment
                    ))
                })?;
            bo.map.write(r.offset as usize, &value.to_le_bytes())?;
        }
        Ok(placed)
    }
}

/// Patches `isa` for its relocations against the placed segments.
pub fn relocate(isa: &mut [u8], relocs: &[IsaRelocation], placed: &Placed) -> Result<()> {
    for r in relocs {
        match r.runtime_symbol() {
            // No implicit-argument block before the cross-thread data: the compiled value stays.
            Some(RuntimeSymbol::CrossThreadOffsetOffR0) => continue,
            None => {}
        }
        let seg = r.segment.ok_or_else(|| {
            Error::Unsupported(format!(
                "ISA relocation against `{}`, which is not program data",
                r.symbol
            ))
        })?;
        let value = placed
            .base(seg)
            .wrapping_add(r.symbol_offset)
            .wrapping_add(r.addend as u64);
        let (bytes, len): ([u8; 8], usize) = match r.kind {
            RelocKind::Address64 => (value.to_le_bytes(), 8),
            RelocKind::Address32Lo => ((value & 0xffff_ffff).to_le_bytes(), 4),
            RelocKind::Address32Hi => ((value >> 32).to_le_bytes(), 4),
            other => {
                return Err(Error::Unsupported(format!(
                    "ISA relocation of kind {other:?} for `{}`",
                    r.symbol
                )))
            }
        };
        let at = r.offset as usize;
        let dst = at
            .checked_add(len)
            .and_then(|end| isa.get_mut(at..end))
            .ok_or_else(|| {
                Error::Argument(format!("ISA relocation at {at:#x} is outside the kernel"))
            })?;
        dst.copy_from_slice(&bytes[..len]);
    }
    Ok(())
}
