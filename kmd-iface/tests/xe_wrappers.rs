//! The xe and core-DRM wrappers against a recording fake device.

use crate::support;

use kmd_iface::flags::drm::SyncobjWaitFlags;
use std::os::fd::{AsFd, AsRawFd, IntoRawFd, OwnedFd};

use kmd_iface::drm_core::{self, uapi::*, SyncobjWait};
use kmd_iface::seam::Errno;
use kmd_iface::xe::uapi::*;
use kmd_iface::xe::{bind_op, sync, GemCreate, UserFenceWait, Xe};
use kmd_iface::Error;
use support::{read_user, read_user_struct, write_user, FakeDevice, Reservation};
use zerocopy::IntoBytes;

fn device() -> (std::sync::Arc<FakeDevice>, Xe) {
    let fake = FakeDevice::new();
    (fake.clone(), Xe::new(fake))
}

/// Scripts the two DEVICE_QUERY calls answering `query` with `reply`.
fn script_query(fake: &FakeDevice, query: u32, reply: Vec<u8>) {
    let len = reply.len() as u32;
    fake.on(move |a: &mut drm_xe_device_query| {
        assert_eq!((a.query, a.size, a.data), (query, 0, 0));
        a.size = len;
        Ok(0)
    });
    fake.on(move |a: &mut drm_xe_device_query| {
        assert_eq!((a.query, a.size), (query, reply.len() as u32));
        // SAFETY: `data` is the wrapper's `size`-byte buffer.
        unsafe { write_user(a.data, &reply) };
        Ok(0)
    });
}

#[test]
fn config_query_uses_the_two_call_protocol() {
    let (fake, xe) = device();
    let mut blob = drm_xe_query_config {
        num_params: 5,
        ..Default::default()
    }
    .as_bytes()
    .to_vec();
    for v in [0x0a_56a0u64, 1, 0x10000, 48, 2] {
        blob.extend_from_slice(&v.to_ne_bytes());
    }
    script_query(&fake, DRM_XE_DEVICE_QUERY_CONFIG, blob);
    let c = xe.config().unwrap();
    assert_eq!(c.device_id(), Some(0x56a0));
    assert_eq!(c.revision(), Some(0x0a));
    assert_eq!(c.has_vram(), Some(true));
    assert_eq!(c.va_bits(), Some(48));
    assert_eq!(fake.requests(), [DRM_IOCTL_XE_DEVICE_QUERY; 2]);
}

#[test]
fn engine_cycles_sends_its_inputs_in_the_buffer() {
    let (fake, xe) = device();
    let size = size_of::<drm_xe_query_engine_cycles>() as u32;
    fake.on(move |a: &mut drm_xe_device_query| {
        a.size = size;
        Ok(0)
    });
    fake.on(|a: &mut drm_xe_device_query| {
        // SAFETY: `data` is the wrapper's buffer of `size` bytes.
        let mut c: drm_xe_query_engine_cycles = unsafe { read_user_struct(a.data) };
        assert_eq!(c.eci.engine_class, DRM_XE_ENGINE_CLASS_COMPUTE);
        assert_eq!(c.clockid, 1);
        c.engine_cycles = 1000;
        c.width = 36;
        // SAFETY: as above.
        unsafe { write_user(a.data, c.as_bytes()) };
        Ok(0)
    });
    let eci = drm_xe_engine_class_instance {
        engine_class: DRM_XE_ENGINE_CLASS_COMPUTE,
        ..Default::default()
    };
    let c = xe.engine_cycles(eci, 1).unwrap();
    assert_eq!((c.engine_cycles, c.width), (1000, 36));
}

