//! Buffer objects: zero-filled, page-granular memory shared by the CPU mapping and the GPU, or
//! a range of the host process's own memory (userptr).

use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use kmd_iface::seam::{MapAccessError, MapBacking, Mapping};
use memmap2::{MmapOptions, MmapRaw};

use super::PAGE_SIZE;
use crate::user;

/// Why a BO could not be created.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BoError {
    #[error("a BO size of {0:#x} is zero or not a multiple of 4 KiB")]
    BadSize(u64),
    #[error("cannot allocate {0:#x} bytes for a BO")]
    NoMemory(u64),
    #[error("host range {addr:#x}+{len:#x} is not page aligned, empty or wraps")]
    BadHostRange { addr: u64, len: u64 },
}

/// Why a BO access failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BoAccessError {
    #[error(transparent)]
    OutOfRange(#[from] MapAccessError),
    /// The host pages behind a userptr BO are gone (unmapped, or not writable for a write).
    #[error("host memory at {0:#x} is not accessible")]
    HostFault(u64),
}

/// A buffer object. Its memory lives as long as any handle, binding or CPU mapping holds it.
#[derive(Debug)]
pub struct Bo {
    storage: Storage,
    /// Creation order of owned BOs (see [`share_bo_pages`]).
    serial: u64,
}

#[derive(Debug)]
enum Storage {
    /// Memory the simulator allocated; CPU mmaps of the BO show these very bytes. The pages
    /// are a shared mapping of a memfd, so a second mapping of them (`mremap` with an old size
    /// of 0, as the preload shim does for a process's `mmap` of the render node) is the same
    /// memory, not a copy.
    /// The memfd behind them is kept only for BOs made after [`share_bo_pages`], which other
    /// processes then map.
    Owned(Mapping, Option<OwnedFd>),
    /// The host process's pages at `addr` (i915 GEM_USERPTR, xe MAP_USERPTR), in the process
    /// whose ioctl made the BO (`None`: ours; see `user::on_behalf_of`). They are reached with
    /// fault-checked copies, so pages the host unmapped become GPU faults, not crashes.
    Host(HostRange, Option<i32>),
}

/// The next owned BO's serial.
static NEXT_SERIAL: AtomicU64 = AtomicU64::new(1);
/// Whether new owned BOs keep their memfd (set once by [`share_bo_pages`]).
static KEEP_FDS: AtomicBool = AtomicBool::new(false);

/// From now on, every new BO keeps the memfd its pages are mapped from, so that a forked
/// child can map them too ([`SharedPages::fd`]); BOs made before share them already, being
/// `MAP_SHARED` mappings the child inherits. Returns the serial of the first BO made after
/// this call: a BO whose serial is lower existed, mapped, before it.
pub fn share_bo_pages() -> u64 {
    KEEP_FDS.store(true, Ordering::SeqCst);
    NEXT_SERIAL.load(Ordering::SeqCst)
}

/// How another process of the same family can map a BO's pages.
#[derive(Debug)]
pub struct SharedPages {
    /// Where they are mapped in this process (and, for a BO older than a fork, in the child).
    pub addr: usize,
    pub len: usize,
    /// The BO's serial, to compare with [`share_bo_pages`]'s answer at the fork.
    pub serial: u64,
    /// A new fd of the memfd behind them, for BOs made after [`share_bo_pages`].
    pub fd: Option<OwnedFd>,
}

/// A page-aligned range of the host process's address space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostRange {
    pub addr: u64,
    pub len: u64,
    /// i915 I915_USERPTR_READ_ONLY: GPU writes fault.
    pub read_only: bool,
}

