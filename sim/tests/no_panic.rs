//! Random ioctls into both personalities on every platform: errors are fine, panics are not.
//! (The cargo-fuzz target in `sim/fuzz` runs the same driver for millions of inputs.)

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

/// A fixed-seed random stream (proptest's XorShift generator), so a failure reproduces.
fn rng(seed: u64) -> TestRng {
    let s = [seed.to_le_bytes(), (!seed).to_le_bytes()].concat();
    TestRng::from_seed(RngAlgorithm::XorShift, &s)
}

#[test]
fn random_ioctls_never_panic() {
    let mut rng = rng(0x5eed_1234_abcd_0001);
    for i in 0..3000u32 {
        let len = 300 + (rng.next_u64() % 2048) as usize;
        let mut data: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        data[0] = i as u8;
        // Make some argument words scratch pointers and some small handles, like real callers.
        for w in data[257..].chunks_exact_mut(8) {
            match rng.next_u64() % 8 {
                0 => w.copy_from_slice(
                    &(0xaaaa_0000_0000_0000 | (rng.next_u64() & 0xfff8)).to_le_bytes(),
                ),
                1 => w.copy_from_slice(&(rng.next_u64() % 4).to_le_bytes()),
                _ => {}
            }
        }
        sim::fuzz::run(&data);
    }
}

/// An ioctl told to copy past the end of the driver's scratch buffer gets EFAULT from the guard
/// behind it: an xe DEVICE_QUERY replying to a pointer 16 bytes before the end used to
/// overwrite the allocator's next chunk ("double free or corruption", found by the fuzz
/// target). Every pick, so each xe-capable platform is reached; engines and hwconfig replies.
#[test]
fn copies_past_the_scratch_buffer_fault_instead_of_corrupting_the_heap() {
    use kmd_iface::xe::uapi::{
        drm_xe_device_query, DRM_IOCTL_XE_DEVICE_QUERY, DRM_XE_DEVICE_QUERY_ENGINES,
        DRM_XE_DEVICE_QUERY_HWCONFIG,
    };
    use zerocopy::IntoBytes;
    for pick in 0..8u8 {
        for query in [DRM_XE_DEVICE_QUERY_ENGINES, DRM_XE_DEVICE_QUERY_HWCONFIG] {
            let arg = drm_xe_device_query {
                extensions: 0,
                query,
                size: u32::MAX,
                // A scratch pointer (top 16 bits 0xaaaa) at offset 0xfff0 of the 64 KiB buffer.
                data: 0xaaaa_0000_0000_fff0,
                reserved: [0; 2],
            };
            let mut data = vec![pick];
            data.resize(1 + 256, 0);
            data.push(0x80); // a raw request number follows
            data.extend_from_slice(&DRM_IOCTL_XE_DEVICE_QUERY.to_le_bytes());
            data.extend_from_slice(arg.as_bytes());
            for _ in 0..4 {
                sim::fuzz::run(&data);
            }
        }
    }
}
