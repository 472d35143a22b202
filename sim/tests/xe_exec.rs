//! IGT-style xe tests (xe_exec_basic, user fences, fault/hang, queries) on every simulated xe
//! platform, through kmd-iface's xe wrappers only.

use crate::common;

use kmd_iface::flags::drm::SyncobjWaitFlags;
use kmd_iface::flags::xe::VmCreateFlags;

use common::*;
use kmd_iface::drm_core::{syncobj_create, syncobj_wait, SyncobjWait};
use kmd_iface::seam::{Errno, Mapping};
use kmd_iface::xe::uapi::*;
use kmd_iface::xe::{bind_op, sync, UserFenceWait, Xe};
use platform::Platform;
use sim::device_info::DeviceInfo;
use sim::gpu::{GpuErrorKind, HangReason};
use sim::Kmd;

const BATCH_VA: u64 = 0x1a_0000;
const DATA_VA: u64 = 0x40_0000;
/// Large enough for DG2's 64 KiB VRAM pages.
const BO_SIZE: u64 = 64 << 10;

fn xe(p: Platform) -> (std::sync::Arc<sim::SimDevice>, Xe) {
    let (dev, file) = open(p, Kmd::Xe);
    (dev, xe_of(file))
}

/// A BO in every region the device has (VRAM when present), CPU-mapped.
fn bo(x: &Xe, p: Platform, vm: u32) -> (u32, Mapping) {
    let h = x.gem_create(&xe_local_bo(p, BO_SIZE, vm)).unwrap();
    let m = x.gem_mmap(h, BO_SIZE as usize).unwrap();
    (h, m)
}

fn bind(x: &Xe, vm: u32, handle: u32, addr: u64) {
    let s = syncobj_create(x.file(), 0).unwrap();
    x.vm_bind(
        vm,
        0,
        &[bind_op::map(handle, 0, addr, BO_SIZE, 0)],
        &[sync::syncobj(s, true)],
    )
    .unwrap();
    assert!(matches!(
        syncobj_wait(x.file(), &[s], i64::MAX, SyncobjWaitFlags::empty()).unwrap(),
        SyncobjWait::Signaled { .. }
    ));
}

fn engines(x: &Xe) -> Vec<drm_xe_engine_class_instance> {
    x.engines().unwrap()
}

/// xe_exec_basic: a store on every engine, completion through an out-syncobj.
#[test]
fn xe_exec_basic() {
    for p in platforms(Kmd::Xe) {
        let (_, x) = xe(p);
        let vm = x.vm_create(VmCreateFlags::empty()).unwrap();
        let (batch, bm) = bo(&x, p, vm);
        let (data, dm) = bo(&x, p, 0);
        bind(&x, vm, batch, BATCH_VA);
        bind(&x, vm, data, DATA_VA);
        for (i, eci) in engines(&x).iter().enumerate() {
            let q = x.exec_queue_create(vm, &[*eci], &[]).unwrap();
            let value = 0xbeef_0000 + i as u32;
            bm.write(0, &store_batch(p, DATA_VA + 8 * i as u64, value))
                .unwrap();
            let s = syncobj_create(x.file(), 0).unwrap();
            x.exec(q, BATCH_VA, &[sync::syncobj(s, true)]).unwrap();
            assert_eq!(
                syncobj_wait(x.file(), &[s], i64::MAX, SyncobjWaitFlags::empty()).unwrap(),
                SyncobjWait::Signaled { first_signaled: 0 },
                "{p}"
            );
            assert_eq!(dm.load_u32(8 * i).unwrap(), value, "{p} {eci:?}");
            x.exec_queue_destroy(q).unwrap();
        }
        x.gem_close(batch).unwrap();
        x.gem_close(data).unwrap();
        x.vm_destroy(vm).unwrap();
    }
}

