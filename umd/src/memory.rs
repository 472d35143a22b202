//! Buffers: GEM BOs softpinned at addresses from the device's VA heap, sub-buffers, and host
//! memory wrapped as userptr BOs.

use std::sync::Arc;

use kmd_iface::seam::Mapping;

use crate::blockio::{BlockAccess, Rule};
use crate::device::bo_reuse::Freed;
use crate::device::{Caching, ExecObject, Inner, RawBo};
use crate::error::{Error, Result};

/// One kernel BO (or userptr range) and its GPU address; freed on drop.
#[derive(Debug)]
pub(crate) struct Bo {
    pub(crate) dev: Arc<Inner>,
    pub handle: u32,
    pub gpu_address: u64,
    pub size: u64,
    pub map: Mapping,
    pub caching: Caching,
    /// Host memory: the host reads and writes the bytes in place at their GPU address
    /// (userptr pages, or a USM host allocation's BO mapped there).
    pub host_memory: bool,
    /// A device USM allocation's range of the host address space, held so that no host memory
    /// takes the address its pointer has (released after the BO, on drop).
    pub(crate) _address_held: Option<crate::host_pages::HostPages>,
    /// Kept for reuse when freed ([`crate::device::bo_reuse`]): an ordinary BO of the device's heap.
    pub(crate) reuse: bool,
}

impl Drop for Bo {
    fn drop(&mut self) {
        self.dev
            .sanitize
            .release(self.gpu_address..self.gpu_address + self.size);
        let f = Freed {
            handle: self.handle,
            gpu_address: self.gpu_address,
            size: self.size,
            map: self.map.clone(),
            caching: self.caching,
        };
        let release = if self.reuse {
            self.dev.kept.keep(f)
        } else {
            vec![f]
        };
        self.dev.give_back(release);
    }
}

/// Zeros for clearing a kept BO that is handed out again.
static ZEROS: [u8; 64 << 10] = [0; 64 << 10];

impl Bo {
    /// True when it belongs to `dev`.
    pub fn on(&self, dev: &Arc<Inner>) -> bool {
        Arc::ptr_eq(&self.dev, dev)
    }

    /// How a submission lists it (userptr ranges on xe have no handle: they are bound already).
    pub fn exec_object(&self, write: bool) -> Option<ExecObject> {
        (self.handle != 0).then_some(ExecObject {
            handle: self.handle,
            gpu_address: self.gpu_address,
            write,
        })
    }
}

impl Inner {
    /// A new BO of at least `size` bytes, zero-filled.
    pub(crate) fn alloc_bo(self: &Arc<Self>, size: u64) -> Result<Arc<Bo>> {
        self.alloc_bo_zero_from(size, 0)
    }

    /// A BO of at least `size` bytes whose bytes from `from` on are zero (the caller writes
    /// the ones before): a freed one of about that size when the device kept one
    /// ([`crate::device::bo_reuse`]), else a new one.
    pub(crate) fn alloc_bo_zero_from(self: &Arc<Self>, size: u64, from: u64) -> Result<Arc<Bo>> {
        let want = self.va().round(size).ok_or_else(|| {
            Error::OutOfRange(format!("no GPU address space left for {size} bytes"))
        })?;
        if let Some(f) = self.kept.take(want) {
            let mut at = from.min(f.size) as usize;
            while at < f.size as usize {
                let n = ZEROS.len().min(f.size as usize - at);
                if let Err(e) = f.map.write(at, &ZEROS[..n]) {
                    self.give_back([f]);
                    return Err(e.into());
                }
                at += n;
            }
            return Ok(Arc::new(Bo {
                dev: self.clone(),
                handle: f.handle,
                gpu_address: f.gpu_address,
                size: f.size,
                map: f.map,
                caching: f.caching,
                host_memory: false,
                _address_held: None,
                reuse: true,
            }));
        }
        let (gpu_address, size, raw) = match self.new_bo(size) {
            Ok(made) => made,
            Err(e) => {
                // What the device keeps may be what the kernel driver is short of: let it go
                // and try once more.
                let kept = self.kept.drain();
                if kept.is_empty() {
                    return Err(e);
                }
                self.give_back(kept);
                self.new_bo(size)?
            }
        };
        Ok(Arc::new(Bo {
            dev: self.clone(),
            handle: raw.handle,
            gpu_address,
            size,
            map: raw.map,
            caching: raw.caching,
            host_memory: false,
            _address_held: None,
            reuse: true,
        }))
    }
}

impl Inner {
    /// Releases freed BOs to the kernel driver and their GPU addresses to the heap.
    pub(crate) fn give_back(&self, freed: impl IntoIterator<Item = Freed>) {
        for f in freed {
            self.backend().release(f.handle, f.gpu_address, f.size);
            self.va().free(f.gpu_address, f.size);
        }
    }

