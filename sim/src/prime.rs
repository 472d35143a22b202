//! Objects shared through file descriptors, as the kernel shares them: PRIME dma-bufs
//! (`drm_prime.c`) and opaque syncobj files (`drm_syncobj.c`).
//!
//! Each shared object has a real file, known by its inode (`st_dev`, `st_ino`), so an fd of it
//! is recognised whatever its number, after `dup`, and in another process it was passed to:
//! - A dma-buf's file is the BO's own memfd reopened (read-only unless exported with
//!   DRM_RDWR), so `mmap`, `lseek(SEEK_END)` and `fstat` of it behave as on a dma-buf and show
//!   the BO's pages. A BO whose memfd the simulator has not kept (one made before
//!   [`crate::share_bo_pages`]) gets a pipe instead: recognised, but `mmap` of it
//!   answers ENODEV and `lseek` ESPIPE unless the preload shim maps it ([`dma_buf_mapping`]).
//!   As in the kernel, every export of an object hands out a new fd of the one file
//!   (`dma_buf_fd`), so the first export's DRM_RDWR decides the file's access mode.
//! - A syncobj export is a new memfd each time (`anon_inode_getfile` per export).
//!
//! The registry is process-wide, so files of different simulated GPUs share objects as
//! different devices do through dma-buf. The kernel keeps a shared object alive while any fd
//! of its file is open; the simulator keeps one while a handle holds it or an fd of its file
//! is open in this process (checked when the registry is next used).

use std::collections::HashMap;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use kmd_iface::drm_core::uapi::{DRM_CLOEXEC, DRM_RDWR};
use kmd_iface::seam::{Errno, Mapping};
use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::sys::stat::fstat;

use crate::activity::Activity;
use crate::mem::Bo;
use crate::sync::SharedSyncobj;

/// A file's identity: (`st_dev`, `st_ino`).
pub type FileKey = (u64, u64);

/// An exported GEM object: what an import of it gives a file.
#[derive(Debug)]
pub struct DmaBuf {
    pub bo: Arc<Bo>,
    pub(crate) activity: Arc<Activity>,
    pub min_page: u64,
    pub region: u16,
    /// xe's CPU caching of the object (a self-import is the same object).
    pub xe_cpu_caching: Option<u16>,
    /// The file every export of the object hands out an fd of.
    file: OwnedFd,
    key: FileKey,
    /// The file is the BO's memfd (mmap of it is the BO's pages).
    mappable: bool,
    /// Exported first with DRM_RDWR: writable mappings are allowed.
    rdwr: bool,
}

impl DmaBuf {
    pub fn key(&self) -> FileKey {
        self.key
    }
}

#[derive(Default)]
struct Registry {
    bufs: HashMap<FileKey, Arc<DmaBuf>>,
    /// BO address -> its dma-buf's key.
    by_bo: HashMap<usize, FileKey>,
    syncobjs: HashMap<FileKey, Arc<SharedSyncobj>>,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

fn registry() -> MutexGuard<'static, Option<Registry>> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

fn key_of(fd: BorrowedFd<'_>) -> Result<FileKey, Errno> {
    let st = fstat(fd.as_raw_fd())?;
    Ok((st.st_dev, st.st_ino))
}

fn bo_id(bo: &Arc<Bo>) -> usize {
    Arc::as_ptr(bo) as usize
}

/// The keys of the files this process has fds of, except `skip` (fd numbers).
fn open_keys(skip: &[RawFd]) -> Vec<FileKey> {
    let Ok(dir) = std::fs::read_dir("/proc/self/fd") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<RawFd>().ok())
        .filter(|fd| !skip.contains(fd))
        .filter_map(|fd| fstat(fd).ok().map(|st| (st.st_dev, st.st_ino)))
        .collect()
}

impl Registry {
    /// Forgets shared objects nothing holds any more: no handle (nothing else holds the
    /// BO or syncobj) and no fd of their file in this process.
    fn prune(&mut self) {
        let idle_buf = |d: &Arc<DmaBuf>| Arc::strong_count(&d.bo) == 1;
        let idle_sync = |s: &Arc<SharedSyncobj>| Arc::strong_count(s) == 1;
        if !self.bufs.values().any(idle_buf) && !self.syncobjs.values().any(idle_sync) {
            return;
        }
        // Our own files and the BOs' memfds are not users' fds.
        let skip: Vec<RawFd> = self
            .bufs
            .values()
            .flat_map(|d| [Some(d.file.as_raw_fd()), d.bo.memfd()])
            .flatten()
            .collect();
        let open = open_keys(&skip);
        self.bufs.retain(|k, d| !idle_buf(d) || open.contains(k));
        let bufs = &self.bufs;
        self.by_bo.retain(|_, k| bufs.contains_key(k));
        self.syncobjs
            .retain(|k, s| !idle_sync(s) || open.contains(k));
    }
}

