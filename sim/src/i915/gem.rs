//! GEM objects: create (plain and with extensions), userptr, mmap offsets, domains, wait,
//! busy, pread and pwrite.

use std::sync::Arc;

use kmd_iface::flags::i915::{GemCreateExtFlags, UserptrFlags};
use kmd_iface::i915::uapi::*;
use kmd_iface::seam::Errno;

use crate::device::{Deadline, SimDevice, State};
use crate::gem::round_size;
use crate::mem::{HostRange, PAGE_SIZE};
use crate::sync::{Fence, FenceStatus};
use crate::user;

use super::extensions;
use super::uapi_numbers::{region_key, uapi_class};

pub(crate) fn create(dev: &SimDevice, a: &mut drm_i915_gem_create) -> Result<i32, Errno> {
    if a.pad != 0 {
        return Err(Errno::EINVAL);
    }
    let size = checked_size(a.size)?;
    if size > dev.info().region_size {
        return Err(Errno::E2BIG);
    }
    let key = region_key(I915_MEMORY_CLASS_SYSTEM, 0);
    a.handle = dev.lock().gem.create(size, PAGE_SIZE, key, None)?;
    a.size = size;
    Ok(0)
}

fn checked_size(size: u64) -> Result<u64, Errno> {
    match round_size(size, PAGE_SIZE) {
        Some(0) | None => Err(Errno::EINVAL),
        Some(s) => Ok(s),
    }
}

pub(crate) fn create_ext(dev: &SimDevice, a: &mut drm_i915_gem_create_ext) -> Result<i32, Errno> {
    let info = dev.info();
    if GemCreateExtFlags::from_bits(a.flags).is_none() {
        return Err(Errno::EINVAL);
    }
    let size = checked_size(a.size)?;
    // Larger than the region: the kernel answers E2BIG.
    if size > info.region_size {
        return Err(Errno::E2BIG);
    }
    let mut placement = None;
    extensions::walk(a.extensions, |at, name| {
        match name {
            I915_GEM_CREATE_EXT_MEMORY_REGIONS => {
                if placement.is_some() {
                    return Err(Errno::EINVAL);
                }
                let m: drm_i915_gem_create_ext_memory_regions = user::read_val(at)?;
                if m.pad != 0 || m.num_regions == 0 {
                    return Err(Errno::EINVAL);
                }
                let regions: Vec<drm_i915_gem_memory_class_instance> =
                    user::read_array(m.regions, m.num_regions as usize)?;
                for r in &regions {
                    let known = r.memory_instance == 0
                        && (r.memory_class == I915_MEMORY_CLASS_SYSTEM
                            || (r.memory_class == I915_MEMORY_CLASS_DEVICE
                                && info.has_local_memory));
                    if !known {
                        return Err(Errno::EINVAL);
                    }
                }
                let first = regions[0];
                placement = Some(region_key(first.memory_class, first.memory_instance));
            }
            I915_GEM_CREATE_EXT_SET_PAT => {
                let p: drm_i915_gem_create_ext_set_pat = user::read_val(at)?;
                if p.rsvd != 0 || p.pat_index > info.i915_max_pat_index {
                    return Err(Errno::EINVAL);
                }
            }
            // Protected content needs a PXP session the simulator does not have.
            I915_GEM_CREATE_EXT_PROTECTED_CONTENT => return Err(Errno::ENODEV),
            _ => return Err(Errno::EINVAL),
        }
        Ok(())
    })?;
    let key = placement.unwrap_or(region_key(I915_MEMORY_CLASS_SYSTEM, 0));
    a.handle = dev.lock().gem.create(size, PAGE_SIZE, key, None)?;
    a.size = size;
    Ok(0)
}

