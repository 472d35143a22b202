//! The simulated GPU runs beside the CPU: EXEC and EXECBUFFER2 return once the batch is queued,
//! and busy queries, waits with timeouts, WAIT_FOR_SUBMIT, in/out fences, user fences and
//! semaphores between contexts behave as the kernel drivers document them (i915_drm.h,
//! xe_drm.h, drm.h). Every batch that must stay busy waits on an MI_SEMAPHORE_WAIT the test
//! releases, so no result depends on host timing.

use crate::common;

use kmd_iface::flags::drm::SyncobjWaitFlags;
use kmd_iface::flags::xe::VmCreateFlags;
use std::os::fd::{BorrowedFd, FromRawFd, OwnedFd};

use common::*;
use kmd_iface::drm_core::{syncobj_create, syncobj_wait, SyncobjWait};
use kmd_iface::i915::uapi::*;
use kmd_iface::i915::{ContextParams, Execbuf, PinnedObject, I915};
use kmd_iface::seam::{Errno, Mapping};
use kmd_iface::xe::uapi::*;
use kmd_iface::xe::{bind_op, sync, UserFenceWait, Xe};
use platform::Platform;
use sim::Kmd;

const BATCH_VA: u64 = 0x1a_0000;
const RELEASE_VA: u64 = 0x1c_0000;
const DATA_VA: u64 = 0x40_0000;
const BO_SIZE: u64 = 64 << 10;
/// Where the semaphore and the stored values live in the data buffer.
const SEM: u64 = 0;
const OUT: u64 = 0x40;

/// An absolute CLOCK_MONOTONIC deadline `ms` from now (syncobj waits take absolute times).
fn in_ms(ms: i64) -> i64 {
    let t = nix::time::clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC).unwrap();
    t.tv_sec() * 1_000_000_000 + t.tv_nsec() + ms * 1_000_000
}

struct XeRig {
    x: Xe,
    vm: u32,
    batch: Mapping,
    data: Mapping,
}

fn xe_rig(p: Platform) -> XeRig {
    let (_, file) = open(p, Kmd::Xe);
    let x = xe_of(file);
    let vm = x.vm_create(VmCreateFlags::empty()).unwrap();
    let mut maps = Vec::new();
    for va in [BATCH_VA, RELEASE_VA, DATA_VA] {
        let h = x.gem_create(&xe_local_bo(p, BO_SIZE, vm)).unwrap();
        maps.push(x.gem_mmap(h, BO_SIZE as usize).unwrap());
        x.vm_bind(vm, 0, &[bind_op::map(h, 0, va, BO_SIZE, 0)], &[])
            .unwrap();
    }
    let data = maps.pop().unwrap();
    let release = maps.pop().unwrap();
    let batch = maps.pop().unwrap();
    batch
        .write(
            0,
            &semaphore_store_batch(p, DATA_VA + SEM, DATA_VA + OUT, 7),
        )
        .unwrap();
    release.write(0, &store_batch(p, DATA_VA + SEM, 1)).unwrap();
    XeRig { x, vm, batch, data }
}

impl XeRig {
    fn queue(&self) -> u32 {
        let eci = self.x.engines().unwrap()[0];
        self.x.exec_queue_create(self.vm, &[eci], &[]).unwrap()
    }
}

#[test]
fn xe_syncobj_wait_times_out_until_another_queue_releases_the_semaphore() {
    for p in platforms(Kmd::Xe) {
        let r = xe_rig(p);
        let (q1, q2) = (r.queue(), r.queue());
        let s = syncobj_create(r.x.file(), 0).unwrap();
        // EXEC returns with the batch queued and blocked on its semaphore.
        r.x.exec(q1, BATCH_VA, &[sync::syncobj(s, true)]).unwrap();
        assert_eq!(
            syncobj_wait(r.x.file(), &[s], in_ms(20), SyncobjWaitFlags::empty()).unwrap(),
            SyncobjWait::TimedOut,
            "{p}"
        );
        assert_eq!(r.data.load_u32(OUT as usize).unwrap(), 0, "{p}");
        // Another queue's batch writes the semaphore: the first batch finishes.
        let s2 = syncobj_create(r.x.file(), 0).unwrap();
        r.x.exec(q2, RELEASE_VA, &[sync::syncobj(s2, true)])
            .unwrap();
        assert_eq!(
            syncobj_wait(r.x.file(), &[s, s2], i64::MAX, SyncobjWaitFlags::WAIT_ALL).unwrap(),
            SyncobjWait::Signaled { first_signaled: 0 },
            "{p}"
        );
        assert_eq!(r.data.load_u32(OUT as usize).unwrap(), 7, "{p}");
    }
}