#[test]
fn gem_create_and_mmap() {
    let (fake, xe) = device();
    fake.on(|a: &mut drm_xe_gem_create| {
        assert_eq!(
            (a.size, a.placement, a.cpu_caching),
            (1 << 20, 0b10, DRM_XE_GEM_CPU_CACHING_WC)
        );
        a.handle = 4;
        Ok(0)
    });
    fake.on(|a: &mut drm_xe_gem_mmap_offset| {
        assert_eq!(a.handle, 4);
        a.offset = 0x2000_0000;
        Ok(0)
    });
    let h = xe
        .gem_create(&GemCreate {
            size: 1 << 20,
            placement: 0b10,
            flags: kmd_iface::flags::xe::GemCreateFlags::empty(),
            vm_id: 0,
            cpu_caching: DRM_XE_GEM_CPU_CACHING_WC,
        })
        .unwrap();
    let m = xe.gem_mmap(h, 1 << 20).unwrap();
    assert_eq!(m.len(), 1 << 20);
    assert_eq!(fake.mmaps(), [(0x2000_0000, 1 << 20)]);
}

#[test]
fn gem_mmap_at_maps_at_the_offset_the_kernel_returned_and_the_address_given() {
    let (fake, xe) = device();
    fake.on(|a: &mut drm_xe_gem_mmap_offset| {
        assert_eq!(a.handle, 9);
        a.offset = 0x3000_0000;
        Ok(0)
    });
    let held = Reservation::new(4096);
    // SAFETY: `held` is this test's reservation, not touched again but to be given up.
    let m = unsafe { xe.gem_mmap_at(9, 4096, held.give_up()) }.unwrap();
    assert_eq!((m.as_ptr(), m.len()), (held.at, 4096));
    assert_eq!(m.load_u32(0), Ok(0));
    assert_eq!(fake.fixed_mmaps(), [(0x3000_0000, 4096, held.at as usize)]);
}

