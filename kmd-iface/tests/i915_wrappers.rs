//! The i915 wrappers against a recording fake device: request numbers, argument bytes,
//! pointed-to arrays and extension chains, scripted replies, EINTR/EAGAIN retry.

use crate::support;

use kmd_iface::i915::uapi::*;
use kmd_iface::i915::{ContextParams, Execbuf, MmapMode, PinnedObject, I915};
use kmd_iface::seam::Errno;
use kmd_iface::Error;
use support::{read_user, read_user_struct, write_user, FakeDevice, Reservation};
use zerocopy::IntoBytes;

fn device() -> (std::sync::Arc<FakeDevice>, I915) {
    let fake = FakeDevice::new();
    (fake.clone(), I915::new(fake))
}

#[test]
fn getparam_passes_the_param_and_reads_the_value_through_the_pointer() {
    let (fake, i915) = device();
    fake.on(|a: &mut drm_i915_getparam| {
        assert_eq!(a.param, I915_PARAM_CHIPSET_ID);
        // SAFETY: `value` is the wrapper's int for this call.
        unsafe { write_user(a.value, &0x9A49i32.to_ne_bytes()) };
        Ok(0)
    });
    assert_eq!(i915.getparam(I915_PARAM_CHIPSET_ID).unwrap(), 0x9A49);
    assert_eq!(fake.requests(), [DRM_IOCTL_I915_GETPARAM]);
}

#[test]
fn eintr_and_eagain_are_retried_with_the_same_argument() {
    let (fake, i915) = device();
    fake.fail(Errno::EINTR);
    fake.fail(Errno::EAGAIN);
    fake.on(|a: &mut drm_i915_gem_create| {
        a.handle = 7;
        a.size = 8192;
        Ok(0)
    });
    let bo = i915.gem_create(4097).unwrap();
    assert_eq!((bo.handle, bo.size), (7, 8192));
    let calls = fake.calls();
    assert_eq!(calls.len(), 3);
    assert!(calls.iter().all(|c| c.request == DRM_IOCTL_I915_GEM_CREATE));
    assert!(calls
        .iter()
        .all(|c| c.arg::<drm_i915_gem_create>().size == 4097));
}