#[test]
fn xe_user_fence_is_written_when_the_batch_completes() {
    let p = Platform::Tgllp;
    let r = xe_rig(p);
    let q = r.queue();
    let fence_va = DATA_VA + 0x100;
    r.x.exec(q, BATCH_VA, &[sync::user_fence(fence_va, 0x1234)])
        .unwrap();
    let wait = |timeout| UserFenceWait {
        addr: r.data.as_ptr() as u64 + 0x100,
        op: DRM_XE_UFENCE_WAIT_OP_EQ,
        value: 0x1234,
        mask: u64::MAX,
        timeout,
        abstime: false,
        exec_queue_id: q,
    };
    assert!(!r.x.wait_user_fence(&wait(10_000_000)).unwrap());
    r.data.write(SEM as usize, &1u32.to_le_bytes()).unwrap();
    assert!(r.x.wait_user_fence(&wait(-1)).unwrap());
    assert_eq!(r.data.load_u32(OUT as usize).unwrap(), 7);
}

#[test]
fn xe_in_syncobj_orders_a_job_after_another_queue() {
    let p = Platform::Dg2;
    let r = xe_rig(p);
    let (q1, q2) = (r.queue(), r.queue());
    let (s1, s2) = (
        syncobj_create(r.x.file(), 0).unwrap(),
        syncobj_create(r.x.file(), 0).unwrap(),
    );
    r.x.exec(q1, BATCH_VA, &[sync::syncobj(s1, true)]).unwrap();
    // Queue 2 overwrites OUT, but only after queue 1's job (blocked on the semaphore).
    let second = BATCH_VA + 0x1000;
    r.batch
        .write(0x1000, &store_batch(p, DATA_VA + OUT, 9))
        .unwrap();
    r.x.exec(
        q2,
        second,
        &[sync::syncobj(s1, false), sync::syncobj(s2, true)],
    )
    .unwrap();
    assert_eq!(
        syncobj_wait(r.x.file(), &[s2], in_ms(20), SyncobjWaitFlags::empty()).unwrap(),
        SyncobjWait::TimedOut
    );
    r.data.write(SEM as usize, &1u32.to_le_bytes()).unwrap();
    syncobj_wait(r.x.file(), &[s2], i64::MAX, SyncobjWaitFlags::empty()).unwrap();
    assert_eq!(r.data.load_u32(OUT as usize).unwrap(), 9);
}

#[test]
fn wait_for_submit_waits_for_a_fence_to_appear() {
    let p = Platform::Tgllp;
    let r = xe_rig(p);
    let q = r.queue();
    let s = syncobj_create(r.x.file(), 0).unwrap();
    // Without WAIT_FOR_SUBMIT a syncobj with no fence is an error (drm_syncobj_array_find).
    assert_eq!(
        syncobj_wait(r.x.file(), &[s], i64::MAX, SyncobjWaitFlags::empty())
            .unwrap_err()
            .errno(),
        Some(Errno::EINVAL)
    );
    assert_eq!(
        syncobj_wait(
            r.x.file(),
            &[s],
            in_ms(20),
            SyncobjWaitFlags::WAIT_FOR_SUBMIT
        )
        .unwrap(),
        SyncobjWait::TimedOut
    );
    std::thread::scope(|scope| {
        let waiter = scope.spawn(|| {
            syncobj_wait(
                r.x.file(),
                &[s],
                i64::MAX,
                SyncobjWaitFlags::WAIT_FOR_SUBMIT,
            )
        });
        r.data.write(SEM as usize, &1u32.to_le_bytes()).unwrap();
        r.x.exec(q, BATCH_VA, &[sync::syncobj(s, true)]).unwrap();
        assert_eq!(
            waiter.join().unwrap().unwrap(),
            SyncobjWait::Signaled { first_signaled: 0 }
        );
    });
    assert_eq!(r.data.load_u32(OUT as usize).unwrap(), 7);
}