#[test]
fn vm_bind_puts_one_op_inline_and_several_in_a_vector() {
    let (fake, xe) = device();
    let fence = sync::syncobj(8, true);
    fake.on(move |a: &mut drm_xe_vm_bind| {
        assert_eq!((a.vm_id, a.num_binds, a.num_syncs), (1, 1, 1));
        assert_eq!(a.bind.op, DRM_XE_VM_BIND_OP_MAP);
        assert_eq!(
            (a.bind.obj, a.bind.addr, a.bind.range, a.bind.pat_index),
            (3, 0x10_0000, 4096, 2)
        );
        // SAFETY: `syncs` is the wrapper's one-entry array.
        let s: drm_xe_sync = unsafe { read_user_struct(a.syncs) };
        assert_eq!(
            (s.r#type, s.flags, s.handle()),
            (DRM_XE_SYNC_TYPE_SYNCOBJ, DRM_XE_SYNC_FLAG_SIGNAL, 8)
        );
        Ok(0)
    });
    xe.vm_bind(1, 0, &[bind_op::map(3, 0, 0x10_0000, 4096, 2)], &[fence])
        .unwrap();

    let ops = [
        bind_op::unmap(0x10_0000, 4096),
        bind_op::map_userptr(0x7f00_0000_0000, 0x20_0000, 8192, 0),
    ];
    fake.on(|a: &mut drm_xe_vm_bind| {
        assert_eq!(a.num_binds, 2);
        // SAFETY: `vector_of_binds` is the wrapper's two-entry op array.
        let second: drm_xe_vm_bind_op = unsafe {
            read_user_struct(a.vector_of_binds() + size_of::<drm_xe_vm_bind_op>() as u64)
        };
        assert_eq!(second.op, DRM_XE_VM_BIND_OP_MAP_USERPTR);
        assert_eq!(second.obj_offset, 0x7f00_0000_0000);
        Ok(0)
    });
    xe.vm_bind(1, 0, &ops, &[]).unwrap();
    assert_eq!(
        xe.vm_bind(1, 0, &[], &[]),
        Err(Error::Empty { what: "bind ops" })
    );
    assert_eq!(fake.requests(), [DRM_IOCTL_XE_VM_BIND; 2]);
}

#[test]
fn exec_queue_create_chains_set_property_extensions() {
    let (fake, xe) = device();
    let placements = [drm_xe_engine_class_instance {
        engine_class: DRM_XE_ENGINE_CLASS_COMPUTE,
        engine_instance: 0,
        gt_id: 0,
        pad: 0,
    }];
    fake.on(|a: &mut drm_xe_exec_queue_create| {
        assert_eq!((a.width, a.num_placements, a.vm_id), (1, 1, 2));
        // SAFETY: the extension chain and the placement array are the wrapper's.
        let (p0, p1, inst) = unsafe {
            let p0: drm_xe_ext_set_property = read_user_struct(a.extensions);
            let p1: drm_xe_ext_set_property = read_user_struct(p0.base.next_extension);
            (p0, p1, read_user(a.instances, 8))
        };
        assert_eq!(p0.base.name, DRM_XE_EXEC_QUEUE_EXTENSION_SET_PROPERTY);
        assert_eq!(
            (p0.property, p0.value),
            (DRM_XE_EXEC_QUEUE_SET_PROPERTY_PRIORITY, 1)
        );
        assert_eq!(
            (p1.property, p1.value),
            (DRM_XE_EXEC_QUEUE_SET_PROPERTY_TIMESLICE, 500)
        );
        assert_eq!(p1.base.next_extension, 0);
        assert_eq!(inst, [4, 0, 0, 0, 0, 0, 0, 0]);
        a.exec_queue_id = 11;
        Ok(0)
    });
    let q = xe
        .exec_queue_create(
            2,
            &placements,
            &[
                (DRM_XE_EXEC_QUEUE_SET_PROPERTY_PRIORITY, 1),
                (DRM_XE_EXEC_QUEUE_SET_PROPERTY_TIMESLICE, 500),
            ],
        )
        .unwrap();
    assert_eq!(q, 11);
    fake.on(|a: &mut drm_xe_exec_queue_get_property| {
        assert_eq!(
            (a.exec_queue_id, a.property),
            (11, DRM_XE_EXEC_QUEUE_GET_PROPERTY_BAN)
        );
        a.value = 1;
        Ok(0)
    });
    assert_eq!(
        xe.exec_queue_get_property(11, DRM_XE_EXEC_QUEUE_GET_PROPERTY_BAN)
            .unwrap(),
        1
    );
}

#[test]
fn exec_passes_batch_address_and_user_fence() {
    let (fake, xe) = device();
    let syncs = [sync::user_fence(0x40_0000, 0xfeed)];
    fake.on(|a: &mut drm_xe_exec| {
        assert_eq!(
            (a.exec_queue_id, a.address, a.num_batch_buffer, a.num_syncs),
            (11, 0x1_0000, 1, 1)
        );
        // SAFETY: `syncs` is the wrapper's one-entry array.
        let s: drm_xe_sync = unsafe { read_user_struct(a.syncs) };
        assert_eq!(
            (s.r#type, s.addr, s.timeline_value),
            (DRM_XE_SYNC_TYPE_USER_FENCE, 0x40_0000, 0xfeed)
        );
        Ok(0)
    });
    xe.exec(11, 0x1_0000, &syncs).unwrap();
}

#[test]
fn wait_user_fence_reports_timeout_and_errors() {
    let (fake, xe) = device();
    let w = UserFenceWait {
        addr: 0x40_0000,
        op: DRM_XE_UFENCE_WAIT_OP_EQ,
        value: 0xfeed,
        mask: u64::MAX,
        timeout: 1_000_000,
        abstime: false,
        exec_queue_id: 11,
    };
    fake.fail(Errno::EINTR);
    fake.fail(Errno::ETIME);
    assert!(!xe.wait_user_fence(&w).unwrap());
    fake.on(|a: &mut drm_xe_wait_user_fence| {
        assert_eq!(
            (a.addr, a.op, a.value, a.mask, a.flags),
            (0x40_0000, 0, 0xfeed, u64::MAX, 0)
        );
        Ok(0)
    });
    assert!(xe.wait_user_fence(&w).unwrap());
    fake.fail(Errno::EIO);
    assert!(matches!(
        xe.wait_user_fence(&w),
        Err(Error::Ioctl {
            op: "DRM_IOCTL_XE_WAIT_USER_FENCE",
            errno: Errno::EIO,
            ..
        })
    ));
}

#[test]
fn version_asks_lengths_then_strings() {
    let fake = FakeDevice::new();
    fake.on(|v: &mut drm_version| {
        assert_eq!((v.name_len, v.name), (0, 0));
        v.name_len = 2;
        v.date_len = 8;
        v.desc_len = 0;
        Ok(0)
    });
    fake.on(|v: &mut drm_version| {
        // SAFETY: name/date are the wrapper's buffers of name_len/date_len bytes.
        unsafe {
            write_user(v.name, b"xe");
            write_user(v.date, b"20201111");
        }
        v.version_major = 1;
        Ok(0)
    });
    let v = drm_core::version(&*fake).unwrap();
    assert_eq!(
        (v.name.as_str(), v.date.as_str(), v.major),
        ("xe", "20201111", 1)
    );
    assert_eq!(fake.requests(), [DRM_IOCTL_VERSION; 2]);
}

#[test]
fn absurd_version_lengths_are_refused_before_allocating() {
    let fake = FakeDevice::new();
    fake.on(|v: &mut drm_version| {
        v.name_len = u64::MAX;
        Ok(0)
    });
    assert!(matches!(
        drm_core::version(&*fake),
        Err(Error::TooLarge {
            what: "driver name",
            ..
        })
    ));
}

#[test]
fn syncobj_calls() {
    let fake = FakeDevice::new();
    fake.on(|a: &mut drm_syncobj_create| {
        assert_eq!(a.flags, DRM_SYNCOBJ_CREATE_SIGNALED);
        a.handle = 5;
        Ok(0)
    });
    fake.on(|a: &mut drm_syncobj_wait| {
        assert_eq!(
            (a.count_handles, a.flags),
            (2, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL)
        );
        // SAFETY: `handles` is the wrapper's 2-entry array.
        assert_eq!(unsafe { read_user(a.handles, 8) }, [5, 0, 0, 0, 6, 0, 0, 0]);
        a.first_signaled = 1;
        Ok(0)
    });
    fake.fail(Errno::ETIME);
    fake.on(|a: &mut drm_syncobj_array| {
        assert_eq!(a.count_handles, 1);
        Ok(0)
    });
    fake.on(|a: &mut drm_syncobj_destroy| {
        assert_eq!(a.handle, 5);
        Ok(0)
    });
    assert_eq!(
        drm_core::syncobj_create(&*fake, DRM_SYNCOBJ_CREATE_SIGNALED).unwrap(),
        5
    );
    assert_eq!(
        drm_core::syncobj_wait(&*fake, &[5, 6], 0, SyncobjWaitFlags::WAIT_ALL).unwrap(),
        SyncobjWait::Signaled { first_signaled: 1 }
    );
    assert_eq!(
        drm_core::syncobj_wait(&*fake, &[5], 0, SyncobjWaitFlags::empty()).unwrap(),
        SyncobjWait::TimedOut
    );
    drm_core::syncobj_signal(&*fake, &[5]).unwrap();
    drm_core::syncobj_destroy(&*fake, 5).unwrap();
    assert_eq!(
        fake.requests(),
        [
            DRM_IOCTL_SYNCOBJ_CREATE,
            DRM_IOCTL_SYNCOBJ_WAIT,
            DRM_IOCTL_SYNCOBJ_WAIT,
            DRM_IOCTL_SYNCOBJ_SIGNAL,
            DRM_IOCTL_SYNCOBJ_DESTROY
        ]
    );
}

#[test]
fn gem_close_and_prime() {
    let fake = FakeDevice::new();
    fake.on(|a: &mut drm_gem_close| {
        assert_eq!(a.handle, 3);
        Ok(0)
    });
    // The exported descriptor is a real one the wrapper then owns (and closes).
    let exported = new_fd();
    let raw = exported.as_raw_fd();
    let mut exported = Some(exported);
    fake.on(move |a: &mut drm_prime_handle| {
        assert_eq!((a.handle, a.flags), (3, DRM_CLOEXEC | DRM_RDWR));
        a.fd = exported.take().map_or(-1, IntoRawFd::into_raw_fd);
        Ok(0)
    });
    fake.fail(Errno::EBADF);
    drm_core::gem_close(&*fake, 3).unwrap();
    let fd = drm_core::prime_handle_to_fd(&*fake, 3, DRM_CLOEXEC | DRM_RDWR).unwrap();
    assert_eq!(fd.as_raw_fd(), raw);
    let err = drm_core::prime_fd_to_handle(&*fake, fd.as_fd()).unwrap_err();
    assert_eq!(
        err,
        Error::Ioctl {
            op: "DRM_IOCTL_PRIME_FD_TO_HANDLE",
            errno: Errno::EBADF,
            context: format!("fd {raw}")
        }
    );
    assert_eq!(
        err.to_string(),
        format!("DRM_IOCTL_PRIME_FD_TO_HANDLE failed: EBADF: Bad file number (fd {raw})")
    );
    // Success with no descriptor is a malformed reply, not an fd to own.
    fake.on(|a: &mut drm_prime_handle| {
        a.fd = -1;
        Ok(0)
    });
    assert!(matches!(
        drm_core::prime_handle_to_fd(&*fake, 3, DRM_CLOEXEC),
        Err(Error::Malformed { .. })
    ));
}

/// A descriptor of this process nothing else owns.
fn new_fd() -> OwnedFd {
    std::fs::File::open("/dev/null").unwrap().into()
}

#[test]
fn timeline_syncobj_calls_pass_handles_and_points() {
    let fake = FakeDevice::new();
    let synced = new_fd();
    let synced_raw = synced.as_raw_fd();
    let mut synced = Some(synced);
    fake.on(|a: &mut drm_syncobj_timeline_array| {
        assert_eq!(a.count_handles, 2);
        // SAFETY: handles/points are the wrapper's 2-entry arrays.
        let (h, p) = unsafe { (read_user(a.handles, 8), read_user(a.points, 16)) };
        assert_eq!(h, [1, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(p[..8], 10u64.to_ne_bytes());
        assert_eq!(p[8..], 20u64.to_ne_bytes());
        Ok(0)
    });
    fake.on(|a: &mut drm_syncobj_timeline_array| {
        // SAFETY: `points` is the wrapper's 1-entry output array.
        unsafe { write_user(a.points, &42u64.to_ne_bytes()) };
        Ok(0)
    });
    fake.on(move |a: &mut drm_syncobj_handle| {
        assert_eq!(
            (a.handle, a.flags),
            (1, DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE)
        );
        a.fd = synced.take().map_or(-1, IntoRawFd::into_raw_fd);
        Ok(0)
    });
    drm_core::syncobj_timeline_signal(&*fake, &[1, 2], &[10, 20]).unwrap();
    assert_eq!(drm_core::syncobj_query(&*fake, &[1]).unwrap(), [42]);
    assert_eq!(
        drm_core::syncobj_handle_to_fd(&*fake, 1, DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE)
            .unwrap()
            .as_raw_fd(),
        synced_raw
    );
    assert_eq!(
        drm_core::syncobj_timeline_signal(&*fake, &[1, 2], &[10]),
        Err(Error::Mismatch {
            what: "timeline points per syncobj handle",
            expected: 2,
            got: 1
        })
    );
    assert_eq!(
        fake.requests(),
        [
            DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
            DRM_IOCTL_SYNCOBJ_QUERY,
            DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD
        ]
    );
}