/// GEM_USERPTR, with the kernel's checks in its order: coherency, flags, size, page alignment
/// of pointer and size, the user address range, UNSYNCHRONIZED (never allowed), READ_ONLY
/// (needs PPGTT read-only pages), and with PROBE that normal memory is there. Without PROBE a
/// bad range is found when the pages are pinned at execbuf (EFAULT there).
pub(crate) fn userptr(dev: &SimDevice, a: &mut drm_i915_gem_userptr) -> Result<i32, Errno> {
    let info = dev.info();
    if !info.llc_or_snoop {
        return Err(Errno::ENODEV);
    }
    let Some(flags) = UserptrFlags::from_bits(a.flags) else {
        return Err(Errno::EINVAL);
    };
    if a.user_size > info.region_size {
        return Err(Errno::E2BIG);
    }
    if a.user_size == 0 || !(a.user_ptr | a.user_size).is_multiple_of(PAGE_SIZE) {
        return Err(Errno::EINVAL);
    }
    if a.user_ptr
        .checked_add(a.user_size)
        .is_none_or(|end| end > USER_SPACE_END)
    {
        return Err(Errno::EFAULT);
    }
    if flags.contains(UserptrFlags::UNSYNCHRONIZED) {
        return Err(Errno::ENODEV);
    }
    let read_only = flags.contains(UserptrFlags::READ_ONLY);
    if read_only && !info.ppgtt_read_only {
        return Err(Errno::ENODEV);
    }
    if flags.contains(UserptrFlags::PROBE) {
        user::probe(a.user_ptr, a.user_size, user::Need::Exists)?;
    }
    let range = HostRange {
        addr: a.user_ptr,
        len: a.user_size,
        read_only,
    };
    let key = region_key(I915_MEMORY_CLASS_SYSTEM, 0);
    a.handle = dev.lock().gem.create_userptr(range, key)?;
    Ok(0)
}

/// First address past x86-64 user space (the kernel's `access_ok` limit, TASK_SIZE_MAX with
/// 4-level paging).
const USER_SPACE_END: u64 = (1 << 47) - 4096;

pub(crate) fn mmap_offset(dev: &SimDevice, a: &mut drm_i915_gem_mmap_offset) -> Result<i32, Errno> {
    if a.extensions != 0 || a.pad != 0 {
        return Err(Errno::EINVAL);
    }
    let discrete = dev.info().has_local_memory;
    match a.flags {
        // Discrete parts only take FIXED; integrated ones everything but FIXED.
        I915_MMAP_OFFSET_FIXED if discrete => {}
        I915_MMAP_OFFSET_GTT | I915_MMAP_OFFSET_WC | I915_MMAP_OFFSET_WB | I915_MMAP_OFFSET_UC
            if !discrete => {}
        I915_MMAP_OFFSET_GTT..=I915_MMAP_OFFSET_FIXED => return Err(Errno::ENODEV),
        _ => return Err(Errno::EINVAL),
    }
    a.offset = dev.lock().gem.mmap_offset(a.handle)?;
    Ok(0)
}

pub(crate) fn set_domain(dev: &SimDevice, a: &mut drm_i915_gem_set_domain) -> Result<i32, Errno> {
    let cpu_domains = I915_GEM_DOMAIN_CPU | I915_GEM_DOMAIN_GTT | I915_GEM_DOMAIN_WC;
    if (a.read_domains | a.write_domain) & !cpu_domains != 0
        || (a.write_domain != 0 && a.read_domains != a.write_domain)
    {
        return Err(Errno::EINVAL);
    }
    // Moving to a CPU domain waits for the GPU; a failed request does not fail the move.
    dev.wait_until(Deadline::Never, None, |st, pending| {
        idle(st, a.handle, pending)
    })
}

/// `Some(0)` once no request uses the object (done or failed alike), `None` before (with the
/// fences of those still running added to `pending`).
fn idle(st: &State, handle: u32, pending: &mut Vec<Arc<Fence>>) -> Result<Option<i32>, Errno> {
    let obj = st.gem.get(handle)?;
    Ok(match obj.status() {
        Some(FenceStatus::Pending) => {
            pending.extend(
                obj.requests()
                    .into_iter()
                    .map(|r| r.fence)
                    .filter(|f| !f.is_signaled()),
            );
            None
        }
        _ => Some(0),
    })
}

