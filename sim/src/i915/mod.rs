//! The i915 personality: the i915 driver's ioctls with its argument checks.

mod context;
mod execbuf;
mod extensions;
mod gem;
mod param;
mod query;

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use kmd_iface::i915::uapi::*;
use kmd_iface::seam::Errno;

use crate::device::{SimDevice, State as DevState};
use crate::gem::GemObject;
use crate::gpu::HwContext;
use crate::ioctl::{drm_nr, with_arg};
use crate::mem::AddressSpace;

/// A GPU address space shared by VM ids and the contexts running in it.
pub(crate) type Vm = Arc<RwLock<AddressSpace>>;

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
    pub fn open(&mut self) {
        let vm = Arc::new(RwLock::new(AddressSpace::new()));
        self.contexts.insert(0, Context::new(0, vm));
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
    // drm_ioctl answers EINVAL for command numbers the driver does not have.
    let nr = drm_nr(request).ok_or(Errno::ENOTTY)?;
    let is = |table: u64| drm_nr(table) == Some(nr);
    if is(DRM_IOCTL_I915_GETPARAM) {
        with_arg(request, DRM_IOCTL_I915_GETPARAM, arg, |a| {
            param::getparam(dev, a)
        })
    } else if is(DRM_IOCTL_I915_QUERY) {
        with_arg(request, DRM_IOCTL_I915_QUERY, arg, |a| query::query(dev, a))
    } else if is(DRM_IOCTL_I915_GEM_CREATE) {
        with_arg(request, DRM_IOCTL_I915_GEM_CREATE, arg, |a| {
            gem::create(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_CREATE_EXT) {
        with_arg(request, DRM_IOCTL_I915_GEM_CREATE_EXT, arg, |a| {
            gem::create_ext(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_USERPTR) {
        with_arg(request, DRM_IOCTL_I915_GEM_USERPTR, arg, |a| {
            gem::userptr(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_MMAP_OFFSET) {
        with_arg(request, DRM_IOCTL_I915_GEM_MMAP_OFFSET, arg, |a| {
            gem::mmap_offset(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_SET_DOMAIN) {
        with_arg(request, DRM_IOCTL_I915_GEM_SET_DOMAIN, arg, |a| {
            gem::set_domain(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_WAIT) {
        with_arg(request, DRM_IOCTL_I915_GEM_WAIT, arg, |a| gem::wait(dev, a))
    } else if is(DRM_IOCTL_I915_GEM_BUSY) {
        with_arg(request, DRM_IOCTL_I915_GEM_BUSY, arg, |a| gem::busy(dev, a))
    } else if is(DRM_IOCTL_I915_GEM_VM_CREATE) {
        with_arg(request, DRM_IOCTL_I915_GEM_VM_CREATE, arg, |a| {
            context::vm_create(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_VM_DESTROY) {
        with_arg(request, DRM_IOCTL_I915_GEM_VM_DESTROY, arg, |a| {
            context::vm_destroy(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT) {
        with_arg(request, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT, arg, |a| {
            context::create(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_CONTEXT_DESTROY) {
        with_arg(request, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY, arg, |a| {
            context::destroy(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM) {
        with_arg(request, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, arg, |a| {
            context::setparam(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM) {
        with_arg(request, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, arg, |a| {
            context::getparam(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GET_RESET_STATS) {
        with_arg(request, DRM_IOCTL_I915_GET_RESET_STATS, arg, |a| {
            context::reset_stats(dev, a)
        })
    } else if is(DRM_IOCTL_I915_REG_READ) {
        with_arg(request, DRM_IOCTL_I915_REG_READ, arg, |a| {
            param::reg_read(dev, a)
        })
    } else if is(DRM_IOCTL_I915_GEM_EXECBUFFER2_WR) {
        with_arg(request, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, arg, |a| {
            execbuf::execbuffer2(dev, a)
        })
    } else {
        Err(Errno::EINVAL)
    }
}