#[test]
fn a_fault_on_one_queue_leaves_another_queues_work_intact() {
    for p in platforms(Kmd::Xe) {
        let r = xe_rig(p);
        let (bad, good) = (r.queue(), r.queue());
        // The bad queue's batch stores to an unbound address.
        let faulting = BATCH_VA + 0x2000;
        r.batch
            .write(0x2000, &store_batch(p, 0x7000_0000, 1))
            .unwrap();
        let (sb, sg) = (
            syncobj_create(r.x.file(), 0).unwrap(),
            syncobj_create(r.x.file(), 0).unwrap(),
        );
        r.x.exec(good, BATCH_VA, &[sync::syncobj(sg, true)])
            .unwrap();
        r.x.exec(bad, faulting, &[sync::syncobj(sb, true)]).unwrap();
        syncobj_wait(r.x.file(), &[sb], i64::MAX, SyncobjWaitFlags::empty()).unwrap();
        let ban = |q| {
            r.x.exec_queue_get_property(q, DRM_XE_EXEC_QUEUE_GET_PROPERTY_BAN)
                .unwrap()
        };
        assert_eq!(ban(bad), 1, "{p}");
        // The good queue is still waiting for its semaphore, unharmed by the reset.
        assert_eq!(ban(good), 0, "{p}");
        r.data.write(SEM as usize, &1u32.to_le_bytes()).unwrap();
        syncobj_wait(r.x.file(), &[sg], i64::MAX, SyncobjWaitFlags::empty()).unwrap();
        assert_eq!(r.data.load_u32(OUT as usize).unwrap(), 7, "{p}");
        assert_eq!(ban(good), 0, "{p}");
    }
}

struct I915Rig {
    i915: I915,
    batch: u32,
    data: u32,
    data_map: Mapping,
}

const I915_BATCH: u64 = 0x20_0000;
const I915_DATA: u64 = 0x40_0000;

fn i915_rig(p: Platform) -> I915Rig {
    let (_, file) = open(p, Kmd::I915);
    let i915 = i915_of(file);
    let mode = i915_mmap_mode(p);
    let batch = i915.gem_create(BO_SIZE).unwrap().handle;
    let data = i915.gem_create(BO_SIZE).unwrap().handle;
    let bm = i915.gem_mmap(batch, BO_SIZE as usize, mode).unwrap();
    bm.write(
        0,
        &semaphore_store_batch(p, I915_DATA + SEM, I915_DATA + OUT, 7),
    )
    .unwrap();
    bm.write(0x1000, &store_batch(p, I915_DATA + OUT, 9))
        .unwrap();
    bm.write(0x2000, &store_batch(p, I915_DATA + SEM, 1))
        .unwrap();
    let data_map = i915.gem_mmap(data, BO_SIZE as usize, mode).unwrap();
    I915Rig {
        i915,
        batch,
        data,
        data_map,
    }
}

impl I915Rig {
    fn exec(&self, ctx: u32, start: u32, in_fence: Option<i32>, out_fence: bool) -> Option<i32> {
        self.exec_as(ctx, start, in_fence, out_fence, Access::Write)
    }

    /// The batch at `start` on `ctx`'s render engine, declaring the data object as `access`.
    fn exec_as(
        &self,
        ctx: u32,
        start: u32,
        in_fence: Option<i32>,
        out_fence: bool,
        access: Access,
    ) -> Option<i32> {
        self.exec_on(I915_EXEC_RENDER, ctx, start, in_fence, out_fence, access)
    }

