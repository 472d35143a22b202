//! Ranges of the process's own address space this driver maps for unified shared memory:
//! pages a host allocation lives in, and the inaccessible range that keeps a device
//! allocation's pointer from ever being a host address.

use kmd_iface::seam::MapBacking;
use nix::sys::mman::{mmap_anonymous, munmap, MapFlags, ProtFlags};

use crate::error::{Error, Result};

/// Anonymous pages this driver mapped (a host allocation's, or a device allocation's held
/// range); unmapped when the last user (the BO, the application's buffer) lets go.
#[derive(Debug)]
pub(crate) struct HostPages {
    pub(crate) ptr: *mut u8,
    len: usize,
}

// SAFETY: the pages are this object's own anonymous mapping, valid until drop.
unsafe impl MapBacking for HostPages {
    fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }
    fn len(&self) -> usize {
        self.len
    }
}
// SAFETY: plain addresses of a process-wide mapping.
unsafe impl Send for HostPages {}
// SAFETY: as above; accesses go through `Mapping`'s volatile copies.
unsafe impl Sync for HostPages {}

impl HostPages {
    /// `len` bytes of fresh zeroed pages starting at a multiple of `align` (a power of two, at
    /// least the page size).
    pub(crate) fn map(len: usize, align: usize) -> Result<HostPages> {
        HostPages::mapped(
            len,
            align,
            ProtFlags::PROT_READ | ProtFlags::PROT_WRITE,
            MapFlags::MAP_PRIVATE,
        )
    }

    /// `len` bytes of the address space starting at a multiple of `align`, held with no
    /// access and no memory behind them: an address no host memory can take while it lives.
    /// Only held, never read or written (never wrapped in a `Mapping`).
    pub(crate) fn reserve(len: usize, align: usize) -> Result<HostPages> {
        HostPages::mapped(
            len,
            align,
            ProtFlags::PROT_NONE,
            MapFlags::MAP_PRIVATE | MapFlags::MAP_NORESERVE,
        )
    }

    /// Hands the range over to a mapping that replaced it (and unmaps it when done).
    pub(crate) fn give_up(self) {
        std::mem::forget(self);
    }

    fn mapped(len: usize, align: usize, prot: ProtFlags, flags: MapFlags) -> Result<HostPages> {
        let fail = |e: nix::Error| Error::OutOfRange(format!("mmap of {len:#x} bytes: {e}"));
        let total = len
            .checked_add(align)
            .and_then(std::num::NonZeroUsize::new)
            .ok_or_else(|| Error::OutOfRange(format!("{len:#x} bytes do not fit")))?;
        // SAFETY: a new private anonymous mapping; nothing else refers to it.
        let base = unsafe { mmap_anonymous(None, total, prot, flags) }.map_err(fail)?;
        let start = (base.as_ptr() as usize).next_multiple_of(align);
        let (head, tail) = (
            start - base.as_ptr() as usize,
            total.get() - len - (start - base.as_ptr() as usize),
        );
        // Trim to the aligned `len` bytes.
        if head > 0 {
            // SAFETY: the first `head` bytes of the mapping just made, used by nothing.
            unsafe { munmap(base, head) }.map_err(fail)?;
        }
        if tail > 0 {
            let after = std::ptr::NonNull::new((start + len) as *mut std::ffi::c_void)
                .ok_or_else(|| Error::OutOfRange("mapping at address 0".into()))?;
            // SAFETY: the last `tail` bytes of the mapping just made, used by nothing.
            unsafe { munmap(after, tail) }.map_err(fail)?;
        }
        Ok(HostPages {
            ptr: start as *mut u8,
            len,
        })
    }
}

impl Drop for HostPages {
    fn drop(&mut self) {
        if let Some(p) = std::ptr::NonNull::new(self.ptr as *mut std::ffi::c_void) {
            // SAFETY: this object's own mapping; its last user is gone.
            let _ = unsafe { munmap(p, self.len) };
        }
    }
}
