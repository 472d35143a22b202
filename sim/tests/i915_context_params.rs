//! The GETPARAM and context parameters NEO 22.43 asks for when it opens an i915 device
//! (`Drm::queryGttSize`, `checkNonPersistentContextsSupport`, `getQueueSliceCount`,
//! `isPooledEuSupported`/`getMinEuInPool`), with the kernel's (6.12) answers and errors; structs
//! laid out as `i915_drm.h` defines them.

use crate::common;

use common::*;
use kmd_iface::i915::uapi::*;
use kmd_iface::i915::ContextParams;
use kmd_iface::seam::Errno;
use platform::Platform;
use sim::device_info::DeviceInfo;
use sim::Kmd;
use zerocopy::IntoBytes;

#[test]
fn pooled_eu_params_are_zero_off_broxton() {
    for p in platforms(Kmd::I915) {
        let (_, f) = open(p, Kmd::I915);
        let d = i915_of(f);
        assert_eq!(d.getparam(I915_PARAM_HAS_POOLED_EU).unwrap(), 0, "{p}");
        assert_eq!(d.getparam(I915_PARAM_MIN_EU_IN_POOL).unwrap(), 0, "{p}");
    }
}

#[test]
fn gtt_size_and_persistence() {
    for p in platforms(Kmd::I915) {
        let (_, f) = open(p, Kmd::I915);
        let d = i915_of(f);
        // Full 48-bit PPGTT.
        assert_eq!(
            d.context_getparam(0, I915_CONTEXT_PARAM_GTT_SIZE).unwrap(),
            1 << 48
        );
        let ctx = d.context_create(&ContextParams::default()).unwrap();
        assert_eq!(
            d.context_getparam(ctx, I915_CONTEXT_PARAM_PERSISTENCE)
                .unwrap(),
            1
        );
        d.context_setparam(ctx, I915_CONTEXT_PARAM_PERSISTENCE, 0)
            .unwrap();
        assert_eq!(
            d.context_getparam(ctx, I915_CONTEXT_PARAM_PERSISTENCE)
                .unwrap(),
            0
        );
        // GTT_SIZE is read-only.
        let e = d.context_setparam(ctx, I915_CONTEXT_PARAM_GTT_SIZE, 1 << 32);
        assert_eq!(e.unwrap_err().errno(), Some(Errno::EINVAL), "{p}");
    }
}

fn sseu_param(ctx: u32, s: &mut drm_i915_gem_context_param_sseu) -> drm_i915_gem_context_param {
    drm_i915_gem_context_param {
        ctx_id: ctx,
        param: I915_CONTEXT_PARAM_SSEU,
        size: std::mem::size_of::<drm_i915_gem_context_param_sseu>() as u32,
        value: s.as_mut_bytes().as_mut_ptr() as u64,
    }
}

/// NEO's getQueueSliceCount: render engine, instance I915_EXEC_DEFAULT (0), legacy engine map.
#[test]
fn sseu_of_the_render_engine_is_the_whole_device() {
    for p in [Platform::Skl, Platform::Tgllp, Platform::Dg2] {
        let (_, f) = open(p, Kmd::I915);
        let t = DeviceInfo::get(p).topology;
        let mut s = drm_i915_gem_context_param_sseu {
            engine: i915_engine_class_instance {
                engine_class: I915_ENGINE_CLASS_RENDER,
                engine_instance: 0,
            },
            ..Default::default()
        };
        let mut a = sseu_param(0, &mut s);
        call(&*f, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &mut a).unwrap();
        assert_eq!(
            a.size, 32,
            "{p}: sizeof(struct drm_i915_gem_context_param_sseu)"
        );
        assert_eq!(s.slice_mask, (1 << t.slices) - 1, "{p}");
        assert_eq!(s.subslice_mask, (1 << t.subslices_per_slice) - 1, "{p}");
        assert_eq!(
            (s.min_eus_per_subslice, s.max_eus_per_subslice),
            (t.eus_per_subslice as u16, t.eus_per_subslice as u16)
        );
        // A zero size asks for the size.
        let mut probe = sseu_param(0, &mut s);
        probe.size = 0;
        call(&*f, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &mut probe).unwrap();
        assert_eq!(probe.size, 32);
        // Short, reserved bits, unknown flags, no such engine, an index without a map: EINVAL.
        let mut short = sseu_param(0, &mut s);
        short.size = 16;
        assert_eq!(
            errno(&*f, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &mut short),
            Errno::EINVAL
        );
        for bad in [
            drm_i915_gem_context_param_sseu { rsvd: 1, ..s },
            drm_i915_gem_context_param_sseu { flags: 2, ..s },
            drm_i915_gem_context_param_sseu {
                flags: I915_CONTEXT_SSEU_FLAG_ENGINE_INDEX,
                ..s
            },
            drm_i915_gem_context_param_sseu {
                engine: i915_engine_class_instance {
                    engine_class: I915_ENGINE_CLASS_RENDER,
                    engine_instance: 7,
                },
                ..s
            },
        ] {
            let mut b = bad;
            let mut a = sseu_param(0, &mut b);
            assert_eq!(
                errno(&*f, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, &mut a),
                Errno::EINVAL,
                "{p} {bad:?}"
            );
        }
        // Reconfiguring is refused (the kernel allows it on Gen11 only).
        let mut a = sseu_param(0, &mut s);
        assert_eq!(
            errno(&*f, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, &mut a),
            Errno::ENODEV
        );
    }
}
