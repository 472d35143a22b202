//! VMs, contexts (with their VM and engine map), context parameters and reset statistics.

use kmd_iface::flags::i915::ContextCreateFlags;
use kmd_iface::i915::uapi::*;
use kmd_iface::seam::Errno;

use super::{extensions, Context, State};
use crate::device::SimDevice;
use crate::device_info::EngineClass;
use crate::user;

/// `I915_ENGINE_CLASS_INVALID` / `I915_ENGINE_CLASS_INVALID_NONE`: a hole in an engine map.
const CLASS_INVALID: u16 = u16::MAX;
const INSTANCE_NONE: u16 = u16::MAX;

pub(crate) fn vm_create(dev: &SimDevice, a: &mut drm_i915_gem_vm_control) -> Result<i32, Errno> {
    if a.flags != 0 || a.extensions != 0 {
        return Err(Errno::EINVAL);
    }
    a.vm_id = dev.lock().i915.new_vm(super::new_vm(dev.info()));
    Ok(0)
}

pub(crate) fn vm_destroy(dev: &SimDevice, a: &mut drm_i915_gem_vm_control) -> Result<i32, Errno> {
    if a.flags != 0 || a.extensions != 0 {
        return Err(Errno::EINVAL);
    }
    // Contexts using the VM keep it alive.
    dev.lock()
        .i915
        .vms
        .remove(&a.vm_id)
        .map(|_| 0)
        .ok_or(Errno::ENOENT)
}

/// Parameters a context is being created or updated with.
fn apply_param(
    st: &mut State,
    dev: &SimDevice,
    ctx: &mut Context,
    p: &drm_i915_gem_context_param,
) -> Result<(), Errno> {
    let scalar = |v: u64| {
        if p.size != 0 {
            Err(Errno::EINVAL)
        } else {
            Ok(v)
        }
    };
    match p.param {
        I915_CONTEXT_PARAM_VM => {
            let id = u32::try_from(scalar(p.value)?).map_err(|_| Errno::ENOENT)?;
            ctx.vm = st.vms.get(&id).ok_or(Errno::ENOENT)?.clone();
        }
        I915_CONTEXT_PARAM_ENGINES => ctx.engines = engine_map(dev, p)?,
        I915_CONTEXT_PARAM_RECOVERABLE => ctx.recoverable = scalar(p.value)? != 0,
        I915_CONTEXT_PARAM_BANNABLE => ctx.bannable = scalar(p.value)? != 0,
        I915_CONTEXT_PARAM_PERSISTENCE => ctx.persistent = scalar(p.value)? != 0,
        // Reconfiguring slices is Gen11's VME use case only; the kernel refuses it elsewhere
        // (ENODEV) and the simulator refuses it everywhere (icllp's RPCS rules are not
        // simulated).
        I915_CONTEXT_PARAM_SSEU => return Err(Errno::ENODEV),
        I915_CONTEXT_PARAM_PRIORITY => {
            // I915_CONTEXT_MAX_USER_PRIORITY / MIN: +-1023.
            let v = scalar(p.value)? as i64;
            if !(-1023..=1023).contains(&v) {
                return Err(Errno::EINVAL);
            }
            ctx.priority = v;
        }
        _ => return Err(Errno::EINVAL),
    }
    Ok(())
}

