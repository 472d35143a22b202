//! Freed buffers' BOs handed out again (as Mesa's and Intel's drivers reuse theirs): a buffer
//! made after another of about its size was freed takes its BO, and still reads as zeros (the
//! contract of `create_buffer` and images) or as the bytes it was made with; a BO a queued
//! kernel still names is not handed out. On every simulated platform and uAPI.

use batchbuffer::PacketId;
use platform::Platform;
use umd::device::{Device, KmdChoice};
use umd::image::ImageFormat;

fn combos() -> Vec<(Platform, KmdChoice)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| umd::device::sim_kmds(p).into_iter().map(move |k| (p, k)))
        .collect()
}

#[test]
fn a_freed_buffers_bo_comes_back_cleared() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let a = d.create_buffer(256 << 10).unwrap();
        a.write(0, &vec![0xa5; 256 << 10]).unwrap();
        let at = a.gpu_address();
        drop(a);
        // A little smaller: the same BO, its bytes cleared.
        let b = d.create_buffer(240 << 10).unwrap();
        assert_eq!(b.gpu_address(), at, "{p:?} {k:?}: the freed BO is reused");
        assert!(b.to_vec().unwrap().iter().all(|&x| x == 0), "{p:?} {k:?}");
        b.write(0, &vec![0x5a; 240 << 10]).unwrap();
        drop(b);
        // Half the size: a new BO (a kept one is taken for at most a quarter more).
        let c = d.create_buffer_with(&[7u8; 128 << 10]).unwrap();
        assert_ne!(c.gpu_address(), at, "{p:?} {k:?}");
        assert!(c.to_vec().unwrap().iter().all(|&x| x == 7), "{p:?} {k:?}");
        // Made with bytes on the kept BO: those bytes.
        let e = d.create_buffer_with(&[9u8; 224 << 10]).unwrap();
        assert_eq!(e.gpu_address(), at, "{p:?} {k:?}");
        assert!(e.to_vec().unwrap().iter().all(|&x| x == 9), "{p:?} {k:?}");
        drop(e);
        // An image on the kept BO is zero-filled as every new image is.
        let img = d.create_image(256, 224, ImageFormat::Rgba8).unwrap();
        assert_eq!(img.buffer().gpu_address(), at, "{p:?} {k:?}");
        assert!(
            img.read_packed().unwrap().iter().all(|&x| x == 0),
            "{p:?} {k:?}: a new image reads as zeros"
        );
    }
}

/// A copy held behind a host event names both its buffers: dropping them does not free their
/// BOs, so a new buffer of their size gets another, and the copy, once let go, moves the
/// source's bytes (neither BO was cleared or reused under it). Platforms with a copy engine.
#[test]
fn a_bo_a_queued_copy_names_is_not_handed_out() {
    let blitter =
        |p: Platform| PacketId::XyBlockCopyBlt.exists_on(p) || PacketId::XySrcCopyBlt.exists_on(p);
    for (p, k) in combos().into_iter().filter(|&(p, _)| blitter(p)) {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        let a = d.create_buffer(256 << 10).unwrap();
        let b = d.create_buffer(256 << 10).unwrap();
        a.write(0, &[0x3c; 64]).unwrap();
        let held = [a.gpu_address(), b.gpu_address()];
        let gate = d.host_event();
        let copy = q
            .copy_buffer(&a, 0, &b, 0, 64, std::slice::from_ref(&gate))
            .unwrap()
            .expect("the copy is queued behind its host event");
        let b_view = b.sub_buffer(0, 64, None).unwrap();
        drop(a);
        drop(b);
        let c = d.create_buffer(256 << 10).unwrap();
        assert!(
            !held.contains(&c.gpu_address()),
            "{p:?} {k:?}: a BO the queued copy names was handed out"
        );
        gate.signal().unwrap();
        copy.wait(None).unwrap();
        assert_eq!(b_view.to_vec().unwrap(), [0x3c; 64], "{p:?} {k:?}");
    }
}