/// A new fd of `file`, close-on-exec if `flags` has DRM_CLOEXEC.
fn new_fd(file: BorrowedFd<'_>, flags: u32) -> Result<RawFd, Errno> {
    let arg = if flags & DRM_CLOEXEC != 0 {
        FcntlArg::F_DUPFD_CLOEXEC(0)
    } else {
        FcntlArg::F_DUPFD(0)
    };
    fcntl(file.as_raw_fd(), arg)
}

/// The file a new dma-buf of `bo` gets (see the module docs).
fn dma_buf_file(bo: &Bo, rdwr: bool) -> Result<(OwnedFd, bool), Errno> {
    if let Some(memfd) = bo.memfd() {
        let mode = if rdwr { OFlag::O_RDWR } else { OFlag::O_RDONLY };
        let path = format!("/proc/self/fd/{memfd}");
        let fd = nix::fcntl::open(
            path.as_str(),
            mode | OFlag::O_CLOEXEC,
            nix::sys::stat::Mode::empty(),
        )?;
        // SAFETY: open returned a new fd that nothing else owns.
        return Ok((unsafe { std::os::fd::FromRawFd::from_raw_fd(fd) }, true));
    }
    // A pipe has an inode of its own, and neither mmap nor lseek works on it.
    let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)?;
    drop(write);
    UNMAPPABLE.store(true, Ordering::Relaxed);
    Ok((read, false))
}

/// What exporting an object needs of its handle.
pub struct ExportOf<'a> {
    pub bo: &'a Arc<Bo>,
    pub activity: &'a Arc<Activity>,
    pub min_page: u64,
    pub region: u16,
    pub xe_cpu_caching: Option<u16>,
}

/// `drm_gem_prime_handle_to_fd` once the handle is found and the driver allows the export:
/// a new fd of the object's dma-buf, made on first export. Returns the fd and the dma-buf's
/// key (for the file's prime table).
pub(crate) fn export(obj: ExportOf<'_>, flags: u32) -> Result<(RawFd, FileKey), Errno> {
    let mut guard = registry();
    let reg = guard.get_or_insert_with(Registry::default);
    reg.prune();
    let existing = reg
        .by_bo
        .get(&bo_id(obj.bo))
        .and_then(|k| reg.bufs.get(k))
        .cloned();
    let buf = match existing {
        Some(b) => b,
        None => {
            let (file, mappable) = dma_buf_file(obj.bo, flags & DRM_RDWR != 0)?;
            let key = key_of(file.as_fd())?;
            let b = Arc::new(DmaBuf {
                bo: obj.bo.clone(),
                activity: obj.activity.clone(),
                min_page: obj.min_page,
                region: obj.region,
                xe_cpu_caching: obj.xe_cpu_caching,
                file,
                key,
                mappable,
                rdwr: flags & DRM_RDWR != 0,
            });
            reg.bufs.insert(key, b.clone());
            reg.by_bo.insert(bo_id(obj.bo), key);
            b
        }
    };
    Ok((new_fd(buf.file.as_fd(), flags)?, buf.key))
}

/// `dma_buf_get`: the dma-buf behind `fd`; EBADF when `fd` is not open, EINVAL when its file
/// is not a dma-buf.
pub fn import(fd: RawFd) -> Result<Arc<DmaBuf>, Errno> {
    if fd < 0 {
        return Err(Errno::EBADF);
    }
    let key = fstat(fd).map(|st| (st.st_dev, st.st_ino))?;
    let mut guard = registry();
    let reg = guard.get_or_insert_with(Registry::default);
    reg.bufs.get(&key).cloned().ok_or(Errno::EINVAL)
}

/// Whether any dma-buf was made whose file the process's own `mmap` cannot map.
static UNMAPPABLE: AtomicBool = AtomicBool::new(false);

/// For a `mmap` of `len` bytes at `offset` of `fd` where the process's own `mmap` cannot map
/// the dma-buf (its file is not the BO's memfd): the BO's pages (all of them; the caller maps
/// from `offset`). `None` when `fd` is no such dma-buf; EACCES for a shared writable mapping
/// of a dma-buf exported without DRM_RDWR, EINVAL beyond the BO (`dma_buf_mmap_internal`).
pub fn dma_buf_mapping(
    fd: RawFd,
    offset: u64,
    len: usize,
    write: bool,
) -> Option<Result<Mapping, Errno>> {
    if fd < 0 || !UNMAPPABLE.load(Ordering::Relaxed) {
        return None;
    }
    let key = fstat(fd).ok().map(|st| (st.st_dev, st.st_ino))?;
    let buf = {
        let guard = registry();
        guard.as_ref()?.bufs.get(&key).cloned()?
    };
    if buf.mappable {
        return None;
    }
    Some(if write && !buf.rdwr {
        Err(Errno::EACCES)
    } else if len == 0
        || offset
            .checked_add(len as u64)
            .is_none_or(|e| e > buf.bo.size())
    {
        Err(Errno::EINVAL)
    } else if buf.bo.host_range().is_some() {
        Err(Errno::ENODEV)
    } else {
        Ok(buf.bo.mapping())
    })
}

