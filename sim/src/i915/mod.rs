//! The i915 personality: the i915 driver's ioctls with its argument checks.

mod context;
mod execbuf;
mod extensions;
mod gem;
pub(crate) mod gpu_driver;
mod legacy_mmap;
pub use legacy_mmap::LegacyMmap;
mod param;
mod query;
mod reloc;
mod uapi_numbers;

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use kmd_iface::i915::uapi::*;
use kmd_iface::seam::Errno;

use crate::device::{SimDevice, State as DevState};
use crate::device_info::DeviceInfo;
use crate::gem::GemObject;
use crate::gpu::HwContext;
use crate::ioctl::route;
use crate::mem::AddressSpace;

/// A GPU address space shared by VM ids and the contexts running in it.
pub(crate) type Vm = Arc<RwLock<AddressSpace>>;

/// A new PPGTT, its unused PTEs on the part's scratch page.
pub(crate) fn new_vm(info: &DeviceInfo) -> Vm {
    Arc::new(RwLock::new(AddressSpace::with_page_tables(
        info.i915_ppgtt(),
    )))
}

/// One i915 GEM context.
pub(crate) struct Context {
    pub hw: HwContext,
    pub vm: Vm,
    /// The user engine map (I915_CONTEXT_PARAM_ENGINES): execbuf's ring index selects an entry;
    /// `None` entries are holes. Without a map the legacy ring selectors apply.
    pub engines: Option<Vec<Option<usize>>>,
    pub recoverable: bool,
    pub bannable: bool,
    pub priority: i64,
    /// I915_CONTEXT_PARAM_PERSISTENCE: contexts are persistent unless the user clears it.
    pub persistent: bool,
}

impl Context {
    fn new(id: u32, vm: Vm) -> Self {
        Context {
            hw: HwContext::new(id),
            vm,
            engines: None,
            recoverable: true,
            bannable: true,
            priority: 0,
            persistent: true,
        }
    }
}

/// The i915 file's VMs and contexts.
#[derive(Default)]
pub(crate) struct State {
    vms: HashMap<u32, Vm>,
    next_vm: u32,
    contexts: HashMap<u32, Context>,
    next_ctx: u32,
}

impl State {
    /// A new file has the default context 0 with its own address space.
    pub fn open(&mut self, info: &DeviceInfo) {
        self.contexts.insert(0, Context::new(0, new_vm(info)));
    }

    fn new_vm(&mut self, vm: Vm) -> u32 {
        // VM ids start at 1; 0 means "no VM" in the uAPI.
        loop {
            self.next_vm = self.next_vm.wrapping_add(1).max(1);
            if !self.vms.contains_key(&self.next_vm) {
                self.vms.insert(self.next_vm, vm);
                return self.next_vm;
            }
        }
    }

    fn new_context_id(&mut self) -> u32 {
        loop {
            self.next_ctx = self.next_ctx.wrapping_add(1).max(1);
            if !self.contexts.contains_key(&self.next_ctx) {
                return self.next_ctx;
            }
        }
    }

    /// Every address space the file can reach.
    fn all_vms(&self) -> impl Iterator<Item = &Vm> {
        self.vms
            .values()
            .chain(self.contexts.values().map(|c| &c.vm))
    }
}

pub(crate) fn write_vm(vm: &Vm) -> std::sync::RwLockWriteGuard<'_, AddressSpace> {
    vm.write().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn read_vm(vm: &Vm) -> std::sync::RwLockReadGuard<'_, AddressSpace> {
    vm.read().unwrap_or_else(|e| e.into_inner())
}

/// Closing a GEM handle unbinds the object from the file's address spaces, as i915 closes the
/// object's VMAs with its last handle.
fn on_close(st: &mut DevState, obj: &GemObject) {
    for vm in st.i915.all_vms() {
        write_vm(vm).unbind_bo(&obj.bo);
    }
}

/// Dispatches an ioctl to the i915 personality.
pub(crate) fn ioctl(dev: &SimDevice, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
    if let Some(r) = crate::drm::ioctl(dev, request, arg, "i915", on_close) {
        return r;
    }
    route!(request, arg, dev, {
        DRM_IOCTL_I915_GETPARAM => param::getparam,
        DRM_IOCTL_I915_QUERY => query::query,
        DRM_IOCTL_I915_GEM_CREATE => gem::create,
        DRM_IOCTL_I915_GEM_CREATE_EXT => gem::create_ext,
        DRM_IOCTL_I915_GEM_USERPTR => gem::userptr,
        DRM_IOCTL_I915_GEM_MMAP_OFFSET => gem::mmap_offset,
        DRM_IOCTL_I915_GEM_PREAD => gem::pread,
        DRM_IOCTL_I915_GEM_PWRITE => gem::pwrite,
        DRM_IOCTL_I915_GEM_SET_DOMAIN => gem::set_domain,
        DRM_IOCTL_I915_GEM_SW_FINISH => gem::sw_finish,
        DRM_IOCTL_I915_GEM_SET_CACHING => gem::set_caching,
        DRM_IOCTL_I915_GEM_GET_CACHING => gem::get_caching,
        DRM_IOCTL_I915_GEM_WAIT => gem::wait,
        DRM_IOCTL_I915_GEM_BUSY => gem::busy,
        DRM_IOCTL_I915_GEM_VM_CREATE => context::vm_create,
        DRM_IOCTL_I915_GEM_VM_DESTROY => context::vm_destroy,
        DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT => context::create,
        DRM_IOCTL_I915_GEM_CONTEXT_DESTROY => context::destroy,
        DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM => context::setparam,
        DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM => context::getparam,
        DRM_IOCTL_I915_GET_RESET_STATS => context::reset_stats,
        DRM_IOCTL_I915_REG_READ => param::reg_read,
        DRM_IOCTL_I915_GEM_EXECBUFFER2_WR => execbuf::execbuffer2,
    })
}
