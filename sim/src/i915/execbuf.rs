//! EXECBUFFER2: softpinned (or kernel-placed) objects, syncobj fences, one batch per call.

use std::collections::HashSet;
use std::sync::Arc;

use kmd_iface::flags::i915::{ExecFenceFlags, ExecFlags, ExecObjectFlags};
use kmd_iface::i915::uapi::*;
use kmd_iface::seam::Errno;

use super::{read_vm, reloc, write_vm, Context};
use crate::activity::Request;
use crate::device::{SimDevice, State};
use crate::gpu::Job;
use crate::mem::{AddressSpace, Bo, PAGE_SIZE, VA_BITS};
use crate::sync::Fence;
use crate::user;

/// Every execbuf flag bit the uAPI defines (up to I915_EXEC_USE_EXTENSIONS), the engine
/// selector and legacy bits [`ExecFlags`] leaves out included (the kernel's
/// `__I915_EXEC_UNKNOWN_FLAGS`).
const KNOWN_FLAGS: u64 = (ExecFlags::USE_EXTENSIONS.bits() << 1) - 1;
/// Without EXEC_OBJECT_SUPPORTS_48B_ADDRESS an object must sit below 4 GiB.
const LOW_4G: u64 = 1 << 32;
const VA_LIMIT: u64 = 1 << VA_BITS;
/// Where the kernel starts placing objects that are not softpinned.
const PLACEMENT_START: u64 = 0x10_0000;

/// `gen8_canonical_addr`: bit 47 sign-extended.
fn canonical(a: u64) -> u64 {
    (((a << 16) as i64) >> 16) as u64
}

struct Object {
    handle: u32,
    bo: Arc<Bo>,
    /// Softpin address (48-bit form) and size of the range the object needs.
    pin: Option<u64>,
    size: u64,
    alignment: u64,
    low_4g: bool,
    write: bool,
    /// Without EXEC_OBJECT_ASYNC the request waits for the object's earlier requests.
    implicit_sync: bool,
}

