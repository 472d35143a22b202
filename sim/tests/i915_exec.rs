//! IGT-style i915 tests (gem_exec_basic, gem_exec_store, reset/fault/hang, queries) on every
//! simulated i915 platform, through kmd-iface's i915 wrappers only.

use crate::common;

use kmd_iface::flags::drm::SyncobjWaitFlags;
use std::time::Duration;

use batchbuffer::{MiBatchBufferEnd, MiLoadRegisterMem, MiStoreDataImm, MiStoreRegisterMem};
use common::*;
use kmd_iface::drm_core::{syncobj_create, syncobj_wait, SyncobjWait};
use kmd_iface::i915::uapi::*;
use kmd_iface::i915::{ContextParams, Execbuf, MmapMode, PinnedObject, I915};
use kmd_iface::seam::Errno;
use platform::Platform;
use sim::device_info::DeviceInfo;
use sim::gpu::{GpuErrorKind, HangReason};
use sim::Kmd;

const BATCH_VA: u64 = 0x10_0000;
const TARGET_VA: u64 = 0x20_0000;

fn i915(p: Platform) -> (std::sync::Arc<sim::SimDevice>, I915) {
    let (dev, file) = open(p, Kmd::I915);
    (dev, i915_of(file))
}

fn write_bo(d: &I915, p: Platform, handle: u32, bytes: &[u8]) {
    let m = d.gem_mmap(handle, 4096, i915_mmap_mode(p)).unwrap();
    m.write(0, bytes).unwrap();
}

fn pinned(batch: u32, target: Option<u32>) -> Vec<PinnedObject> {
    let mut v = vec![PinnedObject {
        handle: batch,
        gpu_address: BATCH_VA,
        write: false,
    }];
    if let Some(t) = target {
        v.push(PinnedObject {
            handle: t,
            gpu_address: TARGET_VA,
            write: true,
        });
    }
    v
}

#[test]
fn gem_exec_basic() {
    for p in platforms(Kmd::I915) {
        let (_, d) = i915(p);
        let bo = d.gem_create(4096).unwrap();
        write_bo(&d, p, bo.handle, &end_batch(p));
        d.execbuffer2(&Execbuf {
            objects: &pinned(bo.handle, None),
            engine: I915_EXEC_RENDER,
            ..Default::default()
        })
        .unwrap();
        assert!(d.gem_wait(bo.handle, -1).unwrap(), "{p}");
        assert!(!d.gem_busy(bo.handle).unwrap().busy);
        d.gem_close(bo.handle).unwrap();
    }
}

/// Stores through every engine of a context with its own VM and engine map.
#[test]
fn gem_exec_store() {
    for p in platforms(Kmd::I915) {
        let (_, d) = i915(p);
        let vm = d.vm_create().unwrap();
        let engines: Vec<i915_engine_class_instance> = d
            .engine_info()
            .unwrap()
            .iter()
            .map(|e| i915_engine_class_instance {
                engine_class: e.class,
                engine_instance: e.instance,
            })
            .collect();
        let ctx = d
            .context_create(&ContextParams {
                vm_id: Some(vm),
                engines: Some(engines.clone()),
                single_timeline: false,
            })
            .unwrap();
        for (i, _) in engines.iter().enumerate() {
            let batch = d.gem_create(4096).unwrap().handle;
            let target = d.gem_create(4096).unwrap().handle;
            let value = 0xc0de_0000 + i as u32;
            write_bo(&d, p, batch, &store_batch(p, TARGET_VA + 16, value));
            d.execbuffer2(&Execbuf {
                objects: &pinned(batch, Some(target)),
                ctx_id: ctx,
                engine: i as u64,
                ..Default::default()
            })
            .unwrap();
            assert!(d.gem_wait(target, 1_000_000_000).unwrap());
            d.gem_set_domain(target, I915_GEM_DOMAIN_CPU, 0).unwrap();
            let m = d.gem_mmap(target, 4096, i915_mmap_mode(p)).unwrap();
            assert_eq!(m.load_u32(16).unwrap(), value, "{p} engine {i}");
            d.gem_close(batch).unwrap();
            d.gem_close(target).unwrap();
        }
        d.context_destroy(ctx).unwrap();
        d.vm_destroy(vm).unwrap();
    }
}

