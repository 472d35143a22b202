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
pub(crate) mod state;
mod uapi_numbers;

use kmd_iface::i915::uapi::*;
use kmd_iface::seam::Errno;

use std::sync::Arc;

use crate::device::{Personality, SimDevice, State as DevState};
use crate::device_info::DeviceInfo;
use crate::gem::GemObject;
use crate::gpu::KernelDriver;
use crate::ioctl::route;
use crate::sysfs::SysfsTree;
use crate::Kmd;
pub(crate) use state::{new_vm, read_vm, write_vm, Context, State};

/// Closing a GEM handle unbinds the object from the file's address spaces, as i915 closes the
/// object's VMAs with its last handle.
fn on_close(st: &mut DevState, obj: &GemObject) {
    for vm in st.i915.all_vms() {
        write_vm(vm).unbind_bo(&obj.bo);
    }
}

/// The i915 personality.
pub(crate) struct I915;

impl Personality for I915 {
    fn kmd(&self) -> Kmd {
        Kmd::I915
    }

    fn ioctl(&self, dev: &SimDevice, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        ioctl(dev, request, arg)
    }

    /// A new file has the default context 0 with its own address space.
    fn open_file(&self, st: &mut DevState, info: &'static DeviceInfo) {
        st.i915.open(info);
    }

    fn kernel_driver(
        &self,
        info: &'static DeviceInfo,
        sysfs: Arc<SysfsTree>,
    ) -> Arc<dyn KernelDriver> {
        Arc::new(gpu_driver::I915Gpu { info, sysfs })
    }
}

/// Dispatches an ioctl to the i915 personality.
fn ioctl(dev: &SimDevice, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
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
