//! Bounds-checked little-endian reads that report file offsets.

use super::error::{ProgramError, Result};

/// A window on the input file: `data` starts at file offset `base`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bytes<'a> {
    pub data: &'a [u8],
    pub base: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8], base: usize) -> Self {
        Bytes { data, base }
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// `len` bytes at `off`, or an error naming `structure`.
    pub fn slice(
        &self,
        off: usize,
        len: usize,
        structure: &dyn Fn() -> String,
    ) -> Result<Bytes<'a>> {
        let available = self.data.len().saturating_sub(off);
        match off.checked_add(len) {
            Some(end) if end <= self.data.len() => {
                Ok(Bytes::new(&self.data[off..end], self.base + off))
            }
            _ => Err(ProgramError::Truncated {
                structure: structure(),
                offset: self.base + off,
                needed: len,
                available,
            }),
        }
    }

    pub fn u32_at(&self, off: usize, structure: &dyn Fn() -> String) -> Result<u32> {
        let b = self.slice(off, 4, structure)?.data;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn u64_at(&self, off: usize, structure: &dyn Fn() -> String) -> Result<u64> {
        let lo = self.u32_at(off, structure)? as u64;
        let hi = self.u32_at(off + 4, structure)? as u64;
        Ok(lo | (hi << 32))
    }
}

/// A NUL-padded string field as text (up to the first NUL).
pub(crate) fn c_string(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}