    /// A new BO of at least `size` bytes at a new GPU address: the address, the BO's size
    /// and the kernel driver's object.
    fn new_bo(&self, size: u64) -> Result<(u64, u64, RawBo)> {
        let (gpu_address, size) = self.va().alloc(size).ok_or_else(|| {
            Error::OutOfRange(format!("no GPU address space left for {size} bytes"))
        })?;
        match self.backend().create(size, gpu_address) {
            Ok(r) => Ok((gpu_address, size, r)),
            Err(e) => {
                self.va().free(gpu_address, size);
                Err(e)
            }
        }
    }
}

/// The buffers of the public [`crate::device::Device`], which forwards to these.
impl Inner {
    /// [`crate::device::Device::create_buffer`].
    pub(crate) fn create_buffer(self: &Arc<Self>, size: u64) -> Result<Buffer> {
        if size == 0 {
            return Err(Error::OutOfRange("a buffer needs at least one byte".into()));
        }
        let bo = self.alloc_bo(size)?;
        self.sanitize.buffer(bo.gpu_address, size, false);
        Ok(Buffer {
            bo,
            offset: 0,
            size,
            host_ptr: None,
        })
    }

    /// [`crate::device::Device::create_buffer_with`].
    pub(crate) fn create_buffer_with(self: &Arc<Self>, bytes: &[u8]) -> Result<Buffer> {
        if bytes.is_empty() {
            return Err(Error::OutOfRange("a buffer needs at least one byte".into()));
        }
        let size = bytes.len() as u64;
        let bo = self.alloc_bo_zero_from(size, size)?;
        self.sanitize.buffer(bo.gpu_address, size, false);
        let b = Buffer {
            bo,
            offset: 0,
            size,
            host_ptr: None,
        };
        b.write(0, bytes)?;
        Ok(b)
    }

    /// [`crate::device::Device::create_buffer_from_host`].
    pub(crate) fn create_buffer_from_host(self: &Arc<Self>, host: Mapping) -> Result<Buffer> {
        let granule = self.va().align();
        if !(host.as_ptr() as u64).is_multiple_of(USERPTR_PAGE)
            || host.is_empty()
            || !(host.len() as u64).is_multiple_of(granule)
        {
            return Err(Error::OutOfRange(format!(
                "userptr: host memory at {:p} of {:#x} bytes must start on a {USERPTR_PAGE:#x}-byte page and be a non-empty multiple of {granule:#x} bytes (i915 GEM_USERPTR / xe MAP_USERPTR)",
                host.as_ptr(),
                host.len()
            )));
        }
        let size = host.len() as u64;
        let (gpu_address, size) = self
            .va()
            .alloc(size)
            .ok_or_else(|| Error::OutOfRange("no GPU address space left".into()))?;
        let handle = match self.backend().userptr(&host, gpu_address) {
            Ok(h) => h,
            Err(e) => {
                self.va().free(gpu_address, size);
                return Err(e);
            }
        };
        // Host memory: its bytes are whatever the program put there.
        self.sanitize.buffer(gpu_address, size, false);
        self.sanitize.wrote(gpu_address..gpu_address + size);
        Ok(Buffer {
            bo: Arc::new(Bo {
                dev: self.clone(),
                handle,
                gpu_address,
                size,
                map: host,
                caching: Caching::Wb,
                host_memory: true,
                _address_held: None,
                reuse: false,
            }),
            offset: 0,
            size,
            host_ptr: None,
        })
    }

    /// [`crate::device::Device::create_buffer_use_host_ptr`].
    pub(crate) fn create_buffer_use_host_ptr(
        self: &Arc<Self>,
        host: Mapping,
        offset: u64,
        size: u64,
    ) -> Result<Buffer> {
        let len = host.len() as u64;
        if size == 0 || offset.checked_add(size).is_none_or(|end| end > len) {
            return Err(Error::OutOfRange(format!(
                "host_ptr range {offset:#x}+{size:#x} is empty or exceeds the {len:#x}-byte host memory"
            )));
        }
        let host_ptr = host.as_ptr() as u64 + offset;
        let whole = self.create_buffer_from_host(host)?;
        // The program's buffer is the host range, not the whole pages mapped around it.
        let ga = whole.bo.gpu_address;
        self.sanitize.release(ga..ga + whole.bo.size);
        self.sanitize.buffer(ga + offset, size, false);
        self.sanitize.wrote(ga + offset..ga + offset + size);
        Ok(Buffer {
            bo: whole.bo,
            offset,
            size,
            host_ptr: Some(host_ptr),
        })
    }
}

/// The page size both kernels require userptr memory to be aligned to.
const USERPTR_PAGE: u64 = 4096;

/// A range of GPU memory kernels read and write.
#[derive(Debug, Clone)]
pub struct Buffer {
    pub(crate) bo: Arc<Bo>,
    offset: u64,
    size: u64,
    /// CL_MEM_USE_HOST_PTR: the host_ptr the buffer (or the buffer it is a sub-buffer of) was
    /// created with.
    host_ptr: Option<u64>,
}

