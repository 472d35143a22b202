//! Access to pointers found inside ioctl arguments, the way the kernel's `copy_from_user` and
//! `copy_to_user` do it: through `process_vm_readv`/`process_vm_writev`, which fail with EFAULT
//! on unmapped memory instead of crashing. A raw user pointer is never dereferenced.
//!
//! The pointers are the calling process's: our own, or, while [`on_behalf_of`] runs an ioctl
//! a forked child forwarded to the process that holds the simulated GPU, the child's.

use std::cell::Cell;
use std::io::{IoSlice, IoSliceMut};

use kmd_iface::seam::Errno;
use nix::sys::uio::{process_vm_readv, process_vm_writev, RemoteIoVec};
use nix::unistd::Pid;
use zerocopy::{FromBytes, IntoBytes};

/// Largest array an ioctl may make us copy in one go (the kernel limits counts similarly).
pub const MAX_COPY: usize = 64 << 20;

fn remote(addr: u64, len: usize) -> Result<RemoteIoVec, Errno> {
    let base = usize::try_from(addr).map_err(|_| Errno::EFAULT)?;
    base.checked_add(len).ok_or(Errno::EFAULT)?;
    Ok(RemoteIoVec { base, len })
}

thread_local! {
    /// The process an ioctl running on this thread came from; `None`: our own.
    static CALLER: Cell<Option<i32>> = const { Cell::new(None) };
}

/// Runs `f` (an ioctl) with user pointers referring to process `pid`'s memory: how the
/// process holding a simulated GPU serves an ioctl a forked child issued on an inherited fd
/// (the kernel's file is shared; the pointers are the caller's). Userptr objects made during
/// `f` keep referring to that process.
pub fn on_behalf_of<R>(pid: i32, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<i32>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CALLER.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CALLER.with(|c| c.replace(Some(pid))));
    f()
}

/// The process whose memory the running ioctl's pointers refer to (`None`: ours).
pub(crate) fn caller() -> Option<i32> {
    CALLER.with(Cell::get)
}

fn pid_of(process: Option<i32>) -> Pid {
    process.map_or_else(Pid::this, Pid::from_raw)
}

/// `copy_from_user`: fills `dst` from user address `addr`.
pub fn read(addr: u64, dst: &mut [u8]) -> Result<(), Errno> {
    read_in(caller(), addr, dst)
}

/// Fills `dst` from address `addr` of `process` (`None`: ours).
pub(crate) fn read_in(process: Option<i32>, addr: u64, dst: &mut [u8]) -> Result<(), Errno> {
    if dst.is_empty() {
        return Ok(());
    }
    let len = dst.len();
    let r = remote(addr, len)?;
    match process_vm_readv(pid_of(process), &mut [IoSliceMut::new(dst)], &[r]) {
        Ok(n) if n == len => Ok(()),
        _ => Err(Errno::EFAULT),
    }
}

/// `copy_to_user`: writes `src` to user address `addr`.
pub fn write(addr: u64, src: &[u8]) -> Result<(), Errno> {
    write_in(caller(), addr, src)
}

/// Writes `src` to address `addr` of `process` (`None`: ours).
pub(crate) fn write_in(process: Option<i32>, addr: u64, src: &[u8]) -> Result<(), Errno> {
    if src.is_empty() {
        return Ok(());
    }
    let r = remote(addr, src.len())?;
    match process_vm_writev(pid_of(process), &[IoSlice::new(src)], &[r]) {
        Ok(n) if n == src.len() => Ok(()),
        _ => Err(Errno::EFAULT),
    }
}

/// Reads one `T` from user memory.
pub fn read_val<T: FromBytes + IntoBytes>(addr: u64) -> Result<T, Errno> {
    let mut v = T::new_zeroed();
    read(addr, v.as_mut_bytes())?;
    Ok(v)
}

/// Writes one `T` to user memory.
pub fn write_val<T: IntoBytes + zerocopy::Immutable>(addr: u64, v: &T) -> Result<(), Errno> {
    write(addr, v.as_bytes())
}

/// Reads `count` consecutive `T`s. Counts whose byte size overflows or exceeds [`MAX_COPY`]
/// are EINVAL, as the kernel rejects absurd array sizes before copying.
pub fn read_array<T: FromBytes + IntoBytes + Clone>(
    addr: u64,
    count: usize,
) -> Result<Vec<T>, Errno> {
    let bytes = count
        .checked_mul(std::mem::size_of::<T>())
        .filter(|&b| b <= MAX_COPY)
        .ok_or(Errno::EINVAL)?;
    let mut v = vec![T::new_zeroed(); count];
    read(addr, &mut v.as_mut_bytes()[..bytes])?;
    Ok(v)
}

/// What a probed range of host memory must allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Normal memory exists there (i915's probe_range: no holes, no PFN/mixed maps).
    Exists,
    /// Pages can be pinned for GPU reads.
    Read,
    /// Pages can be pinned for GPU reads and writes (the kernels' FOLL_WRITE pinning).
    ReadWrite,
}