impl Bo {
    /// Allocates `size` bytes (a non-zero multiple of [`PAGE_SIZE`]) of zeroed memory.
    pub fn new(size: u64) -> Result<Arc<Bo>, BoError> {
        if size == 0 || !size.is_multiple_of(PAGE_SIZE) {
            return Err(BoError::BadSize(size));
        }
        let len = usize::try_from(size).map_err(|_| BoError::NoMemory(size))?;
        let (map, fd) = shared_pages(len).ok_or(BoError::NoMemory(size))?;
        // The serial is taken after the pages are mapped, and the flag read after the serial:
        // a BO numbered below `share_bo_pages`'s answer was mapped before that call, and one
        // numbered at or above it sees the flag set.
        let serial = NEXT_SERIAL.fetch_add(1, Ordering::SeqCst);
        let fd = KEEP_FDS.load(Ordering::SeqCst).then_some(fd);
        Ok(Arc::new(Bo {
            storage: Storage::Owned(Mapping::new(Arc::new(SharedBacking(map))), fd),
            serial,
        }))
    }

    /// How another process may map this BO's pages; `None` for a userptr BO.
    pub fn shared_pages(&self) -> Option<SharedPages> {
        match &self.storage {
            Storage::Owned(m, fd) => Some(SharedPages {
                addr: m.as_ptr() as usize,
                len: m.len(),
                serial: self.serial,
                fd: fd
                    .as_ref()
                    .and_then(|f| f.as_fd().try_clone_to_owned().ok()),
            }),
            Storage::Host(..) => None,
        }
    }

    /// The memfd behind an owned BO's pages, if kept (see [`share_bo_pages`]).
    pub fn memfd(&self) -> Option<std::os::fd::RawFd> {
        use std::os::fd::AsRawFd;
        match &self.storage {
            Storage::Owned(_, fd) => fd.as_ref().map(|f| f.as_raw_fd()),
            Storage::Host(..) => None,
        }
    }

    /// A BO over the host's own pages (userptr). The range must be page aligned and non-empty;
    /// whether the pages exist is the caller's check (the kernels check it at different times).
    pub fn host(range: HostRange) -> Result<Arc<Bo>, BoError> {
        let bad = BoError::BadHostRange {
            addr: range.addr,
            len: range.len,
        };
        if range.len == 0 || !(range.addr | range.len).is_multiple_of(PAGE_SIZE) {
            return Err(bad);
        }
        range.addr.checked_add(range.len).ok_or(bad)?;
        Ok(Arc::new(Bo {
            storage: Storage::Host(range, user::caller()),
            serial: 0,
        }))
    }

    pub fn size(&self) -> u64 {
        match &self.storage {
            Storage::Owned(m, _) => m.len() as u64,
            Storage::Host(r, _) => r.len,
        }
    }

    /// The host range of a userptr BO.
    pub fn host_range(&self) -> Option<HostRange> {
        match &self.storage {
            Storage::Owned(..) => None,
            Storage::Host(r, _) => Some(*r),
        }
    }

    /// GPU bindings of this BO may not be written.
    pub fn is_read_only(&self) -> bool {
        self.host_range().is_some_and(|r| r.read_only)
    }

    /// The memory, as handed to a CPU `mmap` of this BO. A userptr BO has no mapping of its
    /// own (the host already holds the pointer, and the kernels refuse to mmap such objects):
    /// it answers an empty one, on which every access is out of range.
    pub fn mapping(&self) -> Mapping {
        match &self.storage {
            Storage::Owned(m, _) => m.clone(),
            Storage::Host(..) => Mapping::new(Arc::new(NoBacking)),
        }
    }