#[test]
fn one_bo_shared_by_two_vms() {
    let p = Platform::Tgllp;
    let (_, d) = i915(p);
    let target = d.gem_create(4096).unwrap().handle;
    for (k, vm_addr) in [(1u32, TARGET_VA), (2, 0x7_0000_0000)] {
        let vm = d.vm_create().unwrap();
        let ctx = d
            .context_create(&ContextParams {
                vm_id: Some(vm),
                ..Default::default()
            })
            .unwrap();
        let batch = d.gem_create(4096).unwrap().handle;
        write_bo(&d, p, batch, &store_batch(p, vm_addr + 4 * u64::from(k), k));
        let objs = [
            PinnedObject {
                handle: batch,
                gpu_address: BATCH_VA,
                write: false,
            },
            PinnedObject {
                handle: target,
                gpu_address: vm_addr,
                write: true,
            },
        ];
        d.execbuffer2(&Execbuf {
            objects: &objs,
            ctx_id: ctx,
            ..Default::default()
        })
        .unwrap();
        assert!(d.gem_wait(target, -1).unwrap());
    }
    let m = d.gem_mmap(target, 4096, MmapMode::Wb).unwrap();
    assert_eq!((m.load_u32(4).unwrap(), m.load_u32(8).unwrap()), (1, 2));
}

