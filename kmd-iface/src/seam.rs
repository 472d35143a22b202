//! The device-file seam: the one trait every ioctl and mmap goes through.
//!
//! A [`DeviceFile`] behaves like an open DRM render node. `ioctl` takes the request number (which
//! encodes direction and argument size, as `_IOWR` builds it) and the argument struct's bytes, read
//! and written in place like the kernel's `copy_from_user`/`copy_to_user` on the user's struct.
//! Pointers *inside* the struct (arrays, extension chains, user pointers) are addresses in this
//! process, exactly as on the real kernel; a simulator reads them with a fault-checked copy and
//! answers `EFAULT` for bad ones.
//!
//! `mmap` maps a range at a fake offset a GEM mmap-offset ioctl returned. The returned
//! [`Mapping`] keeps the memory alive; for the simulator it *is* the memory the GPU sees.

use std::fmt;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

pub use nix::errno::Errno;

/// An open DRM device (real render node or simulator).
pub trait DeviceFile: Send + Sync + fmt::Debug {
    /// `ioctl(fd, request, arg)`. `arg.len()` is the size encoded in `request`. Returns the ioctl's
    /// non-negative return value, or the errno it failed with. EINTR/EAGAIN retrying is the
    /// caller's (the safe wrappers') job, as with libdrm's `drmIoctl`.
    ///
    /// Programs use the typed wrappers ([`crate::i915`], [`crate::xe`], [`crate::drm_core`]),
    /// which build every pointer a request carries from live Rust values; this raw form is
    /// for forwarding (a preload shim, a metering wrapper) and for implementations.
    ///
    /// # Safety
    /// The kernel driver reads and writes through every pointer the request's struct in `arg`
    /// holds (arrays, user-extension chains, user pointers, out-values), as the uAPI defines
    /// for `request`. Each must point to memory valid for those accesses, of the sizes the
    /// struct's counts give, not otherwise borrowed, for the duration of the call (for
    /// userptr objects: for as long as the object lives). A wrong pointer lets the kernel (or
    /// the simulator, which writes with `process_vm_writev`) overwrite this process's memory.
    /// An implementation that answers a request returning a file descriptor
    /// (`PRIME_HANDLE_TO_FD`, `SYNCOBJ_HANDLE_TO_FD`) with success hands out a new descriptor
    /// of this process that nothing else owns: the wrappers take ownership of it.
    unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> Result<i32, Errno>;

    /// `mmap(NULL, len, PROT_READ|PROT_WRITE, MAP_SHARED, fd, offset)`.
    fn mmap(&self, offset: u64, len: usize) -> Result<Mapping, Errno>;

    /// `mmap(at, len, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_FIXED, fd, offset)`: as [`Self::mmap`],
    /// at exactly `at` (page aligned), replacing what was mapped there. The returned mapping
    /// unmaps the range when its last clone is dropped.
    ///
    /// # Safety
    /// `at..at + len` must be a range of this process's address space that the caller owns
    /// (a reservation it mapped) and that nothing reads, writes or unmaps from now on except
    /// through the returned [`Mapping`]: whatever was there is replaced, and the caller must not
    /// unmap its reservation afterwards.
    unsafe fn mmap_at(&self, offset: u64, len: usize, at: *mut u8) -> Result<Mapping, Errno>;

    /// How memory the host and the GPU share in place (a USM host allocation, whose pointer is
    /// the same number to both) is best made on this device.
    fn shared_host_memory(&self) -> SharedHostMemory {
        SharedHostMemory::Userptr
    }

    /// The device's sysfs directory (the render node's, e.g. `/sys/dev/char/226:128`), where
    /// the kernel's error capture is found ([`crate::gpu_error::read_capture`]). `None` for a
    /// device without one (the simulator keeps its own error log).
    fn sysfs_dir(&self) -> Option<std::path::PathBuf> {
        None
    }
}

/// Two ways to give the host and the GPU one copy of the same bytes at the same address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SharedHostMemory {
    /// Host pages wrapped as a userptr object (i915 GEM_USERPTR, xe MAP_USERPTR): what NEO
    /// does, and free for a real GPU, which reaches host pages by DMA.
    Userptr,
    /// A BO mapped for the CPU at its own GPU address ([`DeviceFile::mmap_at`]): for a device
    /// that reaches userptr pages only through fault-checked copies (a system call each, in the
    /// simulator) but its own BOs' pages directly.
    MappedBo,
}