impl Buffer {
    /// The whole of `bo` as a buffer of `size` bytes (at most the BO's).
    pub(crate) fn whole(bo: Arc<Bo>, size: u64) -> Buffer {
        Buffer {
            bo,
            offset: 0,
            size,
            host_ptr: None,
        }
    }

    /// Declares that kernels only read this buffer (OpenCL's `CL_MEM_READ_ONLY`): under the
    /// simulator's sanitizer (memcheck) a kernel write to it is a finding. Nothing else
    /// changes: the buffer stays writable, as on hardware.
    pub fn declare_read_only(&self) {
        self.bo
            .dev
            .sanitize
            .buffer(self.gpu_address(), self.size, true);
    }

    /// GPU address of the first byte.
    pub fn gpu_address(&self) -> u64 {
        self.bo.gpu_address + self.offset
    }

    pub fn size(&self) -> u64 {
        self.size
    }

    /// The CPU caching of its mapping.
    pub fn caching(&self) -> Caching {
        self.bo.caching
    }

    /// True for a host-memory (userptr) buffer.
    pub fn is_host_memory(&self) -> bool {
        self.bo.host_memory
    }

    /// The host_ptr of the CL_MEM_USE_HOST_PTR buffer this one is (or is a sub-buffer of).
    pub fn host_ptr(&self) -> Option<u64> {
        self.host_ptr
    }

    /// Offset of this buffer inside its BO (non-zero for sub-buffers).
    pub fn origin(&self) -> u64 {
        self.offset
    }

    fn range(&self, offset: u64, len: usize) -> Result<usize> {
        match offset.checked_add(len as u64) {
            Some(end) if end <= self.size => Ok((self.offset + offset) as usize),
            _ => Err(Error::OutOfRange(format!(
                "{len} bytes at offset {offset:#x} exceed a buffer of {:#x} bytes",
                self.size
            ))),
        }
    }

    pub fn write(&self, offset: u64, bytes: &[u8]) -> Result<()> {
        let at = self.range(offset, bytes.len())?;
        self.bo.map.write(at, bytes)?;
        let start = self.gpu_address() + offset;
        self.bo
            .dev
            .sanitize
            .wrote(start..start + bytes.len() as u64);
        Ok(())
    }

    /// Tells the simulator's sanitizer (initcheck) that `len` bytes from `offset` were
    /// written other than through [`Buffer::write`] or a kernel: by a copy or fill command, or
    /// through a host mapping. Nothing else happens.
    pub fn mark_written(&self, offset: u64, len: u64) {
        let start = self.gpu_address() + offset;
        self.bo.dev.sanitize.wrote(start..start.saturating_add(len));
    }

    pub fn read(&self, offset: u64, out: &mut [u8]) -> Result<()> {
        let at = self.range(offset, out.len())?;
        Ok(self.bo.map.read(at, out)?)
    }

    /// The whole buffer's bytes.
    pub fn to_vec(&self) -> Result<Vec<u8>> {
        let mut v = vec![0; self.size as usize];
        self.read(0, &mut v)?;
        Ok(v)
    }

    /// A sub-buffer of `size` bytes at `origin`. `block` says it is used for subgroup block
    /// reads or writes, whose origin rules (multiples of 4 and 16 bytes; for a sub-buffer of a
    /// CL_MEM_USE_HOST_PTR buffer also the host_ptr's) are then enforced.
    pub fn sub_buffer(&self, origin: u64, size: u64, block: Option<BlockAccess>) -> Result<Buffer> {
        if size == 0 {
            return Err(Error::OutOfRange(
                "a sub-buffer needs at least one byte".into(),
            ));
        }
        self.range(origin, size as usize)?;
        if let Some(access) = block {
            self.check_host_ptr(access)?;
            Rule::sub_buffer(access).check_aligned("sub-buffer origin", origin)?;
        }
        Ok(Buffer {
            bo: self.bo.clone(),
            offset: self.offset + origin,
            size,
            host_ptr: self.host_ptr,
        })
    }

    /// The GPU address of byte `offset`, checked as a pointer passed to a subgroup block read
    /// or write (4- and 16-byte alignment; for CL_MEM_USE_HOST_PTR buffers the host_ptr too).
    pub fn block_pointer(&self, offset: u64, access: BlockAccess) -> Result<u64> {
        self.range(offset, 0)?;
        let address = self.gpu_address() + offset;
        // The host_ptr rule first: a misaligned host_ptr also misaligns the pointer.
        self.check_host_ptr(access)?;
        Rule::pointer(access).check_aligned("block IO pointer", address)?;
        Ok(address)
    }

    /// For a CL_MEM_USE_HOST_PTR buffer (or a sub-buffer of one), the host_ptr rule of `access`.
    fn check_host_ptr(&self, access: BlockAccess) -> Result<()> {
        match self.host_ptr {
            Some(p) => Rule::host_ptr(access).check_aligned("host_ptr", p),
            None => Ok(()),
        }
    }
}
