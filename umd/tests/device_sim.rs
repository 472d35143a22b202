//! Devices, buffers, images and the block-IO alignment rules on the simulator, through i915 and
//! xe; the GPU-fault and hang paths with command-streamer-level faults.

use std::sync::Arc;

use batchbuffer::{
    AddressSpaceIndicator, MiBatchBufferEnd, MiBatchBufferStart, MiStoreDataImm, Packet,
    SecondLevelBatchBuffer,
};
use kmd_iface::seam::{HeapBacking, Mapping};
use platform::Platform;
use umd::blockio::{BlockAccess, Rule};
use umd::device::{Caching, Device, DeviceSpec, KmdChoice, SUB_GROUP_SIZES};
use umd::image::{Image, ImageFormat};
use umd::Error;

/// Every simulated (platform, uAPI) pair: i915 everywhere, xe from Gen12LP.
fn combos() -> Vec<(Platform, KmdChoice)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| umd::device::sim_kmds(p).into_iter().map(move |k| (p, k)))
        .collect()
}

fn rule_of(e: Error) -> Rule {
    match e {
        Error::Alignment { rule, .. } => rule,
        other => panic!("expected an alignment error, got {other}"),
    }
}

#[test]
fn simulator_offers_i915_everywhere_and_xe_from_gen12lp() {
    let c = combos();
    assert_eq!(c.len(), 6);
    for p in [Platform::Skl, Platform::Icllp] {
        assert!(!c.contains(&(p, KmdChoice::Xe)));
        let e = Device::open_sim(p, Some(KmdChoice::Xe)).unwrap_err();
        assert!(matches!(e, Error::Sim(_)), "{e}");
    }
}

#[test]
fn devices_report_platform_eus_and_subgroup_sizes() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let info = d.info();
        assert_eq!((info.platform, info.kmd), (p, k));
        let sim_info = sim::device_info::DeviceInfo::get(p);
        assert_eq!(info.eu_count, sim_info.topology.eu_total(), "{p} {k:?}");
        // cl_intel_subgroups: CL_DEVICE_SUB_GROUP_SIZES_INTEL lists 8, 16 and 32 here.
        assert_eq!(info.sub_group_sizes(), &[8, 16, 32]);
        assert_eq!(SUB_GROUP_SIZES, [8, 16, 32]);
        assert_eq!(info.name, format!("sim:{}", p.name()));
    }
}

#[test]
fn device_names_parse() {
    assert_eq!("auto".parse::<DeviceSpec>().unwrap(), DeviceSpec::Auto);
    assert_eq!(
        "sim:dg2".parse::<DeviceSpec>().unwrap(),
        DeviceSpec::Sim(Platform::Dg2)
    );
    assert_eq!(
        "sim:12p1".parse::<DeviceSpec>().unwrap(),
        DeviceSpec::Sim(Platform::Tgllp)
    );
    assert!(matches!(
        "/dev/dri/renderD128".parse::<DeviceSpec>().unwrap(),
        DeviceSpec::Node(_)
    ));
    for bad in ["sim:gen7", "gpu0", ""] {
        assert!(matches!(
            bad.parse::<DeviceSpec>(),
            Err(Error::BadDeviceName(_))
        ));
    }
}

/// With no Intel render node, `auto` is the simulator of the kernel's platform, else tgllp.
#[test]
fn auto_falls_back_to_the_simulator() {
    let hw = kmd_iface::discovery::discover()
        .map(|d| d.found.iter().any(|f| f.pci.is_some()))
        .unwrap_or(false);
    if hw {
        eprintln!("SKIP auto_falls_back_to_the_simulator: an Intel GPU is present");
        return;
    }
    let d = Device::open(&DeviceSpec::Auto, None, Some(Platform::Skl)).unwrap();
    assert_eq!(d.info().name, "sim:skl");
    let d = Device::open(&DeviceSpec::Auto, None, None).unwrap();
    assert_eq!(d.info().name, "sim:tgllp");
}