/// Memory that backs a [`Mapping`].
///
/// # Safety
/// `as_ptr()` must point to `len()` bytes that stay valid for reads and writes, at the same
/// address, for as long as the backing value lives. Other parties (the GPU, a simulator thread) may
/// access the bytes concurrently; `Mapping` only touches them through raw copies and atomics.
pub unsafe trait MapBacking: Send + Sync {
    fn as_ptr(&self) -> *mut u8;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An access outside a mapping, or a misaligned atomic access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "access of {len} bytes at offset {offset:#x} outside a {size:#x}-byte mapping or misaligned"
)]
pub struct MapAccessError {
    pub offset: usize,
    pub len: usize,
    pub size: usize,
}

/// A CPU mapping of GPU-visible memory.
///
/// Reads and writes are bounds-checked volatile copies (the GPU may access the memory at the
/// same time). Values the CPU polls for ordering (fence values, post-sync data, timestamps)
/// are read with [`Mapping::load_u32`]/[`Mapping::load_u64`], atomic acquire loads; nothing
/// makes a Rust reference to the memory.
#[derive(Clone)]
pub struct Mapping {
    /// Keeps the memory alive; accesses use `addr` and `len`.
    _backing: Arc<dyn MapBacking>,
    /// The backing's address and length, fixed for its life (the `MapBacking` contract): read
    /// once here, so an access makes no virtual call (the simulator's data port makes one per
    /// message).
    addr: usize,
    len: usize,
}

impl fmt::Debug for Mapping {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mapping")
            .field("ptr", &self.as_ptr())
            .field("len", &self.len())
            .finish()
    }
}