/// Reads an I915_CONTEXT_PARAM_ENGINES value: a header then `(size - 8) / 4` engines.
fn engine_map(
    dev: &SimDevice,
    p: &drm_i915_gem_context_param,
) -> Result<Option<Vec<Option<usize>>>, Errno> {
    if p.size == 0 {
        return Ok(None);
    }
    let hdr = std::mem::size_of::<i915_context_param_engines>() as u32;
    let entry = std::mem::size_of::<i915_engine_class_instance>() as u32;
    if p.size < hdr || !(p.size - hdr).is_multiple_of(entry) {
        return Err(Errno::EINVAL);
    }
    let head: i915_context_param_engines = user::read_val(p.value)?;
    // Load-balancing and bonding extensions are not simulated.
    if head.extensions != 0 {
        return Err(Errno::EINVAL);
    }
    let n = ((p.size - hdr) / entry) as usize;
    let list: Vec<i915_engine_class_instance> = user::read_array(p.value + u64::from(hdr), n)?;
    let info = dev.info();
    list.iter()
        .map(|e| {
            if e.engine_class == CLASS_INVALID && e.engine_instance == INSTANCE_NONE {
                return Ok(None);
            }
            let class = match e.engine_class {
                I915_ENGINE_CLASS_RENDER => EngineClass::Render,
                I915_ENGINE_CLASS_COMPUTE => EngineClass::Compute,
                I915_ENGINE_CLASS_COPY => EngineClass::Copy,
                _ => return Err(Errno::ENOENT),
            };
            info.engines
                .iter()
                .position(|d| d.class == class && d.instance == e.engine_instance)
                .map(Some)
                .ok_or(Errno::ENOENT)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

pub(crate) fn create(
    dev: &SimDevice,
    a: &mut drm_i915_gem_context_create_ext,
) -> Result<i32, Errno> {
    let Some(flags) = ContextCreateFlags::from_bits(a.flags) else {
        return Err(Errno::EINVAL);
    };
    let mut guard = dev.lock();
    let st = &mut guard.i915;
    let mut ctx = Context::new(0, super::new_vm(dev.info()));
    if flags.contains(ContextCreateFlags::USE_EXTENSIONS) {
        extensions::walk(a.extensions, |at, name| {
            if name != I915_CONTEXT_CREATE_EXT_SETPARAM {
                return Err(Errno::EINVAL);
            }
            let sp: drm_i915_gem_context_create_ext_setparam = user::read_val(at)?;
            if sp.param.ctx_id != 0 {
                return Err(Errno::EINVAL);
            }
            apply_param(st, dev, &mut ctx, &sp.param)
        })?;
    } else if a.extensions != 0 {
        return Err(Errno::EINVAL);
    }
    let id = st.new_context_id();
    ctx.hw.id = id;
    st.contexts.insert(id, ctx);
    a.ctx_id = id;
    Ok(0)
}

pub(crate) fn destroy(dev: &SimDevice, a: &mut drm_i915_gem_context_destroy) -> Result<i32, Errno> {
    if a.pad != 0 {
        return Err(Errno::EINVAL);
    }
    if a.ctx_id == 0 {
        return Err(Errno::ENOENT);
    }
    dev.lock()
        .i915
        .contexts
        .remove(&a.ctx_id)
        .map(|_| 0)
        .ok_or(Errno::ENOENT)
}

pub(crate) fn setparam(dev: &SimDevice, a: &mut drm_i915_gem_context_param) -> Result<i32, Errno> {
    let mut guard = dev.lock();
    let st = &mut guard.i915;
    let mut ctx = st.contexts.remove(&a.ctx_id).ok_or(Errno::ENOENT)?;
    let r = apply_param(st, dev, &mut ctx, a);
    st.contexts.insert(a.ctx_id, ctx);
    r.map(|_| 0)
}

/// The i915 GTT size of a full 48-bit PPGTT (`vm->total`).
const PPGTT_TOTAL: u64 = 1 << 48;

/// GETPARAM of I915_CONTEXT_PARAM_SSEU (the kernel's `get_sseu`): a zero size asks for the
/// struct's size; the engine is named by class/instance, or by index into the context's engine
/// map with I915_CONTEXT_SSEU_FLAG_ENGINE_INDEX (which a map requires). The render engine
/// reports the whole device (`intel_sseu_from_device_info`); other engines have none.
fn get_sseu(
    dev: &SimDevice,
    ctx: &Context,
    a: &mut drm_i915_gem_context_param,
) -> Result<(), Errno> {
    let size = std::mem::size_of::<drm_i915_gem_context_param_sseu>() as u32;
    if a.size == 0 {
        a.size = size;
        return Ok(());
    }
    if a.size < size {
        return Err(Errno::EINVAL);
    }
    let mut s: drm_i915_gem_context_param_sseu = user::read_val(a.value)?;
    if s.rsvd != 0 || s.flags & !I915_CONTEXT_SSEU_FLAG_ENGINE_INDEX != 0 {
        return Err(Errno::EINVAL);
    }
    let by_index = s.flags & I915_CONTEXT_SSEU_FLAG_ENGINE_INDEX != 0;
    let info = dev.info();
    let engine = match (&ctx.engines, by_index) {
        (Some(map), true) => map
            .get(usize::from(s.engine.engine_instance))
            .copied()
            .flatten(),
        (None, false) => {
            let class = match s.engine.engine_class {
                I915_ENGINE_CLASS_RENDER => Some(EngineClass::Render),
                I915_ENGINE_CLASS_COMPUTE => Some(EngineClass::Compute),
                I915_ENGINE_CLASS_COPY => Some(EngineClass::Copy),
                _ => None,
            };
            info.engines
                .iter()
                .position(|d| Some(d.class) == class && d.instance == s.engine.engine_instance)
        }
        _ => None,
    }
    .ok_or(Errno::EINVAL)?;
    let t = &info.topology;
    let (slices, subslices, eus) = if info.engines[engine].class == EngineClass::Render {
        // The kernel's default SSEU: every enabled unit (the subslice mask of slice 0).
        (
            t.slice_mask(),
            t.subslices_of(0),
            t.eus_per_enabled_subslice() as u16,
        )
    } else {
        (0, 0, 0)
    };
    s.slice_mask = slices;
    s.subslice_mask = subslices;
    s.min_eus_per_subslice = eus;
    s.max_eus_per_subslice = eus;
    user::write_val(a.value, &s)?;
    a.size = size;
    Ok(())
}

pub(crate) fn getparam(dev: &SimDevice, a: &mut drm_i915_gem_context_param) -> Result<i32, Errno> {
    let mut guard = dev.lock();
    let st = &mut guard.i915;
    let ctx = st.contexts.get(&a.ctx_id).ok_or(Errno::ENOENT)?;
    if a.param == I915_CONTEXT_PARAM_SSEU {
        get_sseu(dev, ctx, a)?;
        return Ok(0);
    }
    a.size = 0;
    a.value = match a.param {
        I915_CONTEXT_PARAM_RECOVERABLE => ctx.recoverable.into(),
        I915_CONTEXT_PARAM_BANNABLE => ctx.bannable.into(),
        I915_CONTEXT_PARAM_PRIORITY => ctx.priority as u64,
        I915_CONTEXT_PARAM_PERSISTENCE => ctx.persistent.into(),
        I915_CONTEXT_PARAM_GTT_SIZE => PPGTT_TOTAL,
        // Like the kernel, hands out a new VM id for the context's address space.
        I915_CONTEXT_PARAM_VM => {
            let vm = ctx.vm.clone();
            u64::from(st.new_vm(vm))
        }
        _ => return Err(Errno::EINVAL),
    };
    Ok(0)
}

/// GET_RESET_STATS. `reset_count` is the device's; the kernel reveals it only to CAP_SYS_ADMIN,
/// the simulator to everyone.
pub(crate) fn reset_stats(dev: &SimDevice, a: &mut drm_i915_reset_stats) -> Result<i32, Errno> {
    if a.flags != 0 || a.pad != 0 {
        return Err(Errno::EINVAL);
    }
    let st = dev.lock();
    let ctx = st.i915.contexts.get(&a.ctx_id).ok_or(Errno::ENOENT)?;
    a.reset_count = u32::try_from(st.gpu.errors().reset_count()).unwrap_or(u32::MAX);
    a.batch_active = ctx.hw.guilty();
    a.batch_pending = ctx.hw.innocent();
    Ok(0)
}