    /// The batch at `start` on `ctx`'s `engine`, declaring the data object as `access`.
    fn exec_on(
        &self,
        engine: u64,
        ctx: u32,
        start: u32,
        in_fence: Option<i32>,
        out_fence: bool,
        access: Access,
    ) -> Option<i32> {
        let objects = [
            PinnedObject {
                handle: self.batch,
                gpu_address: I915_BATCH,
                write: false,
            },
            PinnedObject {
                handle: self.data,
                gpu_address: I915_DATA,
                write: access == Access::Write,
            },
        ];
        self.i915
            .execbuffer2(&Execbuf {
                objects: &objects,
                batch_start_offset: start,
                engine,
                ctx_id: ctx,
                in_fence,
                out_fence,
                no_implicit_sync: access == Access::Async,
                ..Default::default()
            })
            .unwrap()
    }
}

/// How a request declares the data object: written (EXEC_OBJECT_WRITE), read, or written
/// without implicit synchronisation (EXEC_OBJECT_WRITE | EXEC_OBJECT_ASYNC).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Write,
    Read,
    Async,
}

/// Whether out-fence `fd` signals within a minute (for a request that needs nothing else).
fn signals(fd: i32) -> bool {
    // SAFETY: fd is an out-fence the test owns and has not closed.
    let b = unsafe { BorrowedFd::borrow_raw(fd) };
    let mut pfd = [nix::poll::PollFd::new(b, nix::poll::PollFlags::POLLIN)];
    nix::poll::poll(&mut pfd, nix::poll::PollTimeout::from(60_000u16)) == Ok(1)
}

fn readable(fd: i32) -> bool {
    // SAFETY: fd is an out-fence the test owns and has not closed.
    let b = unsafe { BorrowedFd::borrow_raw(fd) };
    let mut pfd = [nix::poll::PollFd::new(b, nix::poll::PollFlags::POLLIN)];
    nix::poll::poll(&mut pfd, nix::poll::PollTimeout::ZERO) == Ok(1)
}

#[test]
fn i915_busy_buffer_and_gem_wait_timeout() {
    for p in platforms(Kmd::I915) {
        let r = i915_rig(p);
        let out = r.exec(0, 0, None, true).unwrap();
        let busy = r.i915.gem_busy(r.data).unwrap();
        assert!(busy.busy, "{p}");
        // Written by the render engine (I915_ENGINE_CLASS_RENDER = 0, reported as class + 1),
        // and read by it (bit 16 + class).
        assert_eq!(
            (busy.writing_class_plus_one, busy.reading_classes),
            (1, 1),
            "{p}"
        );
        // The batch is only read.
        let batch = r.i915.gem_busy(r.batch).unwrap();
        assert_eq!(
            (
                batch.busy,
                batch.writing_class_plus_one,
                batch.reading_classes
            ),
            (true, 0, 1),
            "{p}"
        );
        assert!(!readable(out), "{p}");
        assert!(!r.i915.gem_wait(r.data, 5_000_000).unwrap(), "{p}");
        assert!(!r.i915.gem_wait(r.data, 0).unwrap(), "{p}");
        r.data_map.write(SEM as usize, &1u32.to_le_bytes()).unwrap();
        assert!(r.i915.gem_wait(r.data, -1).unwrap(), "{p}");
        assert!(!r.i915.gem_busy(r.data).unwrap().busy, "{p}");
        assert!(readable(out), "{p}");
        assert_eq!(r.data_map.load_u32(OUT as usize).unwrap(), 7, "{p}");
        // SAFETY: the out-fence fd is ours to close, once.
        drop(unsafe { OwnedFd::from_raw_fd(out) });
    }
}

