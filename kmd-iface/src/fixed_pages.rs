//! A mapping placed at an address its maker chose ([`crate::seam::DeviceFile::mmap_at`]),
//! unmapped when its last user lets go.

use std::ptr::NonNull;

use nix::sys::mman::munmap;

use crate::seam::MapBacking;

/// `len` bytes mapped read-write at `ptr`, owned by this value.
#[derive(Debug)]
pub struct FixedPages {
    ptr: NonNull<u8>,
    len: usize,
}

impl FixedPages {
    /// Takes ownership of the mapping at `ptr`.
    ///
    /// # Safety
    /// `ptr..ptr + len` (`len` > 0) must be one read-write mapping that the caller just made
    /// and that nothing else unmaps: dropping the value unmaps it.
    pub unsafe fn adopt(ptr: NonNull<u8>, len: usize) -> FixedPages {
        FixedPages { ptr, len }
    }
}

// SAFETY: the pages stay mapped read-write at `ptr` until drop (`adopt`'s contract).
unsafe impl MapBacking for FixedPages {
    fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
    fn len(&self) -> usize {
        self.len
    }
}

// SAFETY: a process-wide mapping, reached only through `Mapping`'s copies and atomics.
unsafe impl Send for FixedPages {}
// SAFETY: as above.
unsafe impl Sync for FixedPages {}

impl Drop for FixedPages {
    fn drop(&mut self) {
        // SAFETY: this value's own mapping (`adopt`), whose last user is gone.
        let _ = unsafe { munmap(self.ptr.cast(), self.len) };
    }
}
