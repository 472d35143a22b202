//! A file's GEM handles and their fake mmap offsets.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use kmd_iface::seam::{Errno, Mapping};

use crate::activity::{Activity, Request};
use crate::flink::Named;
use crate::mem::{Bo, BoError, HostRange, SharedPages, PAGE_SIZE};
use crate::sync::FenceStatus;

/// One GEM handle's object.
#[derive(Debug)]
pub struct GemObject {
    pub bo: Arc<Bo>,
    /// The object's requests (shared with its other handles).
    pub activity: Arc<Activity>,
    /// Alignment the object's GPU bindings need (xe VRAM on DG2: 64 KiB).
    pub min_page: u64,
    /// xe: the VM an object created with `vm_id` is private to.
    pub private_vm: Option<u32>,
    /// Memory region instance the object lives in (for queries' accounting).
    pub region: u16,
    /// i915: the caching mode GEM_SET_CACHING chose (`None`: the kernel's default). The
    /// simulator's memory is coherent whatever the mode; GEM_GET_CACHING reports it.
    pub i915_caching: Option<u32>,
    /// xe: the CPU caching GEM_CREATE chose (`DRM_XE_GEM_CPU_CACHING_*`); `None` for objects
    /// not created by xe (VM_BIND then treats them as imported, possibly CPU cached).
    pub xe_cpu_caching: Option<u16>,
    /// Its global name (GEM_FLINK), shared by every handle of the object in any file.
    pub named: Option<Arc<Named>>,
    /// Counted in the table's `used` (created here, not userptr).
    counted: bool,
    mmap_offset: Option<u64>,
}

impl GemObject {
    /// Adds a request using the object, forgetting those that have signalled.
    pub fn track(&self, request: Request) {
        let mut requests = self.activity.lock();
        requests.retain(|r| !r.fence.is_signaled());
        requests.push(request);
    }

    /// The requests tracked (see [`Activity`]).
    pub fn requests(&self) -> Vec<Request> {
        self.activity.lock().clone()
    }

    /// Pending while any request is; else the error of one that failed; `None` when idle.
    pub fn status(&self) -> Option<FenceStatus> {
        let all: Vec<FenceStatus> = self
            .activity
            .lock()
            .iter()
            .map(|r| r.fence.status())
            .collect();
        all.iter()
            .find(|s| **s == FenceStatus::Pending)
            .or_else(|| all.iter().find(|s| matches!(s, FenceStatus::Error { .. })))
            .or(all.first())
            .copied()
    }
}

/// First fake mmap offset handed out (the kernel's offsets also start high and page aligned).
const FIRST_OFFSET: u64 = 1 << 32;

#[derive(Debug)]
pub struct GemTable {
    next_handle: u32,
    objects: HashMap<u32, GemObject>,
    next_offset: u64,
    mmaps: BTreeMap<u64, Arc<Bo>>,
    /// Bytes allocated per region instance.
    pub used: HashMap<u16, u64>,
    /// The file's PRIME table (`drm_prime_file_private`): dma-bufs it exported or imported,
    /// and the handle each came with, so importing one again gives that handle.
    prime: HashMap<crate::prime::FileKey, u32>,
}

impl Default for GemTable {
    fn default() -> Self {
        GemTable {
            next_handle: 0,
            objects: HashMap::new(),
            next_offset: FIRST_OFFSET,
            mmaps: BTreeMap::new(),
            used: HashMap::new(),
            prime: HashMap::new(),
        }
    }
}

/// Rounds a requested size up to whole pages of `page`; `None` when it overflows.
pub fn round_size(size: u64, page: u64) -> Option<u64> {
    size.checked_add(page - 1).map(|s| s / page * page)
}

impl GemTable {
    /// Creates an object of `size` bytes (a multiple of `min_page`) and returns its handle.
    pub fn create(
        &mut self,
        size: u64,
        min_page: u64,
        region: u16,
        private_vm: Option<u32>,
    ) -> Result<u32, Errno> {
        let bo = Bo::new(size).map_err(bo_errno)?;
        Ok(self.insert(bo, min_page, region, private_vm))
    }

    /// Wraps host memory as an object (i915 GEM_USERPTR); the range's checks are the caller's.
    pub fn create_userptr(&mut self, range: HostRange, region: u16) -> Result<u32, Errno> {
        let bo = Bo::host(range).map_err(bo_errno)?;
        Ok(self.insert(bo, PAGE_SIZE, region, None))
    }

    /// A new handle of a named object (GEM_OPEN). Its memory is counted in the region of the
    /// file that created it, not again here.
    pub fn open_named(&mut self, named: Arc<Named>) -> u32 {
        let handle = self.new_handle();
        self.objects.insert(
            handle,
            GemObject {
                bo: named.bo.clone(),
                activity: named.activity.clone(),
                min_page: named.min_page,
                private_vm: named.private_vm,
                region: named.region,
                i915_caching: None,
                xe_cpu_caching: None,
                named: Some(named),
                counted: false,
                mmap_offset: None,
            },
        );
        handle
    }

    /// The handle this file's PRIME table has for dma-buf `key`, if any.
    pub fn prime_handle(&self, key: crate::prime::FileKey) -> Option<u32> {
        self.prime.get(&key).copied()
    }