#[test]
fn i915_semaphore_released_by_another_context_and_in_fence_order() {
    let p = Platform::Tgllp;
    let r = i915_rig(p);
    let (c1, c2) = (
        r.i915.context_create(&ContextParams::default()).unwrap(),
        r.i915.context_create(&ContextParams::default()).unwrap(),
    );
    let blocked = r.exec(c1, 0, None, true).unwrap();
    // Context 2 overwrites OUT after context 1's batch (I915_EXEC_FENCE_IN).
    let after = r.exec(c2, 0x1000, Some(blocked), true).unwrap();
    assert!(!readable(after));
    // The default context releases the semaphore (asynchronously: a write would wait for the
    // blocked writer first, as the kernel's implicit synchronisation orders them).
    r.exec_as(0, 0x2000, None, false, Access::Async);
    assert!(r.i915.gem_wait(r.data, -1).unwrap());
    assert!(readable(blocked) && readable(after));
    assert_eq!(r.data_map.load_u32(OUT as usize).unwrap(), 9);
    for fd in [blocked, after] {
        // SAFETY: out-fence fds are ours to close, once each.
        drop(unsafe { OwnedFd::from_raw_fd(fd) });
    }
}

/// Implicit synchronisation (i915_drm.h: EXEC_OBJECT_ASYNC "the kernel will not wait for
/// [the object's] fences"): without the flag a request waits for the earlier requests of
/// other contexts that write an object it uses, for a write and for a read alike; with it, it
/// runs at once. Context 1's batch writes 7 to OUT once the host releases its semaphore;
/// context 2's writes 9 (OUT is in the same object).
#[test]
fn i915_implicit_sync_orders_contexts_sharing_an_object() {
    for p in platforms(Kmd::I915) {
        for access in [Access::Write, Access::Read, Access::Async] {
            let r = i915_rig(p);
            let (c1, c2) = (
                r.i915.context_create(&ContextParams::default()).unwrap(),
                r.i915.context_create(&ContextParams::default()).unwrap(),
            );
            let blocked = r.exec(c1, 0, None, true).unwrap();
            let second = r.exec_as(c2, 0x1000, None, true, access).unwrap();
            if access == Access::Async {
                // Runs beside the blocked writer and finishes first.
                assert!(signals(second), "{p}");
                assert!(!readable(blocked), "{p}");
            } else {
                assert!(!r.i915.gem_wait(r.data, 20_000_000).unwrap(), "{p}");
                assert!(!readable(second), "{p}: ran before the writer it waits for");
            }
            r.data_map.write(SEM as usize, &1u32.to_le_bytes()).unwrap();
            assert!(r.i915.gem_wait(r.data, -1).unwrap(), "{p}");
            assert!(readable(blocked) && readable(second), "{p}");
            let want = if access == Access::Async { 7 } else { 9 };
            assert_eq!(r.data_map.load_u32(OUT as usize).unwrap(), want, "{p}");
            for fd in [blocked, second] {
                // SAFETY: out-fence fds are ours to close, once each.
                drop(unsafe { OwnedFd::from_raw_fd(fd) });
            }
        }
    }
}

/// Each engine of an i915 context is its own timeline: while the context's render batch waits
/// on its semaphore, a batch the same context queued on the copy engine after it runs to
/// completion (objects ASYNC, so only the engines' timelines order them).
#[test]
fn i915_engines_of_one_context_run_side_by_side() {
    for p in platforms(Kmd::I915) {
        let r = i915_rig(p);
        let ctx = r.i915.context_create(&ContextParams::default()).unwrap();
        let blocked = r
            .exec_on(I915_EXEC_RENDER, ctx, 0, None, true, Access::Async)
            .unwrap();
        let copy = r
            .exec_on(I915_EXEC_BLT, ctx, 0x1000, None, true, Access::Async)
            .unwrap();
        assert!(
            signals(copy),
            "{p}: the copy engine waited for the render engine"
        );
        assert!(!readable(blocked), "{p}");
        assert_eq!(r.data_map.load_u32(OUT as usize).unwrap(), 9, "{p}");
        r.data_map.write(SEM as usize, &1u32.to_le_bytes()).unwrap();
        assert!(r.i915.gem_wait(r.data, -1).unwrap(), "{p}");
        assert_eq!(r.data_map.load_u32(OUT as usize).unwrap(), 7, "{p}");
        for fd in [blocked, copy] {
            // SAFETY: out-fence fds are ours to close, once each.
            drop(unsafe { OwnedFd::from_raw_fd(fd) });
        }
    }
}