#[test]
fn buffers_are_softpinned_disjoint_and_mapped_by_placement() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let a = d.create_buffer(100).unwrap();
        let b = d.create_buffer(5000).unwrap();
        assert!(a.gpu_address() >= umd::device::VaHeap::new(4096).align());
        assert!(
            a.gpu_address() + 100 <= b.gpu_address() || b.gpu_address() + 5000 <= a.gpu_address()
        );
        let want = if sim::device_info::DeviceInfo::get(p).has_local_memory {
            Caching::Wc
        } else {
            Caching::Wb
        };
        assert_eq!(a.caching(), want, "{p} {k:?}");
        b.write(4990, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).unwrap();
        let mut r = [0u8; 10];
        b.read(4990, &mut r).unwrap();
        assert_eq!(r, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        assert!(matches!(b.write(4991, &[0; 10]), Err(Error::OutOfRange(_))));
        // Sub-buffers alias their parent's memory.
        let s = b.sub_buffer(4992, 8, None).unwrap();
        assert_eq!(s.gpu_address(), b.gpu_address() + 4992);
        let mut r = [0u8; 2];
        s.read(0, &mut r).unwrap();
        assert_eq!(r, [3, 4]);
        assert!(b.sub_buffer(4992, 9, None).is_err());
    }
}

/// Host memory wrapped as a buffer (i915 GEM_USERPTR, xe MAP_USERPTR): the buffer and the
/// caller's pages are the same memory both ways, and dropping the buffer returns its VA range.
#[test]
fn host_memory_buffers_share_the_callers_pages() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        // Not a page multiple: refused before any ioctl, with the reason.
        let odd = Mapping::new(Arc::new(HeapBacking::zeroed(4096 + 1).unwrap()));
        assert!(matches!(
            d.create_buffer_from_host(odd),
            Err(Error::OutOfRange(_))
        ));
        let len = 64 << 10;
        let host = Mapping::new(Arc::new(HeapBacking::zeroed(len).unwrap()));
        let b = d
            .create_buffer_from_host(host.clone())
            .unwrap_or_else(|e| panic!("{p} {k:?}: {e}"));
        assert!(b.is_host_memory());
        host.write(123, &[42]).unwrap();
        let mut r = [0u8];
        b.read(123, &mut r).unwrap();
        assert_eq!(r, [42], "{p} {k:?}");
        b.write(4000, &[7]).unwrap();
        host.read(4000, &mut r).unwrap();
        assert_eq!(r, [7], "{p} {k:?}");
        drop(b);
        // The VA range was returned: a normal buffer gets the first address again.
        let n = d.create_buffer(len as u64).unwrap();
        assert_eq!(
            n.gpu_address(),
            umd::device::VaHeap::new(4096).alloc(1).unwrap().0
        );
    }
}

// One test per cl_intel_subgroups alignment rule.

#[test]
fn rule_block_read_pointer_is_4_byte_aligned() {
    let d = Device::open_sim(Platform::Tgllp, None).unwrap();
    let b = d.create_buffer(256).unwrap();
    assert_eq!(
        b.block_pointer(4, BlockAccess::Read).unwrap(),
        b.gpu_address() + 4
    );
    let e = b.block_pointer(2, BlockAccess::Read).unwrap_err();
    assert!(
        e.to_string()
            .contains("block reads need a 4-byte aligned pointer"),
        "{e}"
    );
    assert_eq!(rule_of(e), Rule::BlockReadPointer);
}

#[test]
fn rule_block_write_pointer_is_16_byte_aligned() {
    let d = Device::open_sim(Platform::Tgllp, None).unwrap();
    let b = d.create_buffer(256).unwrap();
    b.block_pointer(32, BlockAccess::Write).unwrap();
    // 4-byte alignment is enough to read but not to write.
    b.block_pointer(4, BlockAccess::Read).unwrap();
    let e = b.block_pointer(4, BlockAccess::Write).unwrap_err();
    assert!(e.to_string().contains("16-byte"), "{e}");
    assert_eq!(rule_of(e), Rule::BlockWritePointer);
}

