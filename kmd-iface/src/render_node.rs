//! The real device: a [`DeviceFile`] over an opened DRM render node (nix ioctl, memmap2 mmap).

use std::fs::{File, OpenOptions};
use std::num::NonZeroUsize;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use drm::node::{DrmNode, NodeType};
use memmap2::{MmapOptions, MmapRaw};
use nix::sys::mman::{mmap, MapFlags, ProtFlags};

use crate::error::{Error, Result};
use crate::fixed_pages::FixedPages;
use crate::ioc;
use crate::seam::{DeviceFile, Errno, MapBacking, Mapping};

/// An open `/dev/dri/renderD*`.
#[derive(Debug)]
pub struct RenderNode {
    file: File,
    path: PathBuf,
    /// The character device's (major, minor), which name its sysfs directory.
    dev: (u32, u32),
}

impl RenderNode {
    /// Opens `path` read-write, close-on-exec, and checks (with the `drm` crate) that it is a
    /// DRM render node.
    pub fn open(path: &Path) -> Result<Self> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(nix::libc::O_CLOEXEC)
            .open(path)
            .map_err(|e| Error::Open {
                path: path.to_owned(),
                errno: Errno::from_raw(e.raw_os_error().unwrap_or(0)),
            })?;
        match DrmNode::from_file(&file) {
            Ok(node) if node.ty() == NodeType::Render => Ok(RenderNode {
                file,
                path: path.to_owned(),
                dev: (node.major(), node.minor()),
            }),
            _ => Err(Error::NotRenderNode {
                path: path.to_owned(),
            }),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens `path` as a shareable [`DeviceFile`].
    pub fn open_shared(path: &Path) -> Result<Arc<dyn DeviceFile>> {
        Ok(Arc::new(Self::open(path)?))
    }
}

impl DeviceFile for RenderNode {
    unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> std::result::Result<i32, Errno> {
        // The kernel copies exactly the size encoded in the request in and out of `arg`; a
        // shorter buffer would let it write past the slice.
        if arg.len() != ioc::arg_size(request) {
            return Err(Errno::EINVAL);
        }
        // Pointers inside the struct are the caller's, valid for this call by this
        // function's contract; the kernel copies the struct itself in and out of `arg`.
        let fd = self.file.as_raw_fd();
        // SAFETY: `fd` is open for the life of `self`; `arg` is live, exclusively borrowed and
        // exactly the size the request encodes, so the kernel's copies stay inside it.
        let ret = unsafe { nix::libc::ioctl(fd, request as _, arg.as_mut_ptr()) };
        Errno::result(ret)
    }

    fn mmap(&self, offset: u64, len: usize) -> std::result::Result<Mapping, Errno> {
        let map = MmapOptions::new()
            .offset(offset)
            .len(len)
            .map_raw(&self.file)
            .map_err(|e| Errno::from_raw(e.raw_os_error().unwrap_or(Errno::EINVAL as i32)))?;
        Ok(Mapping::new(Arc::new(MmapBacking(map))))
    }

    unsafe fn mmap_at(
        &self,
        offset: u64,
        len: usize,
        at: *mut u8,
    ) -> std::result::Result<Mapping, Errno> {
        let (Some(size), Some(addr)) = (NonZeroUsize::new(len), NonZeroUsize::new(at as usize))
        else {
            return Err(Errno::EINVAL);
        };
        let offset = i64::try_from(offset).map_err(|_| Errno::EINVAL)?;
        // SAFETY: the range at `at` is the caller's to replace (this function's contract); the
        // new mapping is handed to `FixedPages`, its only owner.
        let p = unsafe {
            mmap(
                Some(addr),
                size,
                ProtFlags::PROT_READ | ProtFlags::PROT_WRITE,
                MapFlags::MAP_SHARED | MapFlags::MAP_FIXED,
                &self.file,
                offset,
            )
        }?;
        // SAFETY: the read-write mapping of `len` bytes just made, owned by nothing else.
        let pages = unsafe { FixedPages::adopt(p.cast(), len) };
        Ok(Mapping::new(Arc::new(pages)))
    }

    fn sysfs_dir(&self) -> Option<PathBuf> {
        let (major, minor) = self.dev;
        Some(PathBuf::from(format!("/sys/dev/char/{major}:{minor}")))
    }
}

/// A shared read-write mmap of a GEM object.
struct MmapBacking(MmapRaw);

// SAFETY: an `MmapRaw` stays mapped, at the same address and length, until it is dropped, and
// hands out only raw pointers; Mapping accesses the bytes through copies and atomics.
unsafe impl MapBacking for MmapBacking {
    fn as_ptr(&self) -> *mut u8 {
        self.0.as_mut_ptr()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}