    /// Records that `handle` came with (or was exported as) dma-buf `key`.
    pub fn add_prime(&mut self, key: crate::prime::FileKey, handle: u32) {
        self.prime.insert(key, handle);
    }

    /// A new handle of an imported dma-buf's object (`drm_gem_prime_fd_to_handle`), which
    /// carries the object's global name if it has one.
    pub fn open_imported(&mut self, buf: &crate::prime::DmaBuf, named: Option<Arc<Named>>) -> u32 {
        let handle = self.new_handle();
        self.objects.insert(
            handle,
            GemObject {
                bo: buf.bo.clone(),
                activity: buf.activity.clone(),
                min_page: buf.min_page,
                private_vm: None,
                region: buf.region,
                i915_caching: None,
                xe_cpu_caching: buf.xe_cpu_caching,
                named,
                counted: false,
                mmap_offset: None,
            },
        );
        self.prime.insert(buf.key(), handle);
        handle
    }

    fn new_handle(&mut self) -> u32 {
        loop {
            self.next_handle = self.next_handle.wrapping_add(1).max(1);
            if !self.objects.contains_key(&self.next_handle) {
                return self.next_handle;
            }
        }
    }

    fn insert(&mut self, bo: Arc<Bo>, min_page: u64, region: u16, private_vm: Option<u32>) -> u32 {
        let handle = self.new_handle();
        // Userptr pages belong to the host, not to a region.
        let counted = bo.host_range().is_none();
        if counted {
            *self.used.entry(region).or_default() += bo.size();
        }
        self.objects.insert(
            handle,
            GemObject {
                bo,
                activity: Arc::default(),
                min_page,
                private_vm,
                region,
                i915_caching: None,
                xe_cpu_caching: None,
                named: None,
                counted,
                mmap_offset: None,
            },
        );
        handle
    }

    pub fn get(&self, handle: u32) -> Result<&GemObject, Errno> {
        self.objects.get(&handle).ok_or(Errno::ENOENT)
    }

    pub fn get_mut(&mut self, handle: u32) -> Result<&mut GemObject, Errno> {
        self.objects.get_mut(&handle).ok_or(Errno::ENOENT)
    }

    /// Drops a handle. Bindings and mappings that hold the memory keep it alive.
    pub fn close(&mut self, handle: u32) -> Result<GemObject, Errno> {
        let obj = self.objects.remove(&handle).ok_or(Errno::ENOENT)?;
        // drm_gem_remove_prime_handles
        self.prime.retain(|_, h| *h != handle);
        if let Some(off) = obj.mmap_offset {
            self.mmaps.remove(&off);
        }
        if let Some(u) = self.used.get_mut(&obj.region).filter(|_| obj.counted) {
            *u = u.saturating_sub(obj.bo.size());
        }
        Ok(obj)
    }

    /// The object's fake mmap offset, assigned on first use. Userptr objects cannot be mapped
    /// (i915's I915_GEM_OBJECT_NO_MMAP: ENODEV).
    pub fn mmap_offset(&mut self, handle: u32) -> Result<u64, Errno> {
        let obj = self.objects.get_mut(&handle).ok_or(Errno::ENOENT)?;
        if obj.bo.host_range().is_some() {
            return Err(Errno::ENODEV);
        }
        if let Some(off) = obj.mmap_offset {
            return Ok(off);
        }
        let off = self.next_offset;
        self.next_offset = off
            .checked_add(obj.bo.size() + PAGE_SIZE)
            .ok_or(Errno::ENOMEM)?;
        obj.mmap_offset = Some(off);
        self.mmaps.insert(off, obj.bo.clone());
        Ok(off)
    }

    /// `mmap(offset, len)`: the object whose fake offset is `offset`; `len` may not exceed it.
    pub fn mapping(&self, offset: u64, len: usize) -> Result<Mapping, Errno> {
        let bo = self.mmaps.get(&offset).ok_or(Errno::EINVAL)?;
        if len == 0 || len as u64 > bo.size() {
            return Err(Errno::EINVAL);
        }
        Ok(bo.mapping())
    }

    /// [`Self::mapping`] placed at `at` ([`Bo::map_at`]).
    ///
    /// # Safety
    /// As [`kmd_iface::seam::DeviceFile::mmap_at`].
    pub unsafe fn mapping_at(
        &self,
        offset: u64,
        len: usize,
        at: *mut u8,
    ) -> Result<Mapping, Errno> {
        let bo = self.mmaps.get(&offset).ok_or(Errno::EINVAL)?;
        // SAFETY: forwarded from this function's contract.
        unsafe { bo.map_at(len, at) }.ok_or(Errno::EINVAL)
    }

    /// The pages behind mmap offset `offset`, for another process to map (see
    /// [`crate::mem::share_bo_pages`]); `len` is checked as for [`Self::mapping`].
    pub fn shared_pages(&self, offset: u64, len: usize) -> Result<SharedPages, Errno> {
        let bo = self.mmaps.get(&offset).ok_or(Errno::EINVAL)?;
        if len == 0 || len as u64 > bo.size() {
            return Err(Errno::EINVAL);
        }
        bo.shared_pages().ok_or(Errno::EINVAL)
    }
}

fn bo_errno(e: BoError) -> Errno {
    match e {
        BoError::BadSize(_) | BoError::BadHostRange { .. } => Errno::EINVAL,
        BoError::NoMemory(_) => Errno::ENOMEM,
    }
}