    /// A second CPU mapping of the first `len` bytes of this BO's pages at exactly `at`,
    /// replacing what was mapped there (`mremap` with an old size of 0 duplicates a shared
    /// mapping): the same memory, not a copy. Refused (`None`) for a userptr BO, whose pages
    /// are the host's already, and for a bad length.
    ///
    /// # Safety
    /// As [`kmd_iface::seam::DeviceFile::mmap_at`]: the range at `at` is the caller's
    /// reservation, given up to the returned mapping.
    pub unsafe fn map_at(&self, len: usize, at: *mut u8) -> Option<Mapping> {
        use nix::sys::mman::{mremap, MRemapFlags};
        let Storage::Owned(m, _) = &self.storage else {
            return None;
        };
        if len == 0 || len > m.len() {
            return None;
        }
        let src = std::ptr::NonNull::new(m.as_ptr())?.cast();
        let dst = std::ptr::NonNull::new(at)?.cast();
        // SAFETY: `src` is this BO's shared mapping, alive while `self` is; the destination is
        // the caller's to replace (this function's contract).
        let p = unsafe {
            mremap(
                src,
                0,
                len,
                MRemapFlags::MREMAP_MAYMOVE | MRemapFlags::MREMAP_FIXED,
                Some(dst),
            )
        }
        .ok()?;
        // SAFETY: the read-write mapping of `len` bytes just made, owned by nothing else; the
        // memfd pages behind it live as long as any mapping of them.
        let pages = unsafe { kmd_iface::fixed_pages::FixedPages::adopt(p.cast(), len) };
        Some(Mapping::new(Arc::new(pages)))
    }

    /// The memory of a BO the simulator allocated, which it reads and writes directly
    /// ([`Mapping::read`] and [`Mapping::write`] copy nothing when they fail); `None` for a
    /// userptr BO, reached with copies that may fail part way.
    pub fn owned_mapping(&self) -> Option<&Mapping> {
        match &self.storage {
            Storage::Owned(m, _) => Some(m),
            Storage::Host(..) => None,
        }
    }

    pub fn read(&self, offset: u64, dst: &mut [u8]) -> Result<(), BoAccessError> {
        match &self.storage {
            Storage::Owned(m, _) => Ok(m.read(to_usize(offset), dst)?),
            Storage::Host(r, process) => {
                let at = host_address(r, offset, dst.len())?;
                user::read_in(*process, at, dst).map_err(|_| BoAccessError::HostFault(at))
            }
        }
    }

    pub fn write(&self, offset: u64, src: &[u8]) -> Result<(), BoAccessError> {
        match &self.storage {
            Storage::Owned(m, _) => Ok(m.write(to_usize(offset), src)?),
            Storage::Host(r, process) => {
                let at = host_address(r, offset, src.len())?;
                if r.read_only {
                    return Err(BoAccessError::HostFault(at));
                }
                user::write_in(*process, at, src).map_err(|_| BoAccessError::HostFault(at))
            }
        }
    }
}

/// The host address of `len` bytes at `offset` in `r`, bounds-checked like a mapping access.
fn host_address(r: &HostRange, offset: u64, len: usize) -> Result<u64, MapAccessError> {
    let err = MapAccessError {
        offset: to_usize(offset),
        len,
        size: to_usize(r.len),
    };
    match offset.checked_add(len as u64) {
        Some(end) if end <= r.len => Ok(r.addr + offset),
        _ => Err(err),
    }
}

/// `len` zeroed bytes: a MAP_SHARED mapping of a fresh memfd of that size, and the memfd.
/// Pages cost nothing until first touched, so a large BO is as cheap as on the kernel, which
/// also allocates backing pages lazily. Once the memfd is closed the mapping keeps the pages.
fn shared_pages(len: usize) -> Option<(MmapRaw, OwnedFd)> {
    use nix::sys::memfd::{memfd_create, MemFdCreateFlag};
    let fd = memfd_create(c"intel-gpu-sim-bo", MemFdCreateFlag::MFD_CLOEXEC).ok()?;
    nix::unistd::ftruncate(&fd, i64::try_from(len).ok()?).ok()?;
    let map = MmapOptions::new().len(len).map_raw(&fd).ok()?;
    Some((map, fd))
}

/// A BO's own pages (see [`shared_pages`]).
struct SharedBacking(MmapRaw);