/// For an `lseek` of `fd` where the C library cannot answer for a dma-buf (its file is not the
/// BO's memfd): `dma_buf_llseek`'s answer, the size for SEEK_END and 0 for SEEK_SET, both with
/// offset 0, EINVAL otherwise. `None` when `fd` is no such dma-buf.
pub fn dma_buf_seek(fd: RawFd, offset: i64, whence: i32) -> Option<Result<u64, Errno>> {
    if fd < 0 || !UNMAPPABLE.load(Ordering::Relaxed) {
        return None;
    }
    let key = fstat(fd).ok().map(|st| (st.st_dev, st.st_ino))?;
    let size = {
        let guard = registry();
        let buf = guard.as_ref()?.bufs.get(&key)?;
        if buf.mappable {
            return None;
        }
        buf.bo.size()
    };
    Some(match (offset, whence) {
        (0, nix::libc::SEEK_END) => Ok(size),
        (0, nix::libc::SEEK_SET) => Ok(0),
        _ => Err(Errno::EINVAL),
    })
}

/// `drm_syncobj_get_fd`: a new close-on-exec fd of a new file for `syncobj`.
pub fn export_syncobj(syncobj: Arc<SharedSyncobj>) -> Result<RawFd, Errno> {
    use nix::sys::memfd::{memfd_create, MemFdCreateFlag};
    let file = memfd_create(c"syncobj_file", MemFdCreateFlag::MFD_CLOEXEC)?;
    let key = key_of(file.as_fd())?;
    let mut guard = registry();
    let reg = guard.get_or_insert_with(Registry::default);
    reg.prune();
    reg.syncobjs.insert(key, syncobj);
    Ok(std::os::fd::IntoRawFd::into_raw_fd(file))
}

/// The syncobj an opaque syncobj fd is a file of; EINVAL for any other fd (`fdget` failing
/// or another kind of file).
pub fn import_syncobj(fd: RawFd) -> Result<Arc<SharedSyncobj>, Errno> {
    if fd < 0 {
        return Err(Errno::EINVAL);
    }
    let key = fstat(fd)
        .map(|st| (st.st_dev, st.st_ino))
        .map_err(|_| Errno::EINVAL)?;
    let guard = registry();
    guard
        .as_ref()
        .and_then(|r| r.syncobjs.get(&key).cloned())
        .ok_or(Errno::EINVAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::FromRawFd;

    fn own(fd: RawFd) -> OwnedFd {
        // SAFETY: the fd was just handed to the test, which owns it.
        unsafe { OwnedFd::from_raw_fd(fd) }
    }

    #[test]
    fn exports_of_one_object_are_fds_of_one_file_and_import_back() {
        let bo = Bo::new(8192).unwrap();
        let activity = Arc::default();
        let obj = || ExportOf {
            bo: &bo,
            activity: &activity,
            min_page: 4096,
            region: 0,
            xe_cpu_caching: None,
        };
        let (a, ka) = export(obj(), DRM_CLOEXEC).unwrap();
        let (b, kb) = export(obj(), 0).unwrap();
        assert_ne!(a, b);
        assert_eq!(ka, kb);
        let cloexec = |fd| fcntl(fd, FcntlArg::F_GETFD).unwrap() & nix::libc::FD_CLOEXEC;
        assert_eq!((cloexec(a), cloexec(b)), (nix::libc::FD_CLOEXEC, 0));
        let back = import(b).unwrap();
        assert!(Arc::ptr_eq(&back.bo, &bo));
        let (a, b) = (own(a), own(b));
        // Not a dma-buf: a pipe; not an fd at all.
        let (r, w) = nix::unistd::pipe().unwrap();
        assert_eq!(import(r.as_raw_fd()).unwrap_err(), Errno::EINVAL);
        assert_eq!(import(-1).unwrap_err(), Errno::EBADF);
        drop((r, w, a, b));
    }

    #[test]
    fn a_dma_buf_of_a_bo_without_its_memfd_maps_only_through_the_registry() {
        // Made without share_bo_pages in this test process: no memfd kept.
        let bo = Bo::new(4096).unwrap();
        if bo.memfd().is_some() {
            return; // another test of this binary turned sharing on
        }
        let (fd, _) = export(
            ExportOf {
                bo: &bo,
                activity: &Arc::default(),
                min_page: 4096,
                region: 0,
                xe_cpu_caching: None,
            },
            DRM_CLOEXEC | DRM_RDWR,
        )
        .unwrap();
        let fd = own(fd);
        bo.write(12, &[9]).unwrap();
        let m = dma_buf_mapping(fd.as_raw_fd(), 0, 4096, true)
            .unwrap()
            .unwrap();
        let mut byte = [0u8];
        m.read(12, &mut byte).unwrap();
        assert_eq!(byte, [9]);
        assert_eq!(
            dma_buf_mapping(fd.as_raw_fd(), 4096, 4096, false)
                .unwrap()
                .unwrap_err(),
            Errno::EINVAL
        );
    }
}
