//! The xe personality: the xe driver's ioctls with its argument checks (`XE_IOCTL_DBG` sites).

mod exec;
mod gem;
pub(crate) mod gpu_driver;
mod query;
mod queue;
pub(crate) mod state;
mod sync;
mod vm;

use std::sync::Arc;

use kmd_iface::seam::Errno;
use kmd_iface::xe::uapi::*;

use crate::device::{Personality, SimDevice, State as DevState};
use crate::device_info::{DeviceInfo, EngineClass};
use crate::gem::GemObject;
use crate::gpu::KernelDriver;
use crate::ioctl::route;
use crate::mem::{AddressSpace, PAGE_SIZE};
use crate::sysfs::SysfsTree;
use crate::Kmd;
use state::next_id;
pub(crate) use state::{Queue, Vm, XeVm};

/// A memory region as xe numbers them: instance 0 is system memory, 1 the first VRAM.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Region {
    pub class: u16,
    pub instance: u16,
    pub min_page: u64,
}

/// DG2 maps VRAM with 64 KiB GPU pages, so VRAM objects and their bindings need that alignment.
const DG2_VRAM_PAGE: u64 = 64 << 10;

pub(crate) fn regions(info: &DeviceInfo) -> Vec<Region> {
    let mut r = vec![Region {
        class: DRM_XE_MEM_REGION_CLASS_SYSMEM,
        instance: 0,
        min_page: PAGE_SIZE,
    }];
    if info.has_local_memory {
        r.push(Region {
            class: DRM_XE_MEM_REGION_CLASS_VRAM,
            instance: 1,
            min_page: DG2_VRAM_PAGE,
        });
    }
    r
}

pub(crate) fn uapi_class(c: EngineClass) -> u16 {
    match c {
        EngineClass::Render => DRM_XE_ENGINE_CLASS_RENDER,
        EngineClass::Compute => DRM_XE_ENGINE_CLASS_COMPUTE,
        EngineClass::Copy => DRM_XE_ENGINE_CLASS_COPY,
    }
}

pub(crate) fn vm_read(vm: &Vm) -> std::sync::RwLockReadGuard<'_, AddressSpace> {
    vm.read().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn vm_write(vm: &Vm) -> std::sync::RwLockWriteGuard<'_, AddressSpace> {
    vm.write().unwrap_or_else(|e| e.into_inner())
}

/// Closing an xe GEM handle leaves its VM bindings (which hold the memory) in place.
fn on_close(_: &mut DevState, _: &GemObject) {}

/// The xe personality.
pub(crate) struct Xe;

impl Personality for Xe {
    fn kmd(&self) -> Kmd {
        Kmd::Xe
    }

    fn ioctl(&self, dev: &SimDevice, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        ioctl(dev, request, arg)
    }

    /// A new xe file starts with no VM and no exec queue.
    fn open_file(&self, _: &mut DevState, _: &'static DeviceInfo) {}

    fn kernel_driver(
        &self,
        info: &'static DeviceInfo,
        sysfs: Arc<SysfsTree>,
    ) -> Arc<dyn KernelDriver> {
        Arc::new(gpu_driver::XeGpu { info, sysfs })
    }
}

fn ioctl(dev: &SimDevice, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
    if let Some(r) = crate::drm::ioctl(dev, request, arg, "xe", on_close) {
        return r;
    }
    route!(request, arg, dev, {
        DRM_IOCTL_XE_DEVICE_QUERY => query::query,
        DRM_IOCTL_XE_GEM_CREATE => gem::create,
        DRM_IOCTL_XE_GEM_MMAP_OFFSET => gem::mmap_offset,
        DRM_IOCTL_XE_VM_CREATE => vm::create,
        DRM_IOCTL_XE_VM_DESTROY => vm::destroy,
        DRM_IOCTL_XE_VM_BIND => vm::bind,
        DRM_IOCTL_XE_EXEC_QUEUE_CREATE => queue::create,
        DRM_IOCTL_XE_EXEC_QUEUE_DESTROY => queue::destroy,
        DRM_IOCTL_XE_EXEC_QUEUE_GET_PROPERTY => queue::get_property,
        DRM_IOCTL_XE_EXEC => exec::exec,
        DRM_IOCTL_XE_WAIT_USER_FENCE => exec::wait_user_fence,
    })
}