// SAFETY: the mapping stays at one address, readable and writable, for `len()` bytes until the
// MmapRaw is dropped with the backing; Mapping only reaches it through raw copies and atomics.
unsafe impl MapBacking for SharedBacking {
    fn as_ptr(&self) -> *mut u8 {
        self.0.as_mut_ptr()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// Zero bytes: the mapping of a BO that has no CPU mapping.
struct NoBacking;

// SAFETY: a dangling, well-aligned pointer is valid for zero-byte accesses, the only ones
// Mapping's bounds check lets through for a length of zero.
unsafe impl MapBacking for NoBacking {
    fn as_ptr(&self) -> *mut u8 {
        std::ptr::NonNull::<u64>::dangling().as_ptr().cast()
    }
    fn len(&self) -> usize {
        0
    }
}

/// Offsets beyond `usize` saturate, which the mapping's bounds check then rejects.
fn to_usize(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use memmap2::MmapMut;

    #[test]
    fn sizes_must_be_whole_pages() {
        assert_eq!(Bo::new(0).unwrap_err(), BoError::BadSize(0));
        assert_eq!(Bo::new(100).unwrap_err(), BoError::BadSize(100));
        assert_eq!(Bo::new(8192).unwrap().size(), 8192);
        assert!(Bo::new(8192).unwrap().host_range().is_none());
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

    /// Page-aligned host memory of `pages` pages, as an application would hand it over.
    fn host_pages(pages: usize) -> MmapMut {
        MmapMut::map_anon(pages * PAGE_SIZE as usize).unwrap()
    }

    #[test]
    fn host_bos_are_the_hosts_own_bytes() {
        let mut host = host_pages(2);
        let addr = host.as_mut_ptr() as u64;
        assert_eq!(addr % PAGE_SIZE, 0);
        let bo = Bo::host(HostRange {
            addr,
            len: 2 * PAGE_SIZE,
            read_only: false,
        })
        .unwrap();
        assert_eq!(bo.size(), 2 * PAGE_SIZE);
        bo.write(4095, &[7, 8]).unwrap();
        assert_eq!(&host[4095..4097], &[7, 8]);
        host[100] = 42;
        let mut b = [0u8];
        bo.read(100, &mut b).unwrap();
        assert_eq!(b, [42]);
        assert!(matches!(
            bo.read(2 * PAGE_SIZE - 1, &mut [0, 0]),
            Err(BoAccessError::OutOfRange(_))
        ));
        // No CPU mapping of its own.
        assert!(bo.mapping().is_empty());
        assert!(bo.mapping().load_u32(0).is_err());
    }

    #[test]
    fn host_bo_rules_and_faults() {
        let bad = |addr, len| {
            Bo::host(HostRange {
                addr,
                len,
                read_only: false,
            })
            .unwrap_err()
        };
        assert!(matches!(bad(0x1001, 0x1000), BoError::BadHostRange { .. }));
        assert!(matches!(bad(0x1000, 0x10), BoError::BadHostRange { .. }));
        assert!(matches!(bad(0x1000, 0), BoError::BadHostRange { .. }));
        assert!(matches!(bad(!0xfff, 0x2000), BoError::BadHostRange { .. }));
        // Page 0 is never mapped: the access fails instead of crashing the host.
        let nothing = Bo::host(HostRange {
            addr: 0,
            len: PAGE_SIZE,
            read_only: false,
        })
        .unwrap();
        assert_eq!(
            nothing.read(8, &mut [0u8; 4]).unwrap_err(),
            BoAccessError::HostFault(8)
        );
        let host = host_pages(1);
        let ro = Bo::host(HostRange {
            addr: host.as_ptr() as u64,
            len: PAGE_SIZE,
            read_only: true,
        })
        .unwrap();
        assert!(ro.is_read_only());
        assert!(matches!(
            ro.write(0, &[1]),
            Err(BoAccessError::HostFault(_))
        ));
        assert_eq!(host[0], 0);
    }
}
