//! Caller-owned memory the builder writes into: the batch, and state heaps at known GPU
//! addresses (softpin: every address is final when written, no relocations).

use super::BuildError;
use crate::codec::Packet;
use crate::packets::MiLoadRegisterImm;
use platform::Platform;

/// A batch buffer being filled: commands are packed straight into the caller's dwords.
#[derive(Debug)]
pub struct Batch<'a> {
    mem: &'a mut [u32],
    pos: usize,
}

impl<'a> Batch<'a> {
    /// An empty batch over `mem`.
    pub fn new(mem: &'a mut [u32]) -> Self {
        Batch { mem, pos: 0 }
    }
    /// Packs one command at the end of the batch.
    #[inline]
    pub fn emit<P: Packet>(&mut self, p: Platform, pkt: &P) -> Result<(), BuildError> {
        let room = self.mem.len() - self.pos;
        let n = pkt
            .pack(p, &mut self.mem[self.pos..])
            .map_err(|e| match e {
                crate::Error::ShortBuffer { need, .. } => BuildError::BatchFull { need, room },
                other => BuildError::Packet(other),
            })?;
        self.pos += n;
        Ok(())
    }
    /// Loads every `(register offset, value)` pair in order with as few MI_LOAD_REGISTER_IMM as
    /// fit ([`MiLoadRegisterImm::MAX_PAIRS`] each). Offsets are absolute MMIO offsets, dword
    /// aligned. No pairs writes nothing.
    pub fn load_registers(&mut self, p: Platform, pairs: &[(u32, u32)]) -> Result<(), BuildError> {
        for chunk in pairs.chunks(MiLoadRegisterImm::MAX_PAIRS) {
            let lri = MiLoadRegisterImm::from_pairs(chunk)
                .ok_or(BuildError::Unsupported("register load chunk"))?;
            self.emit(p, &lri)?;
        }
        Ok(())
    }
    /// Appends already packed commands.
    #[inline]
    pub fn extend(&mut self, words: &[u32]) -> Result<(), BuildError> {
        let room = self.mem.len() - self.pos;
        let dst = self.mem[self.pos..]
            .get_mut(..words.len())
            .ok_or(BuildError::BatchFull {
                need: words.len(),
                room,
            })?;
        dst.copy_from_slice(words);
        self.pos += words.len();
        Ok(())
    }
    /// Dwords written so far.
    pub fn len(&self) -> usize {
        self.pos
    }
    /// True when nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.pos == 0
    }
    /// The commands written so far.
    pub fn as_slice(&self) -> &[u32] {
        &self.mem[..self.pos]
    }
    /// Forgets everything written (the memory is reused).
    pub fn clear(&mut self) {
        self.pos = 0;
    }
}

/// A state heap: caller memory mapped at `gpu_base`, filled front to back.
#[derive(Debug)]
pub struct Heap<'a> {
    /// Name for errors ("surface", "dynamic", "indirect").
    pub name: &'static str,
    /// GPU virtual address of `mem[0]` (4 KiB aligned; it becomes a STATE_BASE_ADDRESS base).
    pub gpu_base: u64,
    mem: &'a mut [u32],
    used: usize,
}

impl<'a> Heap<'a> {
    /// A heap over `mem`, bound at `gpu_base`.
    pub fn new(name: &'static str, gpu_base: u64, mem: &'a mut [u32]) -> Self {
        Heap {
            name,
            gpu_base,
            mem,
            used: 0,
        }
    }
    /// Reserves `dwords` at a byte alignment (a power of two ≥ 4); returns the byte offset from
    /// `gpu_base` and the zeroed memory.
    pub fn alloc(&mut self, dwords: usize, align: usize) -> Result<(u32, &mut [u32]), BuildError> {
        let align_dw = (align / 4).max(1);
        let start = self.used.div_ceil(align_dw) * align_dw;
        let end = start + dwords;
        if end > self.mem.len() {
            return Err(BuildError::HeapFull {
                heap: self.name,
                need: end * 4,
                size: self.mem.len() * 4,
            });
        }
        self.used = end;
        let out = &mut self.mem[start..end];
        out.fill(0);
        Ok(((start * 4) as u32, out))
    }
    /// Size in bytes.
    pub fn size(&self) -> usize {
        self.mem.len() * 4
    }
    /// Bytes handed out so far.
    pub fn used(&self) -> usize {
        self.used * 4
    }
    /// Reads back `dwords` at byte offset `at` (for tests and dumps).
    pub fn read(&self, at: u32, dwords: usize) -> Option<&[u32]> {
        let s = at as usize / 4;
        self.mem.get(s..s + dwords)
    }
    /// Forgets every allocation.
    pub fn reset(&mut self) {
        self.used = 0;
    }
}
