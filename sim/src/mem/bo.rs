//! Buffer objects: zero-filled, page-granular memory shared by the CPU mapping and the GPU.

use std::sync::Arc;

use kmd_iface::seam::{MapAccessError, MapBacking, Mapping};
use memmap2::MmapMut;

use super::PAGE_SIZE;

/// Why a BO could not be created.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BoError {
    #[error("a BO size of {0:#x} is zero or not a multiple of 4 KiB")]
    BadSize(u64),
    #[error("cannot allocate {0:#x} bytes for a BO")]
    NoMemory(u64),
}

/// A buffer object. Its memory lives as long as any handle, binding or CPU mapping holds it.
#[derive(Debug)]
pub struct Bo {
    mem: Mapping,
}

impl Bo {
    /// Allocates `size` bytes (a non-zero multiple of [`PAGE_SIZE`]) of zeroed memory.
    pub fn new(size: u64) -> Result<Arc<Bo>, BoError> {
        if size == 0 || !size.is_multiple_of(PAGE_SIZE) {
            return Err(BoError::BadSize(size));
        }
        let len = usize::try_from(size).map_err(|_| BoError::NoMemory(size))?;
        let map = MmapMut::map_anon(len).map_err(|_| BoError::NoMemory(size))?;
        Ok(Arc::new(Bo {
            mem: Mapping::new(Arc::new(AnonBacking(map))),
        }))
    }

    pub fn size(&self) -> u64 {
        self.mem.len() as u64
    }

    /// The memory, as handed to a CPU `mmap` of this BO.
    pub fn mapping(&self) -> Mapping {
        self.mem.clone()
    }

    pub fn read(&self, offset: u64, dst: &mut [u8]) -> Result<(), MapAccessError> {
        self.mem.read(to_usize(offset), dst)
    }

    pub fn write(&self, offset: u64, src: &[u8]) -> Result<(), MapAccessError> {
        self.mem.write(to_usize(offset), src)
    }
}

/// Anonymous shared-nothing mmap: pages are zero and cost nothing until first touched, so a
/// large BO is as cheap as on the kernel, which also allocates backing pages lazily.
struct AnonBacking(MmapMut);

// SAFETY: the mapping stays at one address, readable and writable, for `len()` bytes until the
// MmapMut is dropped with the backing; Mapping only reaches it through raw copies and atomics.
unsafe impl MapBacking for AnonBacking {
    fn as_ptr(&self) -> *mut u8 {
        self.0.as_ptr().cast_mut()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// Offsets beyond `usize` saturate, which the mapping's bounds check then rejects.
fn to_usize(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_must_be_whole_pages() {
        assert_eq!(Bo::new(0).unwrap_err(), BoError::BadSize(0));
        assert_eq!(Bo::new(100).unwrap_err(), BoError::BadSize(100));
        assert_eq!(Bo::new(8192).unwrap().size(), 8192);
    }

    #[test]
    fn cpu_mapping_is_gpu_memory() {
        let bo = Bo::new(4096).unwrap();
        bo.write(16, &[1, 2, 3, 4]).unwrap();
        assert_eq!(bo.mapping().load_u32(16).unwrap(), 0x0403_0201);
        bo.mapping().write(0, &[9]).unwrap();
        let mut b = [0u8];
        bo.read(0, &mut b).unwrap();
        assert_eq!(b, [9]);
        assert!(bo.read(4095, &mut [0, 0]).is_err());
        assert!(bo.read(u64::MAX, &mut [0]).is_err());
    }
}
