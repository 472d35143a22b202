//! Host-pointer buffers: userptr BOs (i915 GEM_USERPTR, xe MAP_USERPTR) and CL_MEM_USE_HOST_PTR
//! buffers over them, with the kernels' page rule and cl_intel_subgroups' host_ptr rules
//! ("Restrictions": 4-byte host_ptr for block reads, 16-byte for block writes, 32-byte for
//! images created from such a buffer), on every simulated platform and uAPI.

use std::sync::Arc;

use kmd_iface::seam::{HeapBacking, Mapping};
use platform::Platform;
use umd::blockio::{BlockAccess, Rule};
use umd::device::{Device, KmdChoice};
use umd::image::{Image, ImageFormat};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;
use umd::Error;

/// Page-aligned host memory, a multiple of every device's VA granule (64 KiB on DG2).
const HOST_LEN: usize = 64 << 10;

fn host() -> Mapping {
    Mapping::new(Arc::new(HeapBacking::zeroed(HOST_LEN).unwrap()))
}

fn combos() -> Vec<(Platform, KmdChoice)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| umd::device::sim_kmds(p).into_iter().map(move |k| (p, k)))
        .collect()
}

fn rule_of(r: Result<impl std::fmt::Debug, Error>) -> Rule {
    match r {
        Err(Error::Alignment { rule, .. }) => rule,
        other => panic!("expected an alignment error, got {other:?}"),
    }
}

/// An ocloc-compiled kernel writes `out[i] = 3 * i` straight into host memory through a
/// USE_HOST_PTR buffer that starts 64 bytes into a userptr BO; the host sees exactly those
/// bytes and nothing around them changes.
#[test]
fn kernel_writes_land_in_host_memory() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = include_str!("../../intel-gpu-run/examples/fill.cl");
    let (at, n) = (64usize, 100usize);
    for p in Platform::ALL {
        let bin = oracles::ocloc::compile(&ocloc, p, src, "", oracles::ocloc::Format::PatchTokens)
            .unwrap();
        let kernel = Kernel::from_ocloc(&bin, Some("fill"), Some(p)).unwrap();
        for k in umd::device::sim_kmds(p) {
            let d = Device::open_sim(p, Some(k)).unwrap();
            let mem = host();
            let buf = d
                .create_buffer_use_host_ptr(mem.clone(), at as u64, 4 * n as u64)
                .unwrap();
            assert!(buf.is_host_memory());
            assert_eq!(buf.host_ptr(), Some(mem.as_ptr() as u64 + at as u64));
            let range = NdRange::new(&[n as u32], Some(&[32]), kernel.simd, None).unwrap();
            let args = [
                ArgValue::Buffer(buf.clone()),
                ArgValue::Value(3u32.to_le_bytes().to_vec()),
            ];
            d.dispatch(&kernel, &range, &args)
                .unwrap_or_else(|e| panic!("{p} {k:?}: {e}"));
            let mut bytes = vec![0u8; HOST_LEN];
            mem.read(0, &mut bytes).unwrap();
            for i in 0..n {
                let v = u32::from_le_bytes(bytes[at + 4 * i..][..4].try_into().unwrap());
                assert_eq!(v, 3 * i as u32, "{p} {k:?} out[{i}]");
            }
            assert!(bytes[..at].iter().all(|&b| b == 0), "{p} {k:?}");
            assert!(bytes[at + 4 * n..].iter().all(|&b| b == 0), "{p} {k:?}");
            // The buffer's own reads go to the same host bytes.
            let mut first = [0u8; 8];
            buf.read(4, &mut first).unwrap();
            assert_eq!(first, [3, 0, 0, 0, 6, 0, 0, 0]);
        }
    }
}

/// The kernels take page-aligned userptr memory only; the driver refuses anything else before
/// any ioctl, saying why.
#[test]
fn userptr_memory_must_be_page_aligned() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let odd = Mapping::new(Arc::new(HeapBacking::zeroed(HOST_LEN + 64).unwrap()));
        for r in [
            d.create_buffer_from_host(odd.clone()).map(|_| ()),
            d.create_buffer_use_host_ptr(odd, 0, 64).map(|_| ()),
        ] {
            match r {
                Err(Error::OutOfRange(m)) => assert!(m.contains("page"), "{m}"),
                other => panic!("{p} {k:?}: {other:?}"),
            }
        }
        // A host_ptr range outside the host memory.
        assert!(matches!(
            d.create_buffer_use_host_ptr(host(), HOST_LEN as u64 - 4, 8),
            Err(Error::OutOfRange(_))
        ));
        assert!(matches!(
            d.create_buffer_use_host_ptr(host(), 0, 0),
            Err(Error::OutOfRange(_))
        ));
    }
}