/// The GPU writes a user fence after the batch; WAIT_USER_FENCE sees it in CPU memory.
#[test]
fn user_fence_is_written_after_the_batch() {
    for p in platforms(Kmd::Xe) {
        let (_, x) = xe(p);
        let vm = x.vm_create(VmCreateFlags::LR_MODE).unwrap();
        let (batch, bm) = bo(&x, p, vm);
        let (data, dm) = bo(&x, p, vm);
        bind(&x, vm, batch, BATCH_VA);
        bind(&x, vm, data, DATA_VA);
        let q = x.exec_queue_create(vm, &engines(&x)[..1], &[]).unwrap();
        bm.write(0, &store_batch(p, DATA_VA, 5)).unwrap();
        // Long-running VMs take no syncobj out-fences.
        let s = syncobj_create(x.file(), 0).unwrap();
        let err = x.exec(q, BATCH_VA, &[sync::syncobj(s, true)]).unwrap_err();
        assert_eq!(err.errno(), Some(Errno::EOPNOTSUPP));
        x.exec(q, BATCH_VA, &[sync::user_fence(DATA_VA + 0x100, 42)])
            .unwrap();
        let wait = UserFenceWait {
            addr: dm.as_ptr() as u64 + 0x100,
            op: DRM_XE_UFENCE_WAIT_OP_EQ,
            value: 42,
            mask: u64::MAX,
            timeout: 1_000_000_000,
            abstime: false,
            exec_queue_id: q,
        };
        assert!(x.wait_user_fence(&wait).unwrap(), "{p}");
        assert_eq!(dm.load_u32(0).unwrap(), 5);
        // A value that never comes times out.
        let never = UserFenceWait {
            value: 43,
            timeout: 5_000_000,
            ..wait
        };
        assert!(!x.wait_user_fence(&never).unwrap());
    }
}

#[test]
fn fault_bans_the_queue_and_a_fresh_queue_works() {
    for p in platforms(Kmd::Xe) {
        let (dev, x) = xe(p);
        let vm = x.vm_create(VmCreateFlags::empty()).unwrap();
        let (batch, bm) = bo(&x, p, vm);
        let (data, dm) = bo(&x, p, vm);
        bind(&x, vm, batch, BATCH_VA);
        bind(&x, vm, data, DATA_VA);
        let eci = engines(&x)[0];
        let q = x.exec_queue_create(vm, &[eci], &[]).unwrap();
        let bad = 0x7f00_0000;
        bm.write(0, &store_batch(p, bad, 1)).unwrap();
        x.exec(q, BATCH_VA, &[sync::user_fence(DATA_VA + 0x100, 1)])
            .unwrap();
        // The fence never lands; the wait fails with EIO because the queue was reset.
        let wait = UserFenceWait {
            addr: dm.as_ptr() as u64 + 0x100,
            op: DRM_XE_UFENCE_WAIT_OP_EQ,
            value: 1,
            mask: u64::MAX,
            timeout: -1,
            abstime: false,
            exec_queue_id: q,
        };
        assert_eq!(
            x.wait_user_fence(&wait).unwrap_err().errno(),
            Some(Errno::EIO)
        );
        let e = &dev.error_states()[0];
        match &e.kind {
            GpuErrorKind::PageFault { fault, by: None } => assert_eq!(fault.address, bad, "{p}"),
            k => panic!("{k:?}"),
        }
        assert_eq!(e.context, q);
        let ban = x
            .exec_queue_get_property(q, DRM_XE_EXEC_QUEUE_GET_PROPERTY_BAN)
            .unwrap();
        assert_eq!(ban, 1);
        assert_eq!(
            x.exec(q, BATCH_VA, &[]).unwrap_err().errno(),
            Some(Errno::ECANCELED)
        );
        let q2 = x.exec_queue_create(vm, &[eci], &[]).unwrap();
        bm.write(0, &store_batch(p, DATA_VA, 9)).unwrap();
        let s = syncobj_create(x.file(), 0).unwrap();
        x.exec(q2, BATCH_VA, &[sync::syncobj(s, true)]).unwrap();
        syncobj_wait(x.file(), &[s], i64::MAX, SyncobjWaitFlags::empty()).unwrap();
        assert_eq!(dm.load_u32(0).unwrap(), 9);
    }
}