#[test]
fn other_errnos_name_the_ioctl() {
    let (fake, i915) = device();
    fake.fail(Errno::EINVAL);
    let objects = [PinnedObject {
        handle: 1,
        gpu_address: 0x1_0000,
        write: false,
    }];
    let err = i915
        .execbuffer2(&Execbuf {
            objects: &objects,
            ..Default::default()
        })
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::Ioctl {
                op: "DRM_IOCTL_I915_GEM_EXECBUFFER2",
                errno: Errno::EINVAL,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(fake.calls().len(), 1);
}

#[test]
fn unknown_getparam_reads_as_absent_feature() {
    let (fake, i915) = device();
    fake.fail(Errno::EINVAL);
    assert!(!i915.has(I915_PARAM_HAS_USERPTR_PROBE).unwrap());
    fake.fail(Errno::ENODEV);
    assert!(i915.has(I915_PARAM_HAS_USERPTR_PROBE).is_err());
}

#[test]
fn query_sizes_then_fills() {
    let (fake, i915) = device();
    let mut blob = drm_i915_query_engine_info {
        num_engines: 1,
        ..Default::default()
    }
    .as_bytes()
    .to_vec();
    blob.extend_from_slice(
        drm_i915_engine_info {
            engine: i915_engine_class_instance {
                engine_class: I915_ENGINE_CLASS_COMPUTE,
                engine_instance: 0,
            },
            flags: I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE,
            logical_instance: 3,
            ..Default::default()
        }
        .as_bytes(),
    );
    let len = blob.len() as i32;
    fake.on(move |q: &mut drm_i915_query| {
        assert_eq!(q.num_items, 1);
        // SAFETY: items_ptr is the wrapper's single item.
        let mut item: drm_i915_query_item = unsafe { read_user_struct(q.items_ptr) };
        assert_eq!(
            (item.query_id, item.length),
            (DRM_I915_QUERY_ENGINE_INFO, 0)
        );
        item.length = len;
        // SAFETY: as above, writing the item back.
        unsafe { write_user(q.items_ptr, item.as_bytes()) };
        Ok(0)
    });
    let reply = blob.clone();
    fake.on(move |q: &mut drm_i915_query| {
        // SAFETY: items_ptr is the wrapper's single item; data_ptr its `length`-byte buffer.
        unsafe {
            let item: drm_i915_query_item = read_user_struct(q.items_ptr);
            assert_eq!(item.length as usize, reply.len());
            write_user(item.data_ptr, &reply);
        }
        Ok(0)
    });
    let engines = i915.engine_info().unwrap();
    assert_eq!(engines.len(), 1);
    assert_eq!(engines[0].class, I915_ENGINE_CLASS_COMPUTE);
    assert_eq!(engines[0].logical_instance, Some(3));
    assert_eq!(fake.requests(), [DRM_IOCTL_I915_QUERY; 2]);
}

#[test]
fn a_failed_query_item_reports_its_errno() {
    let (fake, i915) = device();
    fake.on(|q: &mut drm_i915_query| {
        // SAFETY: items_ptr is the wrapper's single item.
        let mut item: drm_i915_query_item = unsafe { read_user_struct(q.items_ptr) };
        item.length = -(Errno::ENODEV as i32);
        // SAFETY: as above.
        unsafe { write_user(q.items_ptr, item.as_bytes()) };
        Ok(0)
    });
    assert_eq!(
        i915.hwconfig().unwrap_err(),
        Error::QueryItem {
            op: "DRM_IOCTL_I915_QUERY",
            query_id: DRM_I915_QUERY_HWCONFIG_BLOB,
            errno: Errno::ENODEV
        }
    );
}

#[test]
fn gem_create_ext_chains_the_memory_regions_extension() {
    let (fake, i915) = device();
    let regions = [
        drm_i915_gem_memory_class_instance {
            memory_class: I915_MEMORY_CLASS_DEVICE,
            memory_instance: 0,
        },
        drm_i915_gem_memory_class_instance {
            memory_class: I915_MEMORY_CLASS_SYSTEM,
            memory_instance: 0,
        },
    ];
    fake.on(move |a: &mut drm_i915_gem_create_ext| {
        assert_eq!(a.size, 65536);
        assert_eq!(a.flags, I915_GEM_CREATE_EXT_FLAG_NEEDS_CPU_ACCESS);
        // SAFETY: `extensions` is the wrapper's memory-regions extension, which points to its
        // region array, both alive during the call.
        let (ext, listed) = unsafe {
            let ext: drm_i915_gem_create_ext_memory_regions = read_user_struct(a.extensions);
            let listed = read_user(ext.regions, 8);
            (ext, listed)
        };
        assert_eq!(ext.base.name, I915_GEM_CREATE_EXT_MEMORY_REGIONS);
        assert_eq!(ext.base.next_extension, 0);
        assert_eq!(ext.num_regions, 2);
        assert_eq!(listed, [1, 0, 0, 0, 0, 0, 0, 0]);
        a.handle = 3;
        Ok(0)
    });
    let bo = i915
        .gem_create_ext(
            65536,
            &regions,
            kmd_iface::flags::i915::GemCreateExtFlags::NEEDS_CPU_ACCESS,
        )
        .unwrap();
    assert_eq!(bo.handle, 3);
    assert_eq!(fake.requests(), [DRM_IOCTL_I915_GEM_CREATE_EXT]);
}

#[test]
fn gem_mmap_maps_at_the_offset_the_kernel_returned() {
    let (fake, i915) = device();
    fake.on(|a: &mut drm_i915_gem_mmap_offset| {
        assert_eq!((a.handle, a.flags), (5, I915_MMAP_OFFSET_FIXED));
        a.offset = 0x10_0000;
        Ok(0)
    });
    let m = i915.gem_mmap(5, 4096, MmapMode::Fixed).unwrap();
    assert_eq!(m.len(), 4096);
    assert_eq!(fake.mmaps(), [(0x10_0000, 4096)]);
}

#[test]
fn gem_mmap_at_maps_at_the_offset_the_kernel_returned_and_the_address_given() {
    let (fake, i915) = device();
    fake.on(|a: &mut drm_i915_gem_mmap_offset| {
        assert_eq!((a.handle, a.flags), (6, I915_MMAP_OFFSET_WB));
        a.offset = 0x20_0000;
        Ok(0)
    });
    let held = Reservation::new(8192);
    // SAFETY: `held` is this test's reservation, not touched again but to be given up.
    let m = unsafe { i915.gem_mmap_at(6, 8192, MmapMode::Wb, held.give_up()) }.unwrap();
    assert_eq!((m.as_ptr(), m.len()), (held.at, 8192));
    m.write(8188, &[1, 2, 3, 4]).unwrap();
    assert_eq!(fake.fixed_mmaps(), [(0x20_0000, 8192, held.at as usize)]);
}

#[test]
fn context_create_chains_vm_and_engine_map() {
    let (fake, i915) = device();
    fake.on(|a: &mut drm_i915_gem_context_create_ext| {
        assert_eq!(a.flags, I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS);
        // SAFETY: the chain and the engine map are the wrapper's, alive during the call.
        let (vm, eng, map) = unsafe {
            let vm: drm_i915_gem_context_create_ext_setparam = read_user_struct(a.extensions);
            let eng: drm_i915_gem_context_create_ext_setparam =
                read_user_struct(vm.base.next_extension);
            let map = read_user(eng.param.value, eng.param.size as usize);
            (vm, eng, map)
        };
        assert_eq!(vm.base.name, I915_CONTEXT_CREATE_EXT_SETPARAM);
        assert_eq!((vm.param.param, vm.param.value), (I915_CONTEXT_PARAM_VM, 4));
        assert_eq!(eng.param.param, I915_CONTEXT_PARAM_ENGINES);
        assert_eq!(eng.base.next_extension, 0);
        // 8-byte header (extensions = 0), then class 4 (compute) instance 1.
        assert_eq!(map, [0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 1, 0]);
        a.ctx_id = 9;
        Ok(0)
    });
    let ctx = i915
        .context_create(&ContextParams {
            vm_id: Some(4),
            engines: Some(vec![i915_engine_class_instance {
                engine_class: I915_ENGINE_CLASS_COMPUTE,
                engine_instance: 1,
            }]),
            single_timeline: false,
        })
        .unwrap();
    assert_eq!(ctx, 9);
}

#[test]
fn execbuffer2_softpins_every_object_and_returns_the_out_fence() {
    let (fake, i915) = device();
    let objects = [
        PinnedObject {
            handle: 10,
            gpu_address: 0x1_0000_0000,
            write: false,
        },
        PinnedObject {
            handle: 11,
            gpu_address: 0x2_0000,
            write: true,
        },
    ];
    let fences = [drm_i915_gem_exec_fence {
        handle: 77,
        flags: I915_EXEC_FENCE_SIGNAL,
    }];
    fake.on(|a: &mut drm_i915_gem_execbuffer2| {
        assert_eq!(a.buffer_count, 2);
        let want = I915_EXEC_NO_RELOC
            | I915_EXEC_HANDLE_LUT
            | I915_EXEC_BATCH_FIRST
            | I915_EXEC_FENCE_IN
            | I915_EXEC_FENCE_OUT
            | I915_EXEC_FENCE_ARRAY
            | 2;
        assert_eq!(a.flags, want);
        assert_eq!(a.rsvd1, 6, "context id");
        assert_eq!(a.rsvd2, 33, "in-fence fd in the low half");
        assert_eq!((a.batch_start_offset, a.batch_len), (64, 128));
        // SAFETY: the object and fence arrays are the wrapper's, alive during the call.
        let (objs, fence) = unsafe {
            let o0: drm_i915_gem_exec_object2 = read_user_struct(a.buffers_ptr);
            let o1: drm_i915_gem_exec_object2 = read_user_struct(a.buffers_ptr + 56);
            let f: drm_i915_gem_exec_fence = read_user_struct(a.cliprects_ptr);
            ([o0, o1], f)
        };
        assert_eq!(a.num_cliprects, 1);
        assert_eq!((fence.handle, fence.flags), (77, I915_EXEC_FENCE_SIGNAL));
        let pinned = EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS;
        assert_eq!(
            (objs[0].handle, objs[0].offset, objs[0].flags),
            (10, 0x1_0000_0000, pinned)
        );
        assert_eq!(
            (objs[1].handle, objs[1].offset, objs[1].flags),
            (11, 0x2_0000, pinned | EXEC_OBJECT_WRITE)
        );
        assert_eq!(objs[1].relocation_count, 0);
        a.rsvd2 |= 44 << 32;
        Ok(0)
    });
    let out = i915
        .execbuffer2(&Execbuf {
            objects: &objects,
            batch_start_offset: 64,
            batch_len: 128,
            ctx_id: 6,
            engine: 2,
            in_fence: Some(33),
            out_fence: true,
            fences: &fences,
            no_implicit_sync: false,
        })
        .unwrap();
    assert_eq!(out, Some(44));
    assert_eq!(fake.requests(), [DRM_IOCTL_I915_GEM_EXECBUFFER2_WR]);
}

#[test]
fn no_implicit_sync_marks_every_object_async() {
    let (fake, i915) = device();
    fake.on(|a: &mut drm_i915_gem_execbuffer2| {
        assert_eq!(a.buffer_count, 2);
        // SAFETY: the wrapper's object array, alive during the call.
        let objs: [drm_i915_gem_exec_object2; 2] = unsafe {
            [
                read_user_struct(a.buffers_ptr),
                read_user_struct(a.buffers_ptr + 56),
            ]
        };
        let flags: Vec<u64> = objs.iter().map(|o| o.flags).collect();
        let base = EXEC_OBJECT_PINNED | EXEC_OBJECT_SUPPORTS_48B_ADDRESS | EXEC_OBJECT_ASYNC;
        assert_eq!(flags, [base, base | EXEC_OBJECT_WRITE]);
        Ok(0)
    });
    let objects = [
        PinnedObject {
            handle: 1,
            gpu_address: 0x1000,
            write: false,
        },
        PinnedObject {
            handle: 2,
            gpu_address: 0x2000,
            write: true,
        },
    ];
    i915.execbuffer2(&Execbuf {
        objects: &objects,
        no_implicit_sync: true,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(fake.requests(), [DRM_IOCTL_I915_GEM_EXECBUFFER2]);
}

#[test]
fn gem_wait_timeout_is_not_an_error() {
    let (fake, i915) = device();
    fake.fail(Errno::ETIME);
    assert!(!i915.gem_wait(3, 1000).unwrap());
    fake.on(|a: &mut drm_i915_gem_wait| {
        assert_eq!((a.bo_handle, a.timeout_ns), (3, -1));
        Ok(0)
    });
    assert!(i915.gem_wait(3, -1).unwrap());
}

#[test]
fn busy_splits_readers_and_writer() {
    let (fake, i915) = device();
    fake.on(|a: &mut drm_i915_gem_busy| {
        a.busy = (1 << 16 | 1 << 20) | 1;
        Ok(0)
    });
    let b = i915.gem_busy(2).unwrap();
    assert!(b.busy);
    assert_eq!(b.reading_classes, 0x11);
    assert_eq!(b.writing_class_plus_one, 1);
}

#[test]
fn timestamp_reads_the_render_ring_timestamp_with_the_8b_workaround() {
    let (fake, i915) = device();
    fake.on(|a: &mut drm_i915_reg_read| {
        assert_eq!(a.offset, 0x2358 | 1);
        a.val = 123_456_789;
        Ok(0)
    });
    assert_eq!(i915.gpu_timestamp().unwrap(), 123_456_789);
}

#[test]
fn userptr_passes_the_mapping_address_and_rejects_ranges_outside_it() {
    let (fake, i915) = device();
    let mem = kmd_iface::seam::Mapping::new(std::sync::Arc::new(
        kmd_iface::seam::HeapBacking::zeroed(8192).unwrap(),
    ));
    let base = mem.as_ptr() as u64;
    fake.on(move |a: &mut drm_i915_gem_userptr| {
        assert_eq!((a.user_ptr, a.user_size, a.flags), (base + 4096, 4096, 0));
        a.handle = 12;
        Ok(0)
    });
    assert_eq!(i915.gem_userptr(&mem, 4096, 4096, 0).unwrap(), 12);
    assert!(matches!(
        i915.gem_userptr(&mem, 4096, 8192, 0),
        Err(Error::Map(_))
    ));
    assert_eq!(fake.calls().len(), 1);
}

#[test]
fn vm_context_param_and_reset_stats_round_trip() {
    let (fake, i915) = device();
    fake.on(|a: &mut drm_i915_gem_vm_control| {
        a.vm_id = 2;
        Ok(0)
    });
    fake.on(|a: &mut drm_i915_gem_context_param| {
        assert_eq!(
            (a.ctx_id, a.param, a.value),
            (5, I915_CONTEXT_PARAM_RECOVERABLE, 0)
        );
        Ok(0)
    });
    fake.on(|a: &mut drm_i915_gem_context_param| {
        a.value = 0x1_0000_0000_0000;
        Ok(0)
    });
    fake.on(|a: &mut drm_i915_reset_stats| {
        a.batch_active = 1;
        Ok(0)
    });
    fake.on(|a: &mut drm_i915_gem_vm_control| {
        assert_eq!(a.vm_id, 2);
        Ok(0)
    });
    assert_eq!(i915.vm_create().unwrap(), 2);
    i915.context_setparam(5, I915_CONTEXT_PARAM_RECOVERABLE, 0)
        .unwrap();
    assert_eq!(i915.context_getparam(5, 3).unwrap(), 0x1_0000_0000_0000);
    assert_eq!(i915.reset_stats(5).unwrap().batch_active, 1);
    i915.vm_destroy(2).unwrap();
    assert_eq!(
        fake.requests(),
        [
            DRM_IOCTL_I915_GEM_VM_CREATE,
            DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM,
            DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM,
            DRM_IOCTL_I915_GET_RESET_STATS,
            DRM_IOCTL_I915_GEM_VM_DESTROY
        ]
    );
}

#[test]
fn params_reads_each_getparam_and_treats_unknown_features_as_absent() {
    let (fake, i915) = device();
    let answers: [(i32, Result<i32, Errno>); 9] = [
        (I915_PARAM_CHIPSET_ID, Ok(0x9A49)),
        (I915_PARAM_REVISION, Ok(1)),
        (I915_PARAM_EU_TOTAL, Ok(96)),
        (I915_PARAM_SUBSLICE_TOTAL, Ok(6)),
        (I915_PARAM_CS_TIMESTAMP_FREQUENCY, Ok(19_200_000)),
        (I915_PARAM_HAS_EXEC_SOFTPIN, Ok(1)),
        (I915_PARAM_HAS_EXEC_FENCE_ARRAY, Ok(1)),
        (I915_PARAM_HAS_EXEC_TIMELINE_FENCES, Ok(0)),
        (I915_PARAM_HAS_USERPTR_PROBE, Err(Errno::EINVAL)),
    ];
    for (param, answer) in answers {
        fake.on(move |a: &mut drm_i915_getparam| {
            assert_eq!(a.param, param);
            let v = answer?;
            // SAFETY: `value` is the wrapper's int for this call.
            unsafe { write_user(a.value, &v.to_ne_bytes()) };
            Ok(0)
        });
    }
    let p = i915.params().unwrap();
    assert_eq!(
        (p.chipset_id, p.revision, p.eu_total, p.subslice_total),
        (0x9A49, 1, 96, 6)
    );
    assert_eq!(p.cs_timestamp_frequency, 19_200_000);
    assert!(p.has_exec_softpin && p.has_exec_fence_array);
    assert!(!p.has_exec_timeline_fences && !p.has_userptr_probe);
    assert!(fake.script_is_done());
}