/// GEM_WAIT: 0 once no request uses the object, whatever their outcome, as
/// `i915_gem_wait_ioctl` (`gem/i915_gem_wait.c`) answers; a GPU error reaches the caller
/// through the context's reset stats, its ban (EXECBUFFER2's `EIO`) and fence status.
pub(crate) fn wait(dev: &SimDevice, a: &mut drm_i915_gem_wait) -> Result<i32, Errno> {
    if a.flags != 0 {
        return Err(Errno::EINVAL);
    }
    let deadline = Deadline::relative_ns(a.timeout_ns);
    let r = dev.wait_until(deadline, None, |st, pending| idle(st, a.bo_handle, pending));
    if a.timeout_ns > 0 {
        a.timeout_ns = deadline.remaining_ns();
    }
    r
}

pub(crate) fn busy(dev: &SimDevice, a: &mut drm_i915_gem_busy) -> Result<i32, Errno> {
    let st = dev.lock();
    let obj = st.gem.get(a.handle)?;
    // i915_gem_busy.c: a read bit (0x10000 << uabi class) per engine class still using the
    // object; the last writer's class + 1 in the low half.
    let class = |engine: usize| {
        let e = dev.info().engines.get(engine);
        e.map_or(0, |e| u32::from(uapi_class(e.class)))
    };
    a.busy = 0;
    for r in obj.requests().iter().filter(|r| !r.fence.is_signaled()) {
        let c = class(r.engine);
        a.busy |= 0x1_0000 << c;
        if r.write {
            a.busy = (a.busy & !0xffff) | (c + 1);
        }
    }
    Ok(0)
}

/// GEM_PREAD and GEM_PWRITE, with `i915_gem_pread_ioctl`/`i915_gem_pwrite_ioctl`'s checks in
/// their order: the platform (refused after TGL-LP), an empty copy (done), the user range
/// (`access_ok`), the handle, the object's bounds, a read-only object for writes. The copy
/// waits for the GPU first: a read for its writers, a write for every user (I915_WAIT_ALL);
/// a request that failed does not fail the copy.
fn copy_checks(
    dev: &SimDevice,
    handle: u32,
    offset: u64,
    size: u64,
    data_ptr: u64,
) -> Result<Option<std::sync::Arc<crate::mem::Bo>>, Errno> {
    if !dev.info().i915_pread_pwrite {
        return Err(Errno::EOPNOTSUPP);
    }
    if size == 0 {
        return Ok(None);
    }
    if data_ptr
        .checked_add(size)
        .is_none_or(|end| end > USER_SPACE_END)
    {
        return Err(Errno::EFAULT);
    }
    let bo = dev.lock().gem.get(handle)?.bo.clone();
    if offset.checked_add(size).is_none_or(|end| end > bo.size()) {
        return Err(Errno::EINVAL);
    }
    Ok(Some(bo))
}

/// Sleeps until no request of `handle` that `counts` selects is running.
pub(super) fn wait_idle(
    dev: &SimDevice,
    handle: u32,
    counts: fn(&crate::activity::Request) -> bool,
) -> Result<(), Errno> {
    dev.wait_until(Deadline::Never, None, |st, pending| {
        let obj = st.gem.get(handle)?;
        pending.extend(
            obj.requests()
                .into_iter()
                .filter(|r| counts(r) && !r.fence.is_signaled())
                .map(|r| r.fence),
        );
        Ok(pending.is_empty().then_some(()))
    })
}

pub(crate) fn pread(dev: &SimDevice, a: &mut drm_i915_gem_pread) -> Result<i32, Errno> {
    let Some(bo) = copy_checks(dev, a.handle, a.offset, a.size, a.data_ptr)? else {
        return Ok(0);
    };
    wait_idle(dev, a.handle, |r| r.write)?;
    let mut buf = [0u8; COPY_CHUNK];
    for (at, n) in chunks(a.size) {
        let part = &mut buf[..n];
        bo.read(a.offset + at, part).map_err(|_| Errno::EFAULT)?;
        user::write(a.data_ptr + at, part)?;
    }
    Ok(0)
}