/// Block reads from a USE_HOST_PTR buffer need a 4-byte aligned host_ptr.
#[test]
fn host_ptr_block_read_rule() {
    let d = Device::open_sim(Platform::Tgllp, None).unwrap();
    let b = d.create_buffer_use_host_ptr(host(), 2, 256).unwrap();
    assert_eq!(
        rule_of(b.block_pointer(0, BlockAccess::Read)),
        Rule::HostPtrBlockRead
    );
    // Even at an offset that realigns the pointer: the rule is on host_ptr itself.
    assert_eq!(
        rule_of(b.block_pointer(2, BlockAccess::Read)),
        Rule::HostPtrBlockRead
    );
    let ok = d.create_buffer_use_host_ptr(host(), 4, 256).unwrap();
    assert_eq!(
        ok.block_pointer(8, BlockAccess::Read).unwrap(),
        ok.gpu_address() + 8
    );
}

/// Block writes to a USE_HOST_PTR buffer need a 16-byte aligned host_ptr (4 is enough to read).
#[test]
fn host_ptr_block_write_rule() {
    let d = Device::open_sim(Platform::Dg2, Some(KmdChoice::Xe)).unwrap();
    let b = d.create_buffer_use_host_ptr(host(), 4, 256).unwrap();
    b.block_pointer(0, BlockAccess::Read).unwrap();
    assert_eq!(
        rule_of(b.block_pointer(12, BlockAccess::Write)),
        Rule::HostPtrBlockWrite
    );
    let ok = d.create_buffer_use_host_ptr(host(), 48, 256).unwrap();
    ok.block_pointer(16, BlockAccess::Write).unwrap();
    // The plain pointer rule still applies on top of an aligned host_ptr.
    assert_eq!(
        rule_of(ok.block_pointer(4, BlockAccess::Write)),
        Rule::BlockWritePointer
    );
}

/// A sub-buffer of a USE_HOST_PTR buffer carries its parent's host_ptr rule besides its own
/// origin rule.
#[test]
fn host_ptr_rule_applies_to_sub_buffers() {
    let d = Device::open_sim(Platform::Skl, None).unwrap();
    let b = d.create_buffer_use_host_ptr(host(), 8, 1024).unwrap();
    assert_eq!(
        rule_of(b.sub_buffer(32, 64, Some(BlockAccess::Write))),
        Rule::HostPtrBlockWrite
    );
    let s = b.sub_buffer(32, 64, Some(BlockAccess::Read)).unwrap();
    assert_eq!(s.host_ptr(), b.host_ptr());
    assert_eq!(
        rule_of(s.block_pointer(0, BlockAccess::Write)),
        Rule::HostPtrBlockWrite
    );
    let aligned = d.create_buffer_use_host_ptr(host(), 16, 1024).unwrap();
    assert_eq!(
        rule_of(aligned.sub_buffer(8, 64, Some(BlockAccess::Write))),
        Rule::SubBufferWriteOrigin
    );
    aligned
        .sub_buffer(32, 64, Some(BlockAccess::Write))
        .unwrap();
}

/// An image created from a USE_HOST_PTR buffer and used with block IO needs a 32-byte aligned
/// host_ptr; without block IO the image is fine.
#[test]
fn image_from_host_ptr_buffer_rule() {
    let d = Device::open_sim(Platform::Icllp, None).unwrap();
    let b = d.create_buffer_use_host_ptr(host(), 16, 64 * 16).unwrap();
    assert_eq!(
        rule_of(Image::from_buffer(&b, 16, 16, ImageFormat::R32ui, 64, true)),
        Rule::ImageFromHostPtrBuffer
    );
    Image::from_buffer(&b, 16, 16, ImageFormat::R32ui, 64, false).unwrap();
    let ok = d.create_buffer_use_host_ptr(host(), 32, 64 * 16).unwrap();
    Image::from_buffer(&ok, 16, 16, ImageFormat::R32ui, 64, true).unwrap();
}