/// Checks that `[addr, addr+len)` is covered, without holes, by mappings of normal memory that
/// allow `need`, as the kernels do before pinning userptr pages; EFAULT otherwise. The mappings
/// come from the calling process's /proc/<pid>/maps, so nothing is touched; where it cannot be
/// read, every page is read once instead (which checks `Exists`/`Read` only).
pub fn probe(addr: u64, len: u64, need: Need) -> Result<(), Errno> {
    Mappings::read().probe(addr, len, need)
}

/// The calling process's mappings, read once for several [`Mappings::probe`]s: a request
/// pinning many userptr objects reads the map file once, not once per object (it is long in a
/// process with many libraries, and the kernel builds it anew at each read).
pub struct Mappings(Option<String>);

impl Mappings {
    /// The caller's mappings now (none readable: probes then read each page instead).
    pub fn read() -> Mappings {
        let maps = match caller() {
            None => std::fs::read_to_string("/proc/self/maps"),
            Some(pid) => std::fs::read_to_string(format!("/proc/{pid}/maps")),
        };
        Mappings(maps.ok())
    }

    /// [`probe`] against these mappings.
    pub fn probe(&self, addr: u64, len: u64, need: Need) -> Result<(), Errno> {
        let end = addr.checked_add(len).ok_or(Errno::EFAULT)?;
        let Some(maps) = &self.0 else {
            let mut at = addr;
            while at < end {
                read(at, &mut [0u8])?;
                at = (at | 0xfff) + 1;
            }
            return Ok(());
        };
        let mut at = addr;
        for vma in maps.lines().filter_map(Vma::parse) {
            if at >= end {
                break;
            }
            if vma.end <= at {
                continue;
            }
            if vma.start > at || !vma.allows(need) {
                return Err(Errno::EFAULT);
            }
            at = vma.end;
        }
        if at >= end {
            Ok(())
        } else {
            Err(Errno::EFAULT)
        }
    }
}

/// One line of /proc/self/maps: `start-end perms offset dev inode [name]`.
struct Vma<'a> {
    start: u64,
    end: u64,
    perms: &'a str,
    name: &'a str,
}

impl<'a> Vma<'a> {
    fn parse(line: &'a str) -> Option<Self> {
        let mut f = line.split_whitespace();
        let (start, end) = f.next()?.split_once('-')?;
        let perms = f.next()?;
        let name = f.nth(3).unwrap_or("");
        Some(Vma {
            start: u64::from_str_radix(start, 16).ok()?,
            end: u64::from_str_radix(end, 16).ok()?,
            perms,
            name,
        })
    }

    fn allows(&self, need: Need) -> bool {
        // The kernel's special mappings have no struct pages (VM_PFNMAP / VM_MIXEDMAP).
        let normal = !(self.name.starts_with("[vvar") || self.name == "[vsyscall]");
        let b = self.perms.as_bytes();
        normal
            && match need {
                Need::Exists => true,
                Need::Read => b.first() == Some(&b'r'),
                Need::ReadWrite => b.first() == Some(&b'r') && b.get(1) == Some(&b'w'),
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_real_memory_and_faults_on_bad_pointers() {
        let src = [1u32, 2, 3];
        let got: Vec<u32> = read_array(src.as_ptr() as u64, 3).unwrap();
        assert_eq!(got, src);
        let mut dst = [0u64; 1];
        write_val(dst.as_mut_ptr() as u64, &0x1122_3344_5566_7788u64).unwrap();
        assert_eq!(dst[0], 0x1122_3344_5566_7788);
        assert_eq!(read_val::<u32>(0).unwrap_err(), Errno::EFAULT);
        assert_eq!(read_val::<u32>(8).unwrap_err(), Errno::EFAULT);
        assert_eq!(write_val(u64::MAX - 2, &0u32).unwrap_err(), Errno::EFAULT);
        assert_eq!(
            read_array::<u64>(src.as_ptr() as u64, usize::MAX / 4).unwrap_err(),
            Errno::EINVAL
        );
        // Read-only memory (a string literal) cannot be written.
        let ro: &'static [u8; 4] = b"abcd";
        assert_eq!(write(ro.as_ptr() as u64, b"x").unwrap_err(), Errno::EFAULT);
    }

    #[test]
    fn probe_follows_the_process_mappings() {
        let len = 3 * 4096;
        let rw = memmap2::MmapMut::map_anon(len).unwrap();
        let base = rw.as_ptr() as u64;
        for need in [Need::Exists, Need::Read, Need::ReadWrite] {
            probe(base, len as u64, need).unwrap();
        }
        let ro = memmap2::MmapMut::map_anon(4096)
            .unwrap()
            .make_read_only()
            .unwrap();
        let ro_base = ro.as_ptr() as u64;
        probe(ro_base, 4096, Need::Read).unwrap();
        assert_eq!(probe(ro_base, 4096, Need::ReadWrite), Err(Errno::EFAULT));
        // Page 0 and the end of the address space are holes.
        assert_eq!(probe(0, 4096, Need::Exists), Err(Errno::EFAULT));
        assert_eq!(
            probe(u64::MAX - 4095, 4096, Need::Exists),
            Err(Errno::EFAULT)
        );
        assert_eq!(probe(u64::MAX, 2, Need::Exists), Err(Errno::EFAULT));
        drop(rw);
    }
}
