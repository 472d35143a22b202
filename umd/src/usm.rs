//! Unified shared memory (what OpenCL's cl_intel_unified_shared_memory allocates): memory a
//! kernel reaches through a plain pointer, at the address the application holds.
//!
//! - **Host** allocations are anonymous host pages wrapped as a userptr object (i915
//!   GEM_USERPTR, xe MAP_USERPTR) and softpinned at their own host address: the pointer the
//!   host reads and writes is the one kernels dereference, and both see one copy of the bytes.
//!   The address is taken out of the device's VA heap, so no BO is ever placed over it. On a
//!   device that reaches userptr pages only through copies (the simulator) they are instead a
//!   BO whose CPU mapping sits at its GPU address: the same contract, the device's own pages.
//! - **Device** allocations are GEM BOs whose pointer is their GPU address, which the host does
//!   not dereference (it reads and writes them through the [`Buffer`]). That address is a
//!   range of the process's own address space held inaccessible (`PROT_NONE`) for the
//!   allocation's life, as NEO reserves a CPU range for each device allocation: no host memory
//!   can ever sit at a device pointer, so a pointer names one allocation or host memory, never
//!   both (the extension tells them apart by value: clGetMemAllocInfoINTEL, and copies and
//!   fills whose pointers may be either).
//!
//! A kernel reaches an allocation only while its BO is part of the submission: pass the
//! allocations a dispatch may touch besides its arguments to [`crate::queue::Queue::dispatch_resident`].

use std::sync::Arc;

use kmd_iface::seam::{Mapping, SharedHostMemory};

use crate::device::{Caching, Device, Inner};
use crate::error::{Error, Result};
use crate::host_pages::HostPages;
use crate::memory::{Bo, Buffer};

/// How many host mappings a host allocation tries before giving up on an address the VA heap
/// has already handed to a BO (each try keeps the refused mapping, so the next is elsewhere).
const TRIES: usize = 4;

impl Inner {
    /// `size` bytes (rounded up to whole VA granules: the returned length) of the host address
    /// space, from `take` (pages or a held range, at a multiple of `align`, at least the
    /// granule), at an address also taken out of the VA heap: the allocation's pointer is the
    /// same number to the host and to the GPU.
    fn host_and_gpu_range(
        &self,
        size: u64,
        align: u64,
        take: fn(usize, usize) -> Result<HostPages>,
    ) -> Result<(HostPages, u64)> {
        if size == 0 {
            return Err(Error::OutOfRange(
                "an allocation needs at least one byte".into(),
            ));
        }
        let granule = self.va().align();
        let len = size
            .checked_next_multiple_of(granule)
            .ok_or_else(|| Error::OutOfRange(format!("{size:#x} bytes do not fit")))?;
        let align = align.max(granule);
        let mut refused = Vec::new();
        for _ in 0..TRIES {
            let pages = take(len as usize, align as usize)?;
            if self.va().reserve(pages.ptr as u64, len) {
                return Ok((pages, len));
            }
            // A BO sits at that GPU address: keep the range so the next try differs.
            refused.push(pages);
        }
        Err(Error::OutOfRange(format!(
            "no host range of {len:#x} bytes whose address is free as a GPU address"
        )))
    }

    /// [`Device::alloc_host_usm`]: host pages wrapped as userptr, or a BO mapped at its own
    /// address, as the device prefers ([`SharedHostMemory`]).
    fn alloc_host_usm(self: &Arc<Self>, size: u64, align: u64) -> Result<Buffer> {
        let (handle, at, len, map, caching) = match self.backend().shared_host_memory() {
            SharedHostMemory::Userptr => {
                let (pages, len) = self.host_and_gpu_range(size, align, HostPages::map)?;
                let at = pages.ptr as u64;
                let map = Mapping::new(Arc::new(pages));
                match self.backend().userptr(&map, at) {
                    Ok(h) => (h, at, len, map, Caching::Wb),
                    Err(e) => {
                        self.va().free(at, len);
                        return Err(e);
                    }
                }
            }
            SharedHostMemory::MappedBo => {
                let (held, len) = self.host_and_gpu_range(size, align, HostPages::reserve)?;
                let at = held.ptr as u64;
                // SAFETY: `held` is this allocation's own reservation, given up on success.
                match unsafe { self.backend().create_mapped_at(len, held.ptr) } {
                    Ok(raw) => {
                        held.give_up();
                        (raw.handle, at, len, raw.map, raw.caching)
                    }
                    Err(e) => {
                        self.va().free(at, len);
                        return Err(e);
                    }
                }
            }
        };
        self.sanitize.usm(at, size, "host USM allocation");
        let bo = Arc::new(Bo {
            dev: self.clone(),
            handle,
            gpu_address: at,
            size: len,
            map,
            caching,
            host_memory: true,
            _address_held: None,
            reuse: false,
        });
        Ok(Buffer::whole(bo, size))
    }

    /// [`Device::alloc_device_usm`].
    fn alloc_device_usm(self: &Arc<Self>, size: u64, align: u64) -> Result<Buffer> {
        let (held, len) = self.host_and_gpu_range(size, align, HostPages::reserve)?;
        let gpu_address = held.ptr as u64;
        let raw = match self.backend().create(len, gpu_address) {
            Ok(r) => r,
            Err(e) => {
                self.va().free(gpu_address, len);
                return Err(e);
            }
        };
        self.sanitize
            .usm(gpu_address, size, "device USM allocation");
        let bo = Arc::new(Bo {
            dev: self.clone(),
            handle: raw.handle,
            gpu_address,
            size: len,
            map: raw.map,
            caching: raw.caching,
            host_memory: false,
            _address_held: Some(held),
            reuse: false,
        });
        Ok(Buffer::whole(bo, size))
    }
}

impl Device {
    /// A host allocation of `size` zeroed bytes at a multiple of `align` (a power of two; 0
    /// for the page): its [`Buffer::gpu_address`] is also its host address, where the host
    /// reads and writes the bytes kernels see.
    pub fn alloc_host_usm(&self, size: u64, align: u64) -> Result<Buffer> {
        check_align(align)?;
        self.inner.alloc_host_usm(size, align)
    }

    /// A device allocation of `size` zeroed bytes whose GPU address is a multiple of `align` (a
    /// power of two; 0 for the page).
    pub fn alloc_device_usm(&self, size: u64, align: u64) -> Result<Buffer> {
        check_align(align)?;
        self.inner.alloc_device_usm(size, align)
    }
}

fn check_align(align: u64) -> Result<()> {
    if align != 0 && !align.is_power_of_two() {
        return Err(Error::Argument(format!(
            "alignment {align} is not a power of two"
        )));
    }
    Ok(())
}