pub(crate) fn execbuffer2(
    dev: &SimDevice,
    eb: &mut drm_i915_gem_execbuffer2,
) -> Result<i32, Errno> {
    if eb.flags & !KNOWN_FLAGS != 0 {
        return Err(Errno::EINVAL);
    }
    let flags = ExecFlags::from_bits_truncate(eb.flags);
    // Timeline-fence extensions are not simulated (HAS_EXEC_TIMELINE_FENCES reports 0); an
    // in-fence is either waited for or a submit fence, not both.
    if flags.contains(ExecFlags::USE_EXTENSIONS)
        || flags.contains(ExecFlags::FENCE_IN | ExecFlags::FENCE_SUBMIT)
    {
        return Err(Errno::EINVAL);
    }
    let in_fence = flags.intersects(ExecFlags::FENCE_IN | ExecFlags::FENCE_SUBMIT);
    let fence_array = flags.contains(ExecFlags::FENCE_ARRAY);
    if eb.buffer_count == 0
        || eb.DR1 != 0
        || eb.DR4 != 0
        || (!in_fence && eb.rsvd2 != 0)
        || eb.rsvd1 >> 32 != 0
        || (!fence_array && (eb.num_cliprects != 0 || eb.cliprects_ptr != 0))
        || !(eb.batch_start_offset | eb.batch_len).is_multiple_of(8)
    {
        return Err(Errno::EINVAL);
    }
    let entries: Vec<drm_i915_gem_exec_object2> =
        user::read_array(eb.buffers_ptr, eb.buffer_count as usize)?;
    let fences: Vec<drm_i915_gem_exec_fence> = if fence_array {
        user::read_array(eb.cliprects_ptr, eb.num_cliprects as usize)?
    } else {
        Vec::new()
    };

    let mut guard = dev.lock();
    let st = &mut *guard;
    let ctx_id = eb.rsvd1 as u32;
    let ctx = st.i915.contexts.get(&ctx_id).ok_or(Errno::ENOENT)?;
    if ctx.hw.banned() {
        return Err(Errno::EIO);
    }
    let engine = select_engine(st, ctx, eb.flags & I915_EXEC_RING_MASK)?;
    let mut objects = validate_objects(st, &entries, dev.info().i915_relocations)?;
    // The request starts once its in-fences have signalled (FENCE_IN, syncobjs to wait for) or,
    // for I915_EXEC_FENCE_SUBMIT, once the fence's own request has started.
    let mut after = check_fences(st, &fences)?;
    let mut with = Vec::new();
    if in_fence {
        let f = st.sync_files.import(eb.rsvd2 as u32 as i32)?;
        if flags.contains(ExecFlags::FENCE_SUBMIT) {
            with.push(f);
        } else {
            after.push(f);
        }
    }
    let batch_idx = if flags.contains(ExecFlags::BATCH_FIRST) {
        0
    } else {
        objects.len() - 1
    };
    let batch = &objects[batch_idx];
    let start = u64::from(eb.batch_start_offset);
    let len = match eb.batch_len {
        0 => batch.bo.size().saturating_sub(start),
        l => u64::from(l),
    };
    if len == 0 || start + len > batch.bo.size() {
        return Err(Errno::EINVAL);
    }

    let vm = ctx.vm.clone();
    let addresses = place(&mut write_vm(&vm), &objects)?;
    // Relocations, unless NO_RELOC promised them all current and nothing moved.
    let moved = entries
        .iter()
        .zip(&addresses)
        .any(|(e, a)| e.offset & (VA_LIMIT - 1) != *a);
    let relocs = entries.iter().any(|e| e.relocation_count != 0);
    if relocs && (!flags.contains(ExecFlags::NO_RELOC) || moved) {
        let bos: Vec<&Bo> = objects.iter().map(|o| &*o.bo).collect();
        let lut = flags.contains(ExecFlags::HANDLE_LUT);
        let plan = reloc::plan(&entries, &bos, &addresses, lut, canonical)?;
        // The CPU writes only into objects the GPU is done with: wait, then start over.
        let busy: Vec<u32> = plan
            .patches
            .iter()
            .map(|p| objects[p.object].handle)
            .filter(|&h| {
                st.gem
                    .get(h)
                    .is_ok_and(|o| o.requests().iter().any(|r| !r.fence.is_signaled()))
            })
            .collect();
        if !busy.is_empty() {
            drop(guard);
            for h in busy {
                super::gem::wait_idle(dev, h, |_| true)?;
            }
            return execbuffer2(dev, eb);
        }
        reloc::apply(&plan, &bos)?;
        for &w in &plan.written {
            objects[w].write = true;
        }
    }
    // Tell the user where an object is when that is not where the user said it was: the
    // kernel writes back (in canonical form) only entries whose offset differs from the
    // placement (`eb_reserve_vma` sets UPDATE and __EXEC_HAS_RELOC, Linux 6.12).
    for (i, addr) in addresses.iter().enumerate() {
        if entries.get(i).is_some_and(|e| e.offset == *addr) {
            continue;
        }
        let at = eb.buffers_ptr
            + (i * std::mem::size_of::<drm_i915_gem_exec_object2>()
                + std::mem::offset_of!(drm_i915_gem_exec_object2, offset)) as u64;
        let _ = user::write_val(at, &canonical(*addr));
    }
    let batch_va = addresses[batch_idx] + start;
    after.extend(implicit_waits(st, &objects));

    let job = Job {
        engine,
        vm: read_vm(&vm).clone(),
        batch: batch_va,
        after,
        with,
        user_fence: None,
    };
    let State { gpu, gem, i915, .. } = st;
    let ctx = i915.contexts.get_mut(&ctx_id).ok_or(Errno::ENOENT)?;
    let fence = gpu.submit(&mut ctx.hw, job);
    for o in &objects {
        if let Ok(obj) = gem.get(o.handle) {
            obj.track(Request {
                fence: fence.clone(),
                engine,
                write: o.write,
            });
        }
    }
    let outs: Vec<(u32, u64)> = fences
        .iter()
        .filter(|f| ExecFenceFlags::from_bits_retain(f.flags).contains(ExecFenceFlags::SIGNAL))
        .map(|f| (f.handle, 0))
        .collect();
    crate::drm::signal_syncobjs(st, &outs, &fence);
    if flags.contains(ExecFlags::FENCE_OUT) {
        let fd = st.sync_files.export(fence)?;
        eb.rsvd2 = (eb.rsvd2 & 0xffff_ffff) | u64::from(fd as u32) << 32;
    }
    drop(guard);
    dev.notify();
    Ok(0)
}