#[test]
fn rule_sub_buffer_read_origin_is_a_multiple_of_4() {
    let d = Device::open_sim(Platform::Skl, None).unwrap();
    let b = d.create_buffer(256).unwrap();
    b.sub_buffer(8, 16, Some(BlockAccess::Read)).unwrap();
    let e = b.sub_buffer(6, 16, Some(BlockAccess::Read)).unwrap_err();
    assert_eq!(rule_of(e), Rule::SubBufferReadOrigin);
    // Without block IO the origin is free.
    b.sub_buffer(6, 16, None).unwrap();
}

#[test]
fn rule_sub_buffer_write_origin_is_a_multiple_of_16() {
    let d = Device::open_sim(Platform::Dg2, Some(KmdChoice::Xe)).unwrap();
    let b = d.create_buffer(256).unwrap();
    b.sub_buffer(48, 16, Some(BlockAccess::Write)).unwrap();
    let e = b.sub_buffer(8, 16, Some(BlockAccess::Write)).unwrap_err();
    assert!(e.to_string().contains("multiple of 16 bytes"), "{e}");
    assert_eq!(rule_of(e), Rule::SubBufferWriteOrigin);
}

#[test]
fn rule_image_from_buffer_pitch_is_a_multiple_of_64() {
    let d = Device::open_sim(Platform::Icllp, None).unwrap();
    let b = d.create_buffer(96 * 8).unwrap();
    Image::from_buffer(&b, 16, 8, ImageFormat::R32ui, 64, true).unwrap();
    let e = Image::from_buffer(&b, 16, 8, ImageFormat::R32ui, 96, true).unwrap_err();
    assert_eq!(rule_of(e), Rule::ImageFromBufferPitch);
    // Without block IO, any pitch that holds a row is fine.
    Image::from_buffer(&b, 16, 8, ImageFormat::R32ui, 96, false).unwrap();
}

#[test]
fn rule_image_from_buffer_base_is_32_byte_aligned() {
    let d = Device::open_sim(Platform::Tgllp, Some(KmdChoice::Xe)).unwrap();
    let b = d.create_buffer(4096).unwrap();
    let aligned = b.sub_buffer(32, 1024, None).unwrap();
    Image::from_buffer(&aligned, 16, 8, ImageFormat::R8ui, 64, true).unwrap();
    let off = b.sub_buffer(16, 1024, None).unwrap();
    let e = Image::from_buffer(&off, 16, 8, ImageFormat::R8ui, 64, true).unwrap_err();
    assert!(e.to_string().contains("32-byte aligned base"), "{e}");
    assert_eq!(rule_of(e), Rule::ImageFromBufferBase);
}

#[test]
fn rule_image_block_io_elements_are_at_most_4_bytes() {
    let d = Device::open_sim(Platform::Tgllp, None).unwrap();
    for f in ImageFormat::all() {
        let img = d.create_image(4, 4, f).unwrap();
        let r = img.check_block_io();
        if f.desc().bytes_per_element <= 4 {
            r.unwrap();
        } else {
            assert_eq!(
                rule_of(r.unwrap_err()),
                Rule::ImageBlockElementSize,
                "{f:?}"
            );
        }
    }
    let b = d.create_buffer(4096).unwrap();
    let e = Image::from_buffer(&b, 4, 4, ImageFormat::Rgba32ui, 64, true).unwrap_err();
    assert_eq!(rule_of(e), Rule::ImageBlockElementSize);
}

#[test]
fn images_hold_packed_rows_at_their_pitch() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let img = d.create_image(5, 3, ImageFormat::R16ui).unwrap();
        assert_eq!(img.pitch % 64, 0);
        let rows: Vec<u8> = (0..30).collect();
        img.write_packed(&rows).unwrap();
        assert_eq!(img.read_packed().unwrap(), rows);
        let mut second = [0u8; 10];
        img.buffer().read(img.pitch as u64, &mut second).unwrap();
        assert_eq!(second.to_vec(), (10..20).collect::<Vec<u8>>());
        assert!(img.write_packed(&rows[1..]).is_err());
        // The surface state says what the image is (genxml field meanings: sizes minus one).
        let s = img.surface_state(p).unwrap();
        assert_eq!((s.width, s.height, s.surface_pitch), (4, 2, img.pitch - 1));
        assert_eq!(s.surface_format, 269, "R16_UINT");
        assert_eq!(s.surface_base_address, img.buffer().gpu_address());
    }
}