impl Mapping {
    pub fn new(backing: Arc<dyn MapBacking>) -> Self {
        let (addr, len) = (backing.as_ptr() as usize, backing.len());
        Mapping {
            _backing: backing,
            addr,
            len,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The mapping's first byte, for code that hands the address to the kernel (e.g. userptr).
    pub fn as_ptr(&self) -> *mut u8 {
        self.addr as *mut u8
    }

    #[inline]
    fn check(&self, offset: usize, len: usize, align: usize) -> Result<*mut u8, MapAccessError> {
        let err = MapAccessError {
            offset,
            len,
            size: self.len(),
        };
        let end = offset.checked_add(len).ok_or(err)?;
        if end > self.len() {
            return Err(err);
        }
        // SAFETY: offset + len <= len(), so the pointer stays inside the backing allocation.
        let p = unsafe { self.as_ptr().add(offset) };
        if !(p as usize).is_multiple_of(align) {
            return Err(err);
        }
        Ok(p)
    }

    /// Copies `dst.len()` bytes out of the mapping, starting at `offset`, with volatile loads:
    /// the GPU may be writing the memory while the host reads (a buffer the host polls), so
    /// the compiler may neither elide, merge nor tear-and-reuse these accesses. Each load is
    /// as wide as the target makes in one instruction at its alignment (`pieces`). On error
    /// nothing is copied.
    #[inline]
    pub fn read(&self, offset: usize, dst: &mut [u8]) -> Result<(), MapAccessError> {
        let p = self.check(offset, dst.len(), 1)?;
        if (p as usize | dst.len()).is_multiple_of(WIDE) {
            // SAFETY: `check` proved [p, p+len) lies in the backing, which MapBacking keeps
            // valid; `p` and the length are multiples of the wide word, so wide loads alone
            // tile it (the simulator's data port: rows of registers at aligned addresses).
            unsafe { load::<Wide>(p, dst) };
            return Ok(());
        }
        if dst.len() == 4 && (p as usize).is_multiple_of(4) {
            // One DWord (an image's texel, most often), in one load too.
            // SAFETY: as above, for a 4-byte aligned DWord.
            unsafe { load::<u32>(p, dst) };
            return Ok(());
        }
        // SAFETY: `check` proved [p, p+len) lies in the backing.
        unsafe { Self::read_pieces(p, dst) };
        Ok(())
    }

    /// [`Mapping::read`]'s copy at any alignment and length.
    ///
    /// # Safety
    /// `p` must be valid for reads of `dst.len()` bytes.
    unsafe fn read_pieces(p: *mut u8, dst: &mut [u8]) {
        let [a, b, c, d, _] = pieces(p as usize, dst.len());
        let (p0, rest) = dst.split_at_mut(a);
        let (p1, rest) = rest.split_at_mut(b);
        let (p2, rest) = rest.split_at_mut(c);
        let (p3, p4) = rest.split_at_mut(d);
        // SAFETY: the caller vouches for [p, p+len); the pieces tile it in order, each
        // starting at a multiple of its unit (`pieces`).
        unsafe {
            load::<u8>(p, p0);
            load::<u64>(p.add(a), p1);
            load::<Wide>(p.add(a + b), p2);
            load::<u64>(p.add(a + b + c), p3);
            load::<u8>(p.add(a + b + c + d), p4);
        }
    }

    /// Copies `src` into the mapping at `offset` with volatile stores (the GPU may read it
    /// concurrently, see [`Mapping::read`]). On error nothing is written.
    #[inline]
    pub fn write(&self, offset: usize, src: &[u8]) -> Result<(), MapAccessError> {
        let p = self.check(offset, src.len(), 1)?;
        if (p as usize | src.len()).is_multiple_of(WIDE) {
            // SAFETY: as in `read`'s wide-word case.
            unsafe { store::<Wide>(p, src) };
            return Ok(());
        }
        if src.len() == 4 && (p as usize).is_multiple_of(4) {
            // SAFETY: as in `read`'s DWord case.
            unsafe { store::<u32>(p, src) };
            return Ok(());
        }
        // SAFETY: `check` proved [p, p+len) lies in the backing.
        unsafe { Self::write_pieces(p, src) };
        Ok(())
    }

    /// [`Mapping::write`]'s copy at any alignment and length.
    ///
    /// # Safety
    /// `p` must be valid for writes of `src.len()` bytes.
    unsafe fn write_pieces(p: *mut u8, src: &[u8]) {
        let [a, b, c, d, _] = pieces(p as usize, src.len());
        let (p0, rest) = src.split_at(a);
        let (p1, rest) = rest.split_at(b);
        let (p2, rest) = rest.split_at(c);
        let (p3, p4) = rest.split_at(d);
        // SAFETY: as in `read_pieces`.
        unsafe {
            store::<u8>(p, p0);
            store::<u64>(p.add(a), p1);
            store::<Wide>(p.add(a + b), p2);
            store::<u64>(p.add(a + b + c), p3);
            store::<u8>(p.add(a + b + c + d), p4);
        }
    }

    /// Atomic acquire load of a naturally aligned u32 the GPU may be writing.
    pub fn load_u32(&self, offset: usize) -> Result<u32, MapAccessError> {
        let p = self.check(offset, 4, 4)?;
        // SAFETY: in bounds and 4-byte aligned (checked); AtomicU32 has u32's layout, and the
        // memory is only accessed atomically or by raw copies, never through Rust references.
        Ok(unsafe { AtomicU32::from_ptr(p.cast()) }.load(Ordering::Acquire))
    }

    /// Atomic acquire load of a naturally aligned u64 the GPU may be writing.
    pub fn load_u64(&self, offset: usize) -> Result<u64, MapAccessError> {
        let p = self.check(offset, 8, 8)?;
        // SAFETY: as in `load_u32`, for 8 bytes and 8-byte alignment.
        Ok(unsafe { AtomicU64::from_ptr(p.cast()) }.load(Ordering::Acquire))
    }

    /// Atomic release store of a naturally aligned u64 (e.g. resetting a user-fence slot).
    pub fn store_u64(&self, offset: usize, value: u64) -> Result<(), MapAccessError> {
        let p = self.check(offset, 8, 8)?;
        // SAFETY: as in `load_u64`.
        unsafe { AtomicU64::from_ptr(p.cast()) }.store(value, Ordering::Release);
        Ok(())
    }
}

/// The widest access one instruction makes on the target: 16 bytes (SSE2, x86-64's baseline),
/// elsewhere 8.
#[cfg(target_arch = "x86_64")]
type Wide = std::arch::x86_64::__m128i;
#[cfg(not(target_arch = "x86_64"))]
type Wide = u64;
const WIDE: usize = std::mem::size_of::<Wide>();

/// Splits `len` bytes at address `addr` into the byte counts of five pieces, in order, each
/// starting at a multiple of its unit and a multiple of it long: single bytes up to 8-byte
/// alignment, a u64 up to [`WIDE`] alignment, wide words, a u64, the last single bytes.
fn pieces(addr: usize, len: usize) -> [usize; 5] {
    let head = (addr.wrapping_neg() % 8).min(len);
    let mut left = len - head;
    let to_wide = if !(addr + head).is_multiple_of(WIDE) && left >= 8 {
        8
    } else {
        0
    };
    left -= to_wide;
    let wide = left / WIDE * WIDE;
    left -= wide;
    let word = left / 8 * 8;
    [head, to_wide, wide, word, left - word]
}

/// Copies `dst.len()` bytes (a multiple of `T`'s size) from `src` with volatile loads of `T`.
///
/// # Safety
/// `src` must be aligned to `T` and valid for reads of `dst.len()` bytes.
#[inline(always)]
unsafe fn load<T: Copy>(src: *const u8, dst: &mut [u8]) {
    let n = std::mem::size_of::<T>();
    for (i, d) in dst.chunks_exact_mut(n).enumerate() {
        // SAFETY: i * n + n <= dst.len(): in the range the caller vouches for, and aligned.
        let v = unsafe { src.add(i * n).cast::<T>().read_volatile() };
        // SAFETY: `d` is n bytes of a live slice; an unaligned store needs no alignment.
        unsafe { d.as_mut_ptr().cast::<T>().write_unaligned(v) };
    }
}

/// Copies `src` (a multiple of `T`'s size) to `dst` with volatile stores of `T`.
///
/// # Safety
/// `dst` must be aligned to `T` and valid for writes of `src.len()` bytes.
#[inline(always)]
unsafe fn store<T: Copy>(dst: *mut u8, src: &[u8]) {
    let n = std::mem::size_of::<T>();
    for (i, s) in src.chunks_exact(n).enumerate() {
        // SAFETY: `s` is n bytes of a live slice; an unaligned load needs no alignment.
        let v = unsafe { s.as_ptr().cast::<T>().read_unaligned() };
        // SAFETY: in the range the caller vouches for, and aligned.
        unsafe { dst.add(i * n).cast::<T>().write_volatile(v) };
    }
}

/// Anonymous, page-aligned memory usable as a mapping's backing (the simulator's BO pages, tests).
pub struct HeapBacking {
    ptr: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
}

// SAFETY: HeapBacking owns its allocation exclusively; all access goes through raw pointers that
// Mapping bounds-checks, so sharing it across threads is no different from sharing a GPU buffer.
unsafe impl Send for HeapBacking {}
// SAFETY: see Send above.
unsafe impl Sync for HeapBacking {}

impl HeapBacking {
    /// Zero-filled memory of `len` bytes, aligned to 4096. `None` if `len` is zero or too large.
    pub fn zeroed(len: usize) -> Option<Self> {
        if len == 0 {
            return None;
        }
        let layout = std::alloc::Layout::from_size_align(len, 4096).ok()?;
        // SAFETY: layout has non-zero size (checked above).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        std::ptr::NonNull::new(raw).map(|ptr| HeapBacking { ptr, layout })
    }
}

impl Drop for HeapBacking {
    fn drop(&mut self) {
        // SAFETY: ptr was allocated in `zeroed` with exactly this layout and is freed only here.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout) };
    }
}

// SAFETY: the allocation lives, unmoved, until Drop, and is `layout.size()` bytes long.
unsafe impl MapBacking for HeapBacking {
    fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
    fn len(&self) -> usize {
        self.layout.size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapping(len: usize) -> Mapping {
        Mapping::new(Arc::new(HeapBacking::zeroed(len).unwrap()))
    }

    #[test]
    fn read_back_what_was_written() {
        let m = mapping(8192);
        m.write(4090, &[1, 2, 3, 4, 5, 6]).unwrap();
        let mut b = [0u8; 6];
        m.read(4090, &mut b).unwrap();
        assert_eq!(b, [1, 2, 3, 4, 5, 6]);
        assert_eq!(m.load_u32(4092).unwrap(), u32::from_le_bytes([3, 4, 5, 6]));
    }

    #[test]
    fn out_of_range_and_misaligned_are_errors() {
        let m = mapping(4096);
        assert!(m.write(4095, &[0, 0]).is_err());
        assert!(m.read(usize::MAX, &mut [0]).is_err());
        assert!(m.load_u32(2).is_err());
        assert!(m.load_u64(4092).is_err());
        assert!(m.load_u64(4088).is_ok());
    }

    #[test]
    fn clones_share_memory() {
        let a = mapping(4096);
        let b = a.clone();
        a.store_u64(8, 0xdead_beef_0000_0001).unwrap();
        assert_eq!(b.load_u64(8).unwrap(), 0xdead_beef_0000_0001);
    }

    /// The volatile copies split into bytes and aligned words: every start and length around
    /// the alignment boundaries copies exactly its bytes.
    #[test]
    fn copies_at_every_alignment() {
        let m = mapping(4096);
        for off in 0..33 {
            for len in 0..81 {
                let fill = vec![0xeeu8; 128];
                m.write(0, &fill).unwrap();
                let src: Vec<u8> = (0..len).map(|i| i as u8 + 1).collect();
                m.write(off, &src).unwrap();
                let mut all = [0u8; 128];
                m.read(0, &mut all).unwrap();
                for (i, &b) in all.iter().enumerate() {
                    let want = if (off..off + len).contains(&i) {
                        (i - off) as u8 + 1
                    } else {
                        0xee
                    };
                    assert_eq!(b, want, "offset {off}, length {len}, byte {i}");
                }
                let mut back = vec![0u8; len];
                m.read(off, &mut back).unwrap();
                assert_eq!(back, src, "offset {off}, length {len}");
            }
        }
    }

    #[test]
    fn zero_length_backing_is_refused() {
        assert!(HeapBacking::zeroed(0).is_none());
    }
}