#[test]
fn endless_batch_is_a_hang() {
    for p in platforms(Kmd::Xe) {
        let (dev, x) = xe(p);
        let vm = x.vm_create(VmCreateFlags::empty()).unwrap();
        let (batch, bm) = bo(&x, p, vm);
        bind(&x, vm, batch, BATCH_VA);
        let q = x.exec_queue_create(vm, &engines(&x)[..1], &[]).unwrap();
        bm.write(0, &self_loop(p, BATCH_VA)).unwrap();
        let s = syncobj_create(x.file(), 0).unwrap();
        x.exec(q, BATCH_VA, &[sync::syncobj(s, true)]).unwrap();
        // The wait ends once the reset has signalled the job's fence (with its error).
        syncobj_wait(x.file(), &[s], i64::MAX, SyncobjWaitFlags::empty()).unwrap();
        assert!(matches!(
            dev.error_states()[0].kind,
            GpuErrorKind::Hang(HangReason::Watchdog { .. })
        ));
        let ban = x
            .exec_queue_get_property(q, DRM_XE_EXEC_QUEUE_GET_PROPERTY_BAN)
            .unwrap();
        assert_eq!(ban, 1, "{p}");
    }
}

#[test]
fn scratch_page_vm_absorbs_stray_stores() {
    let p = Platform::Tgllp;
    let (dev, x) = xe(p);
    let vm = x.vm_create(VmCreateFlags::SCRATCH_PAGE).unwrap();
    let (batch, bm) = bo(&x, p, vm);
    bind(&x, vm, batch, BATCH_VA);
    let q = x.exec_queue_create(vm, &engines(&x)[..1], &[]).unwrap();
    bm.write(0, &store_batch(p, 0x7f00_0000, 1)).unwrap();
    let s = syncobj_create(x.file(), 0).unwrap();
    x.exec(q, BATCH_VA, &[sync::syncobj(s, true)]).unwrap();
    syncobj_wait(x.file(), &[s], i64::MAX, SyncobjWaitFlags::empty()).unwrap();
    assert!(dev.error_states().is_empty());
    // Unmapping the batch makes the next exec fault on the fetch... into the scratch page,
    // which reads as MI_NOOPs up to the page end and then more scratch: a hang, not a fault.
    x.vm_bind(vm, 0, &[bind_op::unmap(BATCH_VA, BO_SIZE)], &[])
        .unwrap();
    x.exec(q, BATCH_VA, &[sync::syncobj(s, true)]).unwrap();
    syncobj_wait(x.file(), &[s], i64::MAX, SyncobjWaitFlags::empty()).unwrap();
    assert!(matches!(
        dev.error_states()[0].kind,
        GpuErrorKind::Hang(HangReason::Watchdog { .. })
    ));
}

#[test]
fn queries_describe_the_simulated_part() {
    for p in platforms(Kmd::Xe) {
        let (_, x) = xe(p);
        let info = DeviceInfo::get(p);
        let cfg = x.config().unwrap();
        assert_eq!(
            kmd_iface::pci::platform_for(cfg.device_id().unwrap())
                .unwrap()
                .platform,
            p
        );
        assert_eq!(cfg.va_bits(), Some(48));
        assert_eq!(cfg.has_vram(), Some(info.has_local_memory));
        let engines = x.engines().unwrap();
        assert_eq!(engines.len(), info.engines.len());
        let regions = x.mem_regions().unwrap();
        assert_eq!(regions.len(), if info.has_local_memory { 2 } else { 1 });
        let gts = x.gt_list().unwrap();
        assert_eq!(u64::from(gts[0].reference_clock), info.timestamp_hz);
        let topo = x.gt_topology().unwrap();
        let dss = topo
            .iter()
            .find(|t| t.kind == DRM_XE_TOPO_DSS_COMPUTE)
            .unwrap();
        assert_eq!(dss.count(), info.topology.subslice_total());
        let eus = topo
            .iter()
            .find(|t| t.kind == DRM_XE_TOPO_EU_PER_DSS)
            .unwrap();
        assert_eq!(eus.count(), info.topology.eus_per_subslice);
        let hw = x.hwconfig().unwrap();
        assert_eq!(hw.is_empty(), p != Platform::Dg2);
        let c = x.engine_cycles(engines[0], 1).unwrap();
        assert_eq!(c.width, 36);
    }
}