fn pack(p: Platform, out: &mut Vec<u8>, pk: &impl Packet) {
    let mut buf = [0u32; 16];
    let n = pk.pack(p, &mut buf).unwrap();
    out.extend(buf[..n].iter().flat_map(|d| d.to_le_bytes()));
}

fn store(p: Platform, addr: u64, value: u64) -> Vec<u8> {
    let mut v = Vec::new();
    pack(
        p,
        &mut v,
        &MiStoreDataImm {
            address: addr,
            immediate_data: value,
            store_qword: 1,
            ..Default::default()
        },
    );
    v
}

/// A store to `addr` then the completion store to the fence.
fn store_then_fence(p: Platform, addr: u64, fence: u64) -> Vec<u8> {
    let mut v = store(p, addr, 1);
    v.extend(store(p, fence, 0xf00d));
    pack(p, &mut v, &MiBatchBufferEnd::default());
    v
}

const FENCE_AT: usize = 0x1000;

/// On xe (umd's VMs have no scratch page) a store to an unbound address is a page fault. On
/// i915 it is no error: the PPGTT's unused entries reach a scratch page (`gen8_init_scratch`,
/// `sim/tests/i915_exec.rs` checks what lands there), so the submission completes.
#[test]
fn gpu_fault_names_the_address_and_the_device_stays_usable() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let bad = 0x7ead_0000u64;
        if k == KmdChoice::I915 {
            d.submit_raw(
                |base| store_then_fence(p, bad, base + FENCE_AT as u64),
                FENCE_AT,
                0xf00d,
            )
            .unwrap_or_else(|e| panic!("{p} {k:?}: {e}"));
            continue;
        }
        let e = d
            .submit_raw(
                |base| store_then_fence(p, bad, base + FENCE_AT as u64),
                FENCE_AT,
                0xf00d,
            )
            .unwrap_err();
        match &e {
            Error::GpuFault { address, .. } => assert_eq!(*address, bad, "{p} {k:?}"),
            other => panic!("{p} {k:?}: {other}"),
        }
        assert!(e.to_string().contains("0x7ead0000"), "{e}");
        // The command streamer's own store: no instruction to name.
        assert_eq!(e.instruction(), None, "{e}");
        // The banned context was replaced: the next submission runs.
        d.submit_raw(
            |base| store_then_fence(p, base + 0x800, base + FENCE_AT as u64),
            FENCE_AT,
            0xf00d,
        )
        .unwrap_or_else(|e| panic!("{p} {k:?}: {e}"));
    }
}

#[test]
fn gpu_hang_is_an_error_and_the_device_stays_usable() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let e = d
            .submit_raw(
                |base| {
                    let mut v = Vec::new();
                    pack(
                        p,
                        &mut v,
                        &MiBatchBufferStart {
                            address_space_indicator: AddressSpaceIndicator::Ppgtt,
                            second_level_batch_buffer: SecondLevelBatchBuffer::FirstLevelBatch,
                            batch_buffer_start_address: base,
                            ..Default::default()
                        },
                    );
                    v
                },
                FENCE_AT,
                0xf00d,
            )
            .unwrap_err();
        assert!(matches!(e, Error::GpuHang { .. }), "{p} {k:?}: {e}");
        assert!(e.to_string().contains("watchdog"), "{e}");
        d.submit_raw(
            |base| store_then_fence(p, base + 0x800, base + FENCE_AT as u64),
            FENCE_AT,
            0xf00d,
        )
        .unwrap_or_else(|e| panic!("{p} {k:?}: {e}"));
    }
}