#[test]
fn syncobj_out_fence_signals() {
    let p = Platform::Dg2;
    let (_, d) = i915(p);
    let s = syncobj_create(d.file(), 0).unwrap();
    let bo = d.gem_create(4096).unwrap().handle;
    write_bo(&d, p, bo, &end_batch(p));
    // Waiting on a syncobj nobody signalled yet is an error without WAIT_FOR_SUBMIT.
    assert!(syncobj_wait(d.file(), &[s], 0, SyncobjWaitFlags::empty()).is_err());
    let fences = [drm_i915_gem_exec_fence {
        handle: s,
        flags: I915_EXEC_FENCE_SIGNAL,
    }];
    d.execbuffer2(&Execbuf {
        objects: &pinned(bo, None),
        fences: &fences,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        syncobj_wait(d.file(), &[s], i64::MAX, SyncobjWaitFlags::empty()).unwrap(),
        SyncobjWait::Signaled { first_signaled: 0 }
    );
    // The next submission can wait on it.
    let fences = [drm_i915_gem_exec_fence {
        handle: s,
        flags: I915_EXEC_FENCE_WAIT,
    }];
    d.execbuffer2(&Execbuf {
        objects: &pinned(bo, None),
        fences: &fences,
        ..Default::default()
    })
    .unwrap();
}

/// A command no packet matches: a reported error with its header, the wait returning as
/// i915's does (0) with the context guilty, the context banned, and a fresh context still works. (A stray address is no error on i915: see
/// `unbound_accesses_reach_the_scratch_page`; xe_exec covers page faults.)
#[test]
fn gpu_error_is_reported_and_fresh_context_works() {
    const BAD: u32 = 0xffff_ffff;
    for p in platforms(Kmd::I915) {
        let (dev, d) = i915(p);
        let ctx = d.context_create(&ContextParams::default()).unwrap();
        let batch = d.gem_create(4096).unwrap().handle;
        write_bo(&d, p, batch, &bytes(&[BAD]));
        let eb = Execbuf {
            objects: &pinned(batch, None),
            ctx_id: ctx,
            ..Default::default()
        };
        d.execbuffer2(&eb).unwrap();
        // i915_gem_wait_ioctl: 0 once idle, whatever the outcome; the reset stats tell.
        assert!(d.gem_wait(batch, -1).unwrap(), "{p}");
        assert_eq!(d.reset_stats(ctx).unwrap().batch_active, 1, "{p}");
        let errors = dev.error_states();
        assert_eq!(errors.len(), 1);
        match &errors[0].kind {
            GpuErrorKind::Hang(HangReason::BadCommand { header, .. }) => assert_eq!(*header, BAD),
            k => panic!("{p}: {k:?}"),
        }
        assert_eq!((errors[0].engine, errors[0].head), ("rcs0", BATCH_VA));
        let text = errors[0].to_string();
        assert!(
            text.contains("0xffffffff") && text.contains("rcs0"),
            "{text}"
        );
        let stats = d.reset_stats(ctx).unwrap();
        assert_eq!((stats.batch_active, stats.reset_count), (1, 1));
        // Banned.
        assert_eq!(d.execbuffer2(&eb).unwrap_err().errno(), Some(Errno::EIO));
        // A fresh context works, the default context was never charged.
        assert_eq!(d.reset_stats(0).unwrap().batch_active, 0);
        let ctx2 = d.context_create(&ContextParams::default()).unwrap();
        let target = d.gem_create(4096).unwrap().handle;
        write_bo(&d, p, batch, &store_batch(p, TARGET_VA, 77));
        d.execbuffer2(&Execbuf {
            objects: &pinned(batch, Some(target)),
            ctx_id: ctx2,
            ..Default::default()
        })
        .unwrap();
        assert!(d.gem_wait(target, -1).unwrap());
        let m = d.gem_mmap(target, 4096, i915_mmap_mode(p)).unwrap();
        assert_eq!(m.load_u32(0).unwrap(), 77);
    }
}

/// CS_GPR0 of the render engine (RENDER_RING_BASE 0x2000 + 0x600).
const GPR0: u32 = 0x2600;

/// MI_LOAD_REGISTER_MEM of GPR0 from `from`, then MI_STORE_REGISTER_MEM of it to `to`.
fn copy_dword(p: Platform, dw: &mut Vec<u32>, from: u64, to: u64) {
    pack(
        p,
        dw,
        &MiLoadRegisterMem {
            register_address: GPR0,
            memory_address: from,
            ..Default::default()
        },
    );
    pack(
        p,
        dw,
        &MiStoreRegisterMem {
            register_address: GPR0,
            memory_address: to,
            ..Default::default()
        },
    );
}

/// Runs `dw` (then MI_BATCH_BUFFER_END) on `ctx` with a fresh target at TARGET_VA, which it
/// returns after the batch completed without a GPU error.
fn run_to_target(dev: &sim::SimDevice, d: &I915, p: Platform, ctx: u32, dw: &[u32]) -> u32 {
    let mut dw = dw.to_vec();
    pack(p, &mut dw, &MiBatchBufferEnd::default());
    let batch = d.gem_create(4096).unwrap().handle;
    let target = d.gem_create(4096).unwrap().handle;
    write_bo(d, p, batch, &bytes(&dw));
    d.execbuffer2(&Execbuf {
        objects: &pinned(batch, Some(target)),
        ctx_id: ctx,
        ..Default::default()
    })
    .unwrap();
    assert!(d.gem_wait(target, -1).unwrap(), "{p}");
    assert!(dev.error_states().is_empty(), "{p}");
    target
}

/// i915 points every unused PPGTT entry at a scratch page, never at nothing (Linux 6.12
/// `gt/gen8_ppgtt.c`). `gen8_ppgtt_create` gives read-only PTEs to every part except Gen11 and
/// Gen12 (`has_read_only = !IS_GRAPHICS_VER(gt->i915, 11, 12)`, HSDES 1807136187), and
/// `gen8_init_scratch` maps the scratch page read-only exactly then (`pte_flags =
/// vm->has_read_only`). So on skl the page stays as `poison_scratch_page` filled it (zeros
/// without CONFIG_DRM_I915_DEBUG_GEM) and the write is dropped (writes through read-only PTEs
/// are discarded, see userptr.rs); on icllp, tgllp and dg2 each VM has its own writable page
/// that every unbound address shares, so a write is read back at the same page offset of
/// another unbound address, and not from another VM (the selftest `igt_vm_isolation`).
#[test]
fn unbound_accesses_reach_the_scratch_page() {
    const STRAY: u64 = 0xdead_0010;
    const ELSEWHERE: u64 = 0x7_7777_7010;
    for p in platforms(Kmd::I915) {
        let writable = matches!(p, Platform::Icllp | Platform::Tgllp | Platform::Dg2);
        let (dev, d) = i915(p);
        let ctx = d.context_create(&ContextParams::default()).unwrap();
        let mut dw = Vec::new();
        pack(
            p,
            &mut dw,
            &MiStoreDataImm {
                address: STRAY,
                immediate_data: 0x1234_5678u32.into(),
                ..Default::default()
            },
        );
        copy_dword(p, &mut dw, ELSEWHERE, TARGET_VA);
        copy_dword(p, &mut dw, ELSEWHERE + 4, TARGET_VA + 4);
        let target = run_to_target(&dev, &d, p, ctx, &dw);
        let m = d.gem_mmap(target, 4096, i915_mmap_mode(p)).unwrap();
        let expect = if writable { 0x1234_5678 } else { 0 };
        assert_eq!(m.load_u32(0).unwrap(), expect, "{p}");
        assert_eq!(m.load_u32(4).unwrap(), 0, "{p}");
        // A later request of the same context (the same VM) still sees it; another context,
        // with its own VM, does not.
        let mut dw = Vec::new();
        copy_dword(p, &mut dw, ELSEWHERE, TARGET_VA);
        let again = run_to_target(&dev, &d, p, ctx, &dw);
        let m = d.gem_mmap(again, 4096, i915_mmap_mode(p)).unwrap();
        assert_eq!(m.load_u32(0).unwrap(), expect, "{p}");
        let other = d.context_create(&ContextParams::default()).unwrap();
        let theirs = run_to_target(&dev, &d, p, other, &dw);
        let m = d.gem_mmap(theirs, 4096, i915_mmap_mode(p)).unwrap();
        assert_eq!(m.load_u32(0).unwrap(), 0, "{p}");
    }
}

/// A batch jumping to itself forever is reported as a hang: the watchdog's command budget ends it.
#[test]
fn endless_batch_is_a_hang() {
    for p in platforms(Kmd::I915) {
        let (dev, d) = i915(p);
        let batch = d.gem_create(4096).unwrap().handle;
        write_bo(&d, p, batch, &self_loop(p, BATCH_VA));
        d.execbuffer2(&Execbuf {
            objects: &pinned(batch, None),
            ..Default::default()
        })
        .unwrap();
        assert!(d.gem_wait(batch, -1).unwrap(), "{p}");
        let e = &dev.error_states()[0];
        assert!(matches!(
            e.kind,
            GpuErrorKind::Hang(HangReason::Watchdog { .. })
        ));
        assert_eq!(e.head, BATCH_VA);
        assert_eq!(d.reset_stats(0).unwrap().batch_active, 1);
    }
}

#[test]
fn params_and_queries_describe_the_simulated_part() {
    for p in platforms(Kmd::I915) {
        let (_, d) = i915(p);
        let info = DeviceInfo::get(p);
        let params = d.params().unwrap();
        let id = kmd_iface::pci::platform_for(params.chipset_id).unwrap();
        assert_eq!(id.platform, p);
        assert_eq!(params.eu_total as u32, info.topology.eu_total());
        assert_eq!(params.cs_timestamp_frequency as u64, info.timestamp_hz);
        assert!(params.has_exec_softpin && params.has_exec_fence_array);
        let topo = d.topology().unwrap();
        assert_eq!(topo.eu_total() as u32, info.topology.eu_total());
        assert_eq!(topo.subslice_total() as u32, info.topology.subslice_total());
        let engines = d.engine_info().unwrap();
        assert_eq!(engines.len(), info.engines.len());
        assert_eq!(engines[0].class, I915_ENGINE_CLASS_RENDER);
        let has_ccs = engines.iter().any(|e| e.class == I915_ENGINE_CLASS_COMPUTE);
        assert_eq!(has_ccs, p == Platform::Dg2);
        let regions = d.memory_regions().unwrap();
        assert_eq!(regions.len(), if info.has_local_memory { 2 } else { 1 });
        match d.hwconfig() {
            Ok(attrs) => assert!(p == Platform::Dg2 && !attrs.is_empty()),
            Err(e) => assert!(matches!(
                e,
                kmd_iface::Error::QueryItem {
                    errno: Errno::ENODEV,
                    ..
                }
            )),
        }
        let t0 = d.gpu_timestamp().unwrap();
        std::thread::sleep(Duration::from_millis(2));
        assert!(d.gpu_timestamp().unwrap() > t0);
    }
}

/// Out-fences are fds that poll readable once the batch is done, and come back as in-fences.
#[test]
fn sync_file_out_fence_round_trips() {
    use std::os::fd::{AsFd, FromRawFd, OwnedFd};
    for p in platforms(Kmd::I915) {
        let (_, d) = i915(p);
        assert!(d.has(I915_PARAM_HAS_EXEC_FENCE).unwrap());
        let bo = d.gem_create(4096).unwrap().handle;
        write_bo(&d, p, bo, &end_batch(p));
        let objs = pinned(bo, None);
        let fd = d
            .execbuffer2(&Execbuf {
                objects: &objs,
                out_fence: true,
                ..Default::default()
            })
            .unwrap()
            .unwrap();
        // SAFETY: the out-fence fd is ours to own and close.
        let owned = unsafe { OwnedFd::from_raw_fd(fd) };
        let mut pfd = [nix::poll::PollFd::new(
            owned.as_fd(),
            nix::poll::PollFlags::POLLIN,
        )];
        assert_eq!(nix::poll::poll(&mut pfd, 1000u16), Ok(1), "{p}");
        d.execbuffer2(&Execbuf {
            objects: &objs,
            in_fence: Some(fd),
            ..Default::default()
        })
        .unwrap();
        // Any other file is not a fence.
        let err = d
            .execbuffer2(&Execbuf {
                objects: &objs,
                in_fence: Some(0),
                ..Default::default()
            })
            .unwrap_err();
        assert_eq!(err.errno(), Some(Errno::EINVAL));
    }
}