pub(crate) fn pwrite(dev: &SimDevice, a: &mut drm_i915_gem_pwrite) -> Result<i32, Errno> {
    let Some(bo) = copy_checks(dev, a.handle, a.offset, a.size, a.data_ptr)? else {
        return Ok(0);
    };
    if bo.is_read_only() {
        return Err(Errno::EINVAL);
    }
    wait_idle(dev, a.handle, |_| true)?;
    let mut buf = [0u8; COPY_CHUNK];
    for (at, n) in chunks(a.size) {
        let part = &mut buf[..n];
        user::read(a.data_ptr + at, part)?;
        bo.write(a.offset + at, part).map_err(|_| Errno::EFAULT)?;
    }
    Ok(0)
}

/// GEM_PREAD/PWRITE copy through a bounded buffer, as the kernel copies page by page: the
/// size is the caller's (up to the whole object), so it never sizes an allocation, and a
/// fault part-way leaves the bytes before it copied, as with the kernel.
const COPY_CHUNK: usize = 16 << 10;

/// (offset, length) of each chunk of a `size`-byte copy.
fn chunks(size: u64) -> impl Iterator<Item = (u64, usize)> {
    (0..size)
        .step_by(COPY_CHUNK)
        .map(move |at| (at, (size - at).min(COPY_CHUNK as u64) as usize))
}

/// GEM_SW_FINISH: only looks the object up (it flushes display scanout objects, which the
/// simulator has none of); `intel_gem_info` probes GEM with it on handle 0 and wants ENOENT.
pub(crate) fn sw_finish(dev: &SimDevice, a: &mut drm_i915_gem_sw_finish) -> Result<i32, Errno> {
    dev.lock().gem.get(a.handle)?;
    Ok(0)
}

/// GEM_SET_CACHING, in `i915_gem_set_caching_ioctl`'s order: refused on discrete parts, the
/// mode (DISPLAY is write-through only where the platform has WT, none here; CACHED needs an
/// LLC or snooping), the handle; a userptr object takes only CACHED. Not modelled: the
/// EOPNOTSUPP for objects created with I915_GEM_CREATE_EXT_SET_PAT.
pub(crate) fn set_caching(dev: &SimDevice, a: &mut drm_i915_gem_caching) -> Result<i32, Errno> {
    let info = dev.info();
    if info.has_local_memory {
        return Err(Errno::ENODEV);
    }
    let mode = match a.caching {
        I915_CACHING_NONE | I915_CACHING_DISPLAY => I915_CACHING_NONE,
        I915_CACHING_CACHED if info.llc_or_snoop => I915_CACHING_CACHED,
        I915_CACHING_CACHED => return Err(Errno::ENODEV),
        _ => return Err(Errno::EINVAL),
    };
    let mut st = dev.lock();
    let obj = st.gem.get_mut(a.handle)?;
    if obj.bo.host_range().is_some() {
        return if mode == I915_CACHING_CACHED {
            Ok(0)
        } else {
            Err(Errno::ENXIO)
        };
    }
    obj.i915_caching = Some(mode);
    Ok(0)
}

/// GEM_GET_CACHING: refused on discrete parts; the mode set, else the kernel's default, LLC
/// (CACHED) for shmem objects on the integrated platforms here (all have an LLC) and for
/// userptr objects.
pub(crate) fn get_caching(dev: &SimDevice, a: &mut drm_i915_gem_caching) -> Result<i32, Errno> {
    if dev.info().has_local_memory {
        return Err(Errno::ENODEV);
    }
    let st = dev.lock();
    let obj = st.gem.get(a.handle)?;
    a.caching = obj.i915_caching.unwrap_or(I915_CACHING_CACHED);
    Ok(0)
}