/// The engine an execbuf runs on: an index into the context's engine map, or the legacy
/// selectors (DEFAULT and RENDER both mean the render engine, BLT the copy engine).
fn select_engine(st: &State, ctx: &Context, ring: u64) -> Result<usize, Errno> {
    match &ctx.engines {
        Some(map) => map
            .get(ring as usize)
            .copied()
            .flatten()
            .ok_or(Errno::EINVAL),
        None if ring == I915_EXEC_DEFAULT || ring == I915_EXEC_RENDER => st
            .gpu
            .engine_index(crate::device_info::EngineClass::Render, 0)
            .ok_or(Errno::EINVAL),
        None if ring == I915_EXEC_BLT => st
            .gpu
            .engine_index(crate::device_info::EngineClass::Copy, 0)
            .ok_or(Errno::EINVAL),
        None => Err(Errno::EINVAL),
    }
}

/// `pad_to_size` counts only with EXEC_OBJECT_PAD_TO_SIZE; without it the field is `rsvd1`
/// (a union), which `eb_validate_vma` clears unchecked (NEO stores its context id there).
fn pad_to_size(e: &drm_i915_gem_exec_object2) -> u64 {
    if ExecObjectFlags::from_bits_retain(e.flags).contains(ExecObjectFlags::PAD_TO_SIZE) {
        e.pad_to_size
    } else {
        0
    }
}

fn validate_objects(
    st: &State,
    entries: &[drm_i915_gem_exec_object2],
    relocations: bool,
) -> Result<Vec<Object>, Errno> {
    let mut seen = HashSet::new();
    let mut objects = Vec::with_capacity(entries.len());
    // The process's mappings, read at the first userptr object, once for all of them.
    let mut maps: Option<user::Mappings> = None;
    for e in entries {
        // Every exec-object flag bit the uAPI defines (up to EXEC_OBJECT_CAPTURE).
        let Some(f) = ExecObjectFlags::from_bits(e.flags) else {
            return Err(Errno::EINVAL);
        };
        if e.rsvd2 != 0
            || (e.relocation_count != 0 && !relocations)
            || (e.alignment != 0 && !e.alignment.is_power_of_two())
            || !pad_to_size(e).is_multiple_of(PAGE_SIZE)
        {
            return Err(Errno::EINVAL);
        }
        let obj = st.gem.get(e.handle)?;
        if !seen.insert(e.handle) {
            return Err(Errno::EINVAL);
        }
        // Userptr pages are pinned for the request: they must exist and, unless the object is
        // read-only, be writable (get_user_pages with FOLL_WRITE), else EFAULT.
        if let Some(r) = obj.bo.host_range() {
            let need = if r.read_only {
                user::Need::Read
            } else {
                user::Need::ReadWrite
            };
            maps.get_or_insert_with(user::Mappings::read)
                .probe(r.addr, r.len, need)?;
        }
        let size = obj.bo.size().max(pad_to_size(e));
        // Padding beyond the address space can never be placed.
        if size > VA_LIMIT {
            return Err(Errno::EINVAL);
        }
        let low_4g = !f.contains(ExecObjectFlags::SUPPORTS_48B_ADDRESS);
        let pin = if f.contains(ExecObjectFlags::PINNED) {
            let addr = e.offset & !(PAGE_SIZE - 1);
            if canonical(addr) != e.offset {
                return Err(Errno::EINVAL);
            }
            let addr = addr & (VA_LIMIT - 1);
            let end = addr.checked_add(size).ok_or(Errno::EINVAL)?;
            if end > VA_LIMIT || (low_4g && end > LOW_4G) {
                return Err(Errno::EINVAL);
            }
            if e.alignment != 0 && !addr.is_multiple_of(e.alignment) {
                return Err(Errno::EINVAL);
            }
            Some(addr)
        } else {
            None
        };
        objects.push(Object {
            handle: e.handle,
            bo: obj.bo.clone(),
            pin,
            size,
            alignment: e.alignment.max(PAGE_SIZE),
            low_4g,
            write: f.contains(ExecObjectFlags::WRITE),
            implicit_sync: !f.contains(ExecObjectFlags::ASYNC),
        });
    }
    // Softpinned ranges of one execbuf may not overlap.
    let mut pins: Vec<(u64, u64)> = objects
        .iter()
        .filter_map(|o| o.pin.map(|a| (a, a + o.size)))
        .collect();
    pins.sort_unstable();
    if pins.windows(2).any(|w| w[1].0 < w[0].1) {
        return Err(Errno::EINVAL);
    }
    Ok(objects)
}

