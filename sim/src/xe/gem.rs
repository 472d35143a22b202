//! GEM_CREATE and MMAP_OFFSET.

use kmd_iface::flags::xe::GemCreateFlags;
use kmd_iface::seam::Errno;
use kmd_iface::xe::uapi::*;

use super::regions;
use crate::device::SimDevice;

pub(crate) fn create(dev: &SimDevice, a: &mut drm_xe_gem_create) -> Result<i32, Errno> {
    let Some(flags) = GemCreateFlags::from_bits(a.flags) else {
        return Err(Errno::EINVAL);
    };
    if a.extensions != 0
        || a.pad.iter().any(|&p| p != 0)
        || a.reserved.iter().any(|&r| r != 0)
        || a.handle != 0
        || a.size == 0
    {
        return Err(Errno::EINVAL);
    }
    let regions = regions(dev.info());
    let all: u32 = regions.iter().map(|r| 1 << r.instance).sum();
    if a.placement == 0 || a.placement & !all != 0 {
        return Err(Errno::EINVAL);
    }
    let chosen: Vec<_> = regions
        .iter()
        .filter(|r| a.placement & (1 << r.instance) != 0)
        .collect();
    let vram = chosen
        .iter()
        .any(|r| r.class == DRM_XE_MEM_REGION_CLASS_VRAM);
    let min_page = chosen.iter().map(|r| r.min_page).max().unwrap_or(4096);
    let caching_ok = match a.cpu_caching {
        DRM_XE_GEM_CPU_CACHING_WB => !vram,
        DRM_XE_GEM_CPU_CACHING_WC => true,
        _ => false,
    };
    if !caching_ok
        || !a.size.is_multiple_of(min_page)
        || (flags.contains(GemCreateFlags::NEEDS_VISIBLE_VRAM) && !vram)
    {
        return Err(Errno::EINVAL);
    }
    // More than the region holds: TTM cannot place it.
    if a.size > dev.info().region_size {
        return Err(Errno::ENOMEM);
    }
    let mut st = dev.lock();
    let private = match a.vm_id {
        0 => None,
        id if st.xe.vms.contains_key(&id) => Some(id),
        _ => return Err(Errno::ENOENT),
    };
    let region = chosen.first().map_or(0, |r| r.instance);
    a.handle = st.gem.create(a.size, min_page, region, private)?;
    st.gem.get_mut(a.handle)?.xe_cpu_caching = Some(a.cpu_caching);
    Ok(0)
}

pub(crate) fn mmap_offset(dev: &SimDevice, a: &mut drm_xe_gem_mmap_offset) -> Result<i32, Errno> {
    if a.extensions != 0 || a.flags != 0 || a.reserved.iter().any(|&r| r != 0) {
        return Err(Errno::EINVAL);
    }
    a.offset = dev.lock().gem.mmap_offset(a.handle)?;
    Ok(0)
}