/// Implicit synchronisation, as i915 awaits each object's reservation fences unless the object
/// is EXEC_OBJECT_ASYNC: a request writing an object waits for every request still using it,
/// one reading it for the writers. An awaited request's error fails this one too (i915
/// propagates a signalled fence's error to its waiters). Requests of the same context are
/// ordered anyway; waiting for them changes nothing.
fn implicit_waits(st: &State, objects: &[Object]) -> Vec<Arc<Fence>> {
    objects
        .iter()
        .filter(|o| o.implicit_sync)
        .filter_map(|o| {
            st.gem
                .get(o.handle)
                .ok()
                .map(|obj| (o.write, obj.requests()))
        })
        .flat_map(|(write, requests)| {
            requests
                .into_iter()
                .filter(move |r| (write || r.write) && !r.fence.is_signaled())
                .map(|r| r.fence)
        })
        .collect()
}

/// Checks the fence array and returns the fences to wait for.
fn check_fences(st: &State, fences: &[drm_i915_gem_exec_fence]) -> Result<Vec<Arc<Fence>>, Errno> {
    let mut wait = Vec::new();
    for f in fences {
        let Some(flags) = ExecFenceFlags::from_bits(f.flags) else {
            return Err(Errno::EINVAL);
        };
        let s = st.syncobjs.get(f.handle).ok_or(Errno::ENOENT)?;
        // Waiting on a syncobj nobody has submitted to is an error, not a wait.
        if flags.contains(ExecFenceFlags::WAIT) {
            wait.push(s.fence().ok_or(Errno::EINVAL)?.clone());
        }
    }
    Ok(wait)
}

/// Binds every object in `vm` (keeping existing placements that fit, evicting other objects
/// from softpinned ranges) and returns each object's address.
fn place(vm: &mut AddressSpace, objects: &[Object]) -> Result<Vec<u64>, Errno> {
    let mut out = Vec::with_capacity(objects.len());
    for o in objects {
        let current = vm
            .bindings_of(&o.bo)
            .find(|b| b.bo_offset == 0 && b.len == o.size)
            .map(|b| b.start);
        let addr = match (o.pin, current) {
            (Some(p), Some(c)) if p == c => p,
            (Some(p), _) => {
                vm.unbind_bo(&o.bo);
                // Evict whatever else occupies the range (objects of this execbuf cannot: their
                // pins were checked not to overlap, and unpinned ones are placed afterwards).
                vm.unbind(p, o.size).map_err(|_| Errno::EINVAL)?;
                vm.bind(p, o.size, o.bo.clone(), 0, false)
                    .map_err(|_| Errno::EINVAL)?;
                p
            }
            (None, Some(c)) if !o.low_4g || c + o.size <= LOW_4G => c,
            (None, _) => {
                vm.unbind_bo(&o.bo);
                let limit = if o.low_4g { LOW_4G } else { VA_LIMIT };
                let a = free_range(vm, o.size, o.alignment, limit).ok_or(Errno::ENOSPC)?;
                vm.bind(a, o.size, o.bo.clone(), 0, false)
                    .map_err(|_| Errno::ENOSPC)?;
                a
            }
        };
        out.push(addr);
    }
    Ok(out)
}

/// First-fit search for `size` free bytes aligned to `align` below `limit`.
fn free_range(vm: &AddressSpace, size: u64, align: u64, limit: u64) -> Option<u64> {
    let mut cand = PLACEMENT_START;
    for b in vm.bindings() {
        cand = cand.checked_add(align - 1)? / align * align;
        if cand.checked_add(size)? <= b.start {
            break;
        }
        cand = cand.max(b.start + b.len);
    }
    cand = cand.checked_add(align - 1)? / align * align;
    (cand.checked_add(size)? <= limit).then_some(cand)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_form_sign_extends_bit_47() {
        assert_eq!(canonical(0x0000_8000_0000_0000), 0xffff_8000_0000_0000);
        assert_eq!(canonical(0x0000_7fff_ffff_f000), 0x0000_7fff_ffff_f000);
    }

    #[test]
    fn free_range_skips_bindings() {
        let mut vm = AddressSpace::new();
        let bo = Bo::new(0x2000).unwrap();
        vm.bind(PLACEMENT_START, 0x2000, bo.clone(), 0, false)
            .unwrap();
        assert_eq!(
            free_range(&vm, 0x1000, 0x1000, LOW_4G),
            Some(PLACEMENT_START + 0x2000)
        );
        assert_eq!(
            free_range(&vm, 0x1000, 0x10000, LOW_4G),
            Some(PLACEMENT_START + 0x10000)
        );
        assert_eq!(free_range(&vm, LOW_4G, 0x1000, LOW_4G), None);
    }
}
